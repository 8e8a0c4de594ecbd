#pragma once
// Maps between the screen (window pixels, x right, y down) and what a view shows: the camera
// image (OpenCV pixels, centres at integers) or the table (millimetres, table frame, y up).
//
// Pure maths, no ImGui: the panels call these, and the tests check them headlessly.

#include "engine/geometry/vec2.h"

namespace diskref::ui {

using geom::Vec2;

// An axis-aligned rectangle on the screen, in window pixels.
struct ScreenRect {
  double x = 0;
  double y = 0;
  double w = 0;
  double h = 0;

  Vec2 min() const { return {x, y}; }
  Vec2 max() const { return {x + w, y + h}; }
  Vec2 center() const { return {x + w / 2, y + h / 2}; }
  bool contains(Vec2 p) const { return p.x >= x && p.y >= y && p.x <= x + w && p.y <= y + h; }
  // This rectangle shrunk by `inset` on every side (never below zero size).
  ScreenRect inset(double inset) const;
};

// The camera view: the image scaled uniformly to fit a screen rectangle, centred (letterboxed).
// An image of W x H pixels spans OpenCV coordinates [-0.5, W - 0.5] x [-0.5, H - 0.5], so
// screen_from_image: s = image_origin + scale * (p + 0.5).
struct ImageViewTransform {
  double scale = 1;   // screen px per image px
  Vec2 image_origin;  // screen position of the image's top-left corner
  Vec2 image_size;    // W, H in image pixels

  Vec2 screen_from_image(Vec2 p_image) const { return image_origin + scale * (p_image + Vec2{0.5, 0.5}); }
  Vec2 image_from_screen(Vec2 s) const { return (s - image_origin) / scale - Vec2{0.5, 0.5}; }
  // The screen rectangle the image occupies.
  ScreenRect image_rect() const { return {image_origin.x, image_origin.y, scale * image_size.x, scale * image_size.y}; }
};

ImageViewTransform fit_image(Vec2 image_size_px, const ScreenRect& area);
// The same scaled so that the image region [region_min, region_max] (OpenCV pixel coordinates)
// fills the area, centred: parts of the image outside the region fall outside the area (the
// caller clips). The region is first clamped to the image.
ImageViewTransform fit_image_region(Vec2 image_size_px, Vec2 region_min, Vec2 region_max, const ScreenRect& area);

// The table view: top-down, table +x to the right and +y up the screen (seen from above, as the
// table frame is defined), uniform scale. screen_from_table: s = (o.x + k x, o.y - k y).
struct TableViewTransform {
  double px_per_mm = 1;
  Vec2 screen_origin;  // where table (0, 0) lands on the screen

  Vec2 screen_from_table(Vec2 p_mm) const {
    return {screen_origin.x + px_per_mm * p_mm.x, screen_origin.y - px_per_mm * p_mm.y};
  }
  Vec2 table_from_screen(Vec2 s) const {
    return {(s.x - screen_origin.x) / px_per_mm, (screen_origin.y - s.y) / px_per_mm};
  }
  // Screen direction of a table-frame direction (y flips).
  Vec2 screen_dir(Vec2 d_table) const { return {d_table.x, -d_table.y}; }
};

// Fits the table-frame box [min_mm, max_mm] into `area` (uniform scale, centred).
TableViewTransform fit_table(Vec2 min_mm, Vec2 max_mm, const ScreenRect& area);

// The grid lines to draw in a table view: multiples of the step that fall inside [lo, hi].
// The step is the smallest of 10, 25, 50, 100, 250 mm whose lines are at least `min_gap_px` apart.
double grid_step_mm(double px_per_mm, double min_gap_px);

}  // namespace diskref::ui
