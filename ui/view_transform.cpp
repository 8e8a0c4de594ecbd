#include "ui/view_transform.h"

#include <algorithm>
#include <iterator>

namespace diskref::ui {

ScreenRect ScreenRect::inset(double d) const {
  double nw = std::max(0.0, w - 2 * d);
  double nh = std::max(0.0, h - 2 * d);
  return {x + (w - nw) / 2, y + (h - nh) / 2, nw, nh};
}

ImageViewTransform fit_image(Vec2 image_size_px, const ScreenRect& area) {
  ImageViewTransform t;
  t.image_size = image_size_px;
  if (image_size_px.x <= 0 || image_size_px.y <= 0 || area.w <= 0 || area.h <= 0) {
    t.scale = 1;
    t.image_origin = area.min();
    return t;
  }
  t.scale = std::min(area.w / image_size_px.x, area.h / image_size_px.y);
  Vec2 shown = t.scale * image_size_px;
  t.image_origin = {area.x + (area.w - shown.x) / 2, area.y + (area.h - shown.y) / 2};
  return t;
}

ImageViewTransform fit_image_region(Vec2 image_size_px, Vec2 region_min, Vec2 region_max, const ScreenRect& area) {
  Vec2 lo{std::max(region_min.x, -0.5), std::max(region_min.y, -0.5)};
  Vec2 hi{std::min(region_max.x, image_size_px.x - 0.5), std::min(region_max.y, image_size_px.y - 0.5)};
  Vec2 size = hi - lo;
  if (size.x <= 0 || size.y <= 0 || area.w <= 0 || area.h <= 0) return fit_image(image_size_px, area);
  ImageViewTransform t;
  t.image_size = image_size_px;
  t.scale = std::min(area.w / size.x, area.h / size.y);
  // The region's middle goes to the area's middle: c = origin + scale * (mid + 0.5).
  Vec2 mid = (lo + hi) / 2;
  t.image_origin = area.center() - t.scale * (mid + Vec2{0.5, 0.5});
  return t;
}

TableViewTransform fit_table(Vec2 min_mm, Vec2 max_mm, const ScreenRect& area) {
  TableViewTransform t;
  Vec2 size = max_mm - min_mm;
  if (size.x <= 0 || size.y <= 0 || area.w <= 0 || area.h <= 0) {
    t.screen_origin = {area.x, area.y + area.h};
    return t;
  }
  t.px_per_mm = std::min(area.w / size.x, area.h / size.y);
  // Centre the box: its middle goes to the middle of the area.
  Vec2 mid_mm = (min_mm + max_mm) / 2;
  Vec2 c = area.center();
  t.screen_origin = {c.x - t.px_per_mm * mid_mm.x, c.y + t.px_per_mm * mid_mm.y};
  return t;
}

double grid_step_mm(double px_per_mm, double min_gap_px) {
  constexpr double kSteps[] = {10, 25, 50, 100, 250};
  for (double step : kSteps) {
    if (step * px_per_mm >= min_gap_px) return step;
  }
  return kSteps[std::size(kSteps) - 1];
}

}  // namespace diskref::ui
