#include "engine/geometry/outline.h"

#include <algorithm>
#include <cmath>

namespace diskref::geom {
namespace {

// Whether unit `dir` lies in the normal range of the arc from corner a to corner b (counter-
// clockwise about the centre; arcs of these shapes span at most half a turn).
bool in_arc_range(Vec2 a, Vec2 b, Vec2 dir) {
  return cross(a, dir) >= 0 && cross(dir, b) >= 0;
}

// The arc piece applies to `dir` when the outline is a full circle or `dir` is in an arc's range.
bool arc_applies(const Outline& o, Vec2 dir) {
  if (o.arc_radius <= 0) return false;
  if (o.corner_count == 0) return true;
  for (int i = 0; i < o.corner_count; ++i) {
    if (!o.edge_is_arc[i]) continue;
    if (in_arc_range(o.corners[i], o.corners[(i + 1) % o.corner_count], dir)) return true;
  }
  return false;
}

}  // namespace

SupportPiece support_piece(const Outline& o, Vec2 dir) {
  SupportPiece best{{0, 0}, -1e300};
  if (arc_applies(o, dir)) best = {{0, 0}, o.arc_radius};
  for (int i = 0; i < o.corner_count; ++i) {
    double v = dot(dir, o.corners[i]);
    if (v > dot(dir, best.point) + best.radius) best = {o.corners[i], 0};
  }
  return best;
}

int support_breaks(const Outline& o, std::array<Vec2, 8>& breaks) {
  int n = 0;
  for (int i = 0; i < o.corner_count; ++i) {
    int before = (i + o.corner_count - 1) % o.corner_count;
    // An arc's normal at its end is the direction of the corner it ends at.
    breaks[n++] = o.edge_is_arc[before] ? normalized(o.corners[i]) : o.edge_normals[before];
    breaks[n++] = o.edge_is_arc[i] ? normalized(o.corners[i]) : o.edge_normals[i];
  }
  return n;
}

Segment support_feature(const Outline& o, Vec2 dir, double tolerance_mm) {
  double h = support_value(o, dir);
  Vec2 tangent = perp(dir);
  bool any = false;
  Segment s;
  auto take = [&](Vec2 p) {
    if (!any) {
      s = {p, p};
      any = true;
      return;
    }
    if (dot(tangent, p) < dot(tangent, s.p0)) s.p0 = p;
    if (dot(tangent, p) > dot(tangent, s.p1)) s.p1 = p;
  };
  if (arc_applies(o, dir)) take(o.arc_radius * dir);
  for (int i = 0; i < o.corner_count; ++i)
    if (dot(dir, o.corners[i]) >= h - tolerance_mm) take(o.corners[i]);
  return s;
}

std::vector<Vec2> outline_polygon(const PlacedShape& placed, double max_chord_deg) {
  Outline o = make_outline(placed.shape);
  std::vector<Vec2> local;
  auto add_arc = [&](double from_rad, double to_rad) {
    // Points strictly after `from` up to and including `to`.
    double span = to_rad - from_rad;
    int steps = std::max(1, static_cast<int>(std::ceil(rad_to_deg(span) / max_chord_deg)));
    for (int k = 1; k <= steps; ++k) {
      double t = from_rad + span * k / steps;
      local.push_back({o.arc_radius * std::cos(t), o.arc_radius * std::sin(t)});
    }
  };
  if (o.corner_count == 0) {
    add_arc(0, 2 * std::numbers::pi);
  } else {
    for (int i = 0; i < o.corner_count; ++i) {
      Vec2 c = o.corners[i];
      if (local.empty() || !(local.back() == c)) local.push_back(c);
      if (!o.edge_is_arc[i]) continue;
      Vec2 next = o.corners[(i + 1) % o.corner_count];
      double from = std::atan2(c.y, c.x);
      double to = std::atan2(next.y, next.x);
      while (to <= from) to += 2 * std::numbers::pi;
      add_arc(from, to);
      local.pop_back();  // the arc's last point is the next corner, added by the loop
    }
  }
  std::vector<Vec2> table;
  table.reserve(local.size());
  for (Vec2 p : local) table.push_back(to_table(placed.pose, p));
  return table;
}

std::vector<Vec2> convex_hull(std::vector<Vec2> points) {
  std::sort(points.begin(), points.end(), [](Vec2 a, Vec2 b) { return a.x < b.x || (a.x == b.x && a.y < b.y); });
  if (points.size() < 3) return points;
  std::vector<Vec2> hull(2 * points.size());
  std::size_t k = 0;
  for (std::size_t i = 0; i < points.size(); ++i) {  // lower chain
    while (k >= 2 && cross(hull[k - 1] - hull[k - 2], points[i] - hull[k - 2]) <= 0) --k;
    hull[k++] = points[i];
  }
  for (std::size_t i = points.size() - 1, lower = k + 1; i > 0; --i) {  // upper chain
    while (k >= lower && cross(hull[k - 1] - hull[k - 2], points[i - 1] - hull[k - 2]) <= 0) --k;
    hull[k++] = points[i - 1];
  }
  hull.resize(k - 1);
  return hull;
}

}  // namespace diskref::geom
