#include "ui/label_placement.h"

#include <algorithm>

#include "engine/geometry/vec2.h"

namespace diskref::ui {

double overlap_area(const ScreenRect& a, const ScreenRect& b) {
  const double w = std::min(a.x + a.w, b.x + b.w) - std::max(a.x, b.x);
  const double h = std::min(a.y + a.h, b.y + b.h) - std::max(a.y, b.y);
  return w > 0 && h > 0 ? w * h : 0.0;
}

std::optional<Vec2> least_covering_spot(const std::vector<Vec2>& spots, Vec2 size, const ScreenRect& view,
                                        const std::vector<ScreenRect>& keep_clear) {
  std::optional<Vec2> best;
  double least = 0;
  for (const Vec2& p : spots) {
    if (p.x < view.x || p.y < view.y || p.x + size.x > view.x + view.w || p.y + size.y > view.y + view.h) continue;
    double covered = 0;
    for (const ScreenRect& r : keep_clear) covered += overlap_area({p.x, p.y, size.x, size.y}, r);
    if (!best || covered < least) {
      best = p;
      least = covered;
    }
    if (covered <= 0) break;
  }
  return best;
}

ScreenRect bounding_rect(const std::vector<Vec2>& points) {
  if (points.empty()) return {};
  Vec2 lo = points.front(), hi = points.front();
  for (const Vec2& p : points) {
    lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
    hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
  }
  return {lo.x, lo.y, hi.x - lo.x, hi.y - lo.y};
}

std::vector<Vec2> place_labels(const std::vector<LabelWish>& wishes, const ScreenRect& view,
                               const std::vector<ScreenRect>& keep_clear) {
  // A label over another label hides a word; over a kept-clear thing, part of a drawing.
  constexpr double kLabelWeight = 4, kOutsideWeight = 4;
  constexpr int kRings = 5;
  // Labels nearest the middle of them all first: they have the fewest free spots.
  Vec2 middle{0, 0};
  for (const LabelWish& w : wishes)
    middle = middle + w.anchor / static_cast<double>(std::max<std::size_t>(1, wishes.size()));
  std::vector<std::size_t> order(wishes.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
    return geom::distance(wishes[a].anchor, middle) < geom::distance(wishes[b].anchor, middle);
  });
  std::vector<Vec2> out(wishes.size());
  std::vector<ScreenRect> placed;
  for (std::size_t i : order) {
    const LabelWish& wish = wishes[i];
    const double w = wish.size.x, h = wish.size.y;
    const Vec2 a = wish.anchor;
    std::vector<Vec2> spots;
    for (int ring = 0; ring < kRings; ++ring) {
      const double reach = wish.reach + ring * (h + 2), slant = reach * 0.7;
      spots.push_back({a.x - w / 2, a.y + reach});          // below
      spots.push_back({a.x - w / 2, a.y - reach - h});      // above
      spots.push_back({a.x + reach, a.y - h / 2});          // right
      spots.push_back({a.x - reach - w, a.y - h / 2});      // left
      spots.push_back({a.x + slant, a.y + slant});          // below right
      spots.push_back({a.x - slant - w, a.y + slant});      // below left
      spots.push_back({a.x + slant, a.y - slant - h});      // above right
      spots.push_back({a.x - slant - w, a.y - slant - h});  // above left
    }
    Vec2 best = spots.front();
    double best_cost = -1;
    for (const Vec2& spot : spots) {
      const ScreenRect r{spot.x, spot.y, w, h};
      double cost = kOutsideWeight * (w * h - overlap_area(r, view));
      for (const ScreenRect& other : placed) cost += kLabelWeight * overlap_area(r, other);
      for (std::size_t k = 0; k < keep_clear.size(); ++k)
        if (static_cast<long>(k) != wish.own) cost += overlap_area(r, keep_clear[k]);
      if (best_cost < 0 || cost < best_cost) {
        best = spot;
        best_cost = cost;
      }
      if (cost <= 0) break;
    }
    out[i] = best;
    placed.push_back({best.x, best.y, w, h});
  }
  return out;
}

}  // namespace diskref::ui
