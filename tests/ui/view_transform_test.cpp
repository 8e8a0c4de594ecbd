#include "ui/view_transform.h"

#include <cmath>

#include <gtest/gtest.h>

#include "ui/layout.h"

namespace diskref::ui {
namespace {

TEST(ImageView, LetterboxesAWideImageIntoATallArea) {
  ImageViewTransform t = fit_image({1280, 720}, {10, 20, 640, 480});
  EXPECT_DOUBLE_EQ(t.scale, 0.5);
  ScreenRect r = t.image_rect();
  EXPECT_DOUBLE_EQ(r.x, 10);
  EXPECT_DOUBLE_EQ(r.w, 640);
  EXPECT_DOUBLE_EQ(r.h, 360);
  EXPECT_DOUBLE_EQ(r.y, 20 + (480 - 360) / 2.0);  // centred vertically
}

TEST(ImageView, PixelCentresFollowOpenCvConvention) {
  // Pixel (0, 0) covers [-0.5, 0.5]^2: its centre is half a scaled pixel inside the corner.
  ImageViewTransform t = fit_image({100, 50}, {0, 0, 200, 100});
  ASSERT_DOUBLE_EQ(t.scale, 2.0);
  Vec2 s = t.screen_from_image({0, 0});
  EXPECT_DOUBLE_EQ(s.x, 1.0);
  EXPECT_DOUBLE_EQ(s.y, 1.0);
  Vec2 corner = t.screen_from_image({-0.5, -0.5});
  EXPECT_DOUBLE_EQ(corner.x, 0.0);
  Vec2 far = t.screen_from_image({99.5, 49.5});
  EXPECT_DOUBLE_EQ(far.x, 200.0);
  EXPECT_DOUBLE_EQ(far.y, 100.0);
}

TEST(ImageView, RoundTrips) {
  ImageViewTransform t = fit_image({1920, 1080}, {3, 7, 777, 555});
  for (Vec2 p : {Vec2{0, 0}, Vec2{1919, 1079}, Vec2{123.25, 456.5}}) {
    Vec2 back = t.image_from_screen(t.screen_from_image(p));
    EXPECT_NEAR(back.x, p.x, 1e-9);
    EXPECT_NEAR(back.y, p.y, 1e-9);
  }
}

TEST(ImageView, ARegionFillsTheAreaCentred) {
  // Region 400 x 200 px in a 1920 x 1080 image, shown in a 800 x 800 area: scale 2, centred.
  ScreenRect area{10, 20, 800, 800};
  ImageViewTransform t = fit_image_region({1920, 1080}, {100, 300}, {500, 500}, area);
  EXPECT_DOUBLE_EQ(t.scale, 2.0);
  Vec2 c = t.screen_from_image({300, 400});
  EXPECT_NEAR(c.x, area.center().x, 1e-9);  // the region's middle
  EXPECT_NEAR(c.y, area.center().y, 1e-9);
  Vec2 lo = t.screen_from_image({100, 300});
  Vec2 hi = t.screen_from_image({500, 500});
  EXPECT_NEAR(lo.x, 10, 1e-9);
  EXPECT_NEAR(hi.x, 810, 1e-9);
  EXPECT_NEAR((lo.y + hi.y) / 2, area.center().y, 1e-9);
  // A region reaching past the image is clamped to it; an empty one falls back to the whole image.
  ImageViewTransform clamped = fit_image_region({100, 100}, {-50, -50}, {49.5, 49.5}, {0, 0, 100, 100});
  EXPECT_DOUBLE_EQ(clamped.scale, 2.0);
  ImageViewTransform whole = fit_image_region({100, 50}, {5, 5}, {5, 5}, {0, 0, 200, 100});
  EXPECT_DOUBLE_EQ(whole.scale, 2.0);
}

TEST(TableView, TableYGoesUpTheScreen) {
  TableViewTransform t = fit_table({0, 0}, {1000, 500}, {0, 0, 400, 400});
  EXPECT_DOUBLE_EQ(t.px_per_mm, 0.4);
  Vec2 origin = t.screen_from_table({0, 0});
  Vec2 up = t.screen_from_table({0, 100});
  Vec2 right = t.screen_from_table({100, 0});
  EXPECT_LT(up.y, origin.y);     // +y is up on the screen
  EXPECT_GT(right.x, origin.x);  // +x is right
  // Centred: the box's middle lands in the area's middle.
  Vec2 mid = t.screen_from_table({500, 250});
  EXPECT_DOUBLE_EQ(mid.x, 200);
  EXPECT_DOUBLE_EQ(mid.y, 200);
  // Counter-clockwise stays counter-clockwise seen from above: +x rotated to +y turns left on screen.
  Vec2 d = t.screen_dir({0, 1});
  EXPECT_DOUBLE_EQ(d.y, -1);
}

TEST(TableView, RoundTripsAndFitsInside) {
  ScreenRect area{50, 60, 300, 700};
  TableViewTransform t = fit_table({-90, -90}, {1004, 1004}, area);
  for (Vec2 p : {Vec2{-90, -90}, Vec2{1004, 1004}, Vec2{457.2, 12.5}}) {
    Vec2 s = t.screen_from_table(p);
    EXPECT_TRUE(area.contains(s)) << s.x << "," << s.y;
    Vec2 back = t.table_from_screen(s);
    EXPECT_NEAR(back.x, p.x, 1e-9);
    EXPECT_NEAR(back.y, p.y, 1e-9);
  }
}

TEST(TableView, GridStepKeepsLinesApart) {
  EXPECT_EQ(grid_step_mm(2.0, 12), 10);    // 20 px apart
  EXPECT_EQ(grid_step_mm(0.45, 12), 50);   // 25 mm would be 11.25 px
  EXPECT_EQ(grid_step_mm(0.01, 12), 250);  // never coarser than 250
}

TEST(ScreenRectTest, InsetNeverGoesNegative) {
  ScreenRect r = ScreenRect{0, 0, 10, 4}.inset(3);
  EXPECT_DOUBLE_EQ(r.w, 4);
  EXPECT_DOUBLE_EQ(r.h, 0);
  EXPECT_DOUBLE_EQ(r.y, 2);
}

double area(const ScreenRect& r) {
  return r.w * r.h;
}

bool overlap(const ScreenRect& a, const ScreenRect& b) {
  return a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
}

// Both layouts (the screen's and --game's) tile the window without gaps or overlaps.
template <class L, class Panels>
void expect_tiles_exactly(L (*layout)(Vec2), const Panels& panels) {
  for (Vec2 size : {Vec2{1280, 800}, Vec2{1920, 1080}, Vec2{800, 600}, Vec2{1281.7, 799.2}}) {
    L l = layout(size);
    double total = 0;
    for (auto p : panels) {
      const ScreenRect& r = l.rect(p);
      total += area(r);
      EXPECT_GE(r.x, 0);
      EXPECT_GE(r.y, 0);
      EXPECT_LE(r.x + r.w, std::floor(size.x));
      EXPECT_LE(r.y + r.h, std::floor(size.y));
      EXPECT_EQ(r.x, std::floor(r.x));  // whole pixels: crisp panel borders
      EXPECT_EQ(r.w, std::floor(r.w));
      for (auto q : panels) {
        if (p != q) {
          EXPECT_FALSE(overlap(r, l.rect(q))) << static_cast<int>(p) << " overlaps " << static_cast<int>(q);
        }
      }
    }
    EXPECT_DOUBLE_EQ(total, std::floor(size.x) * std::floor(size.y));
  }
}

TEST(LayoutTest, TilesTheWindowExactly) {
  expect_tiles_exactly(&compute_layout, kAllPanels);
}

TEST(LayoutTest, TheGameLayoutTilesTheWindowExactly) {
  expect_tiles_exactly(&compute_game_layout, kAllGamePanels);
}

TEST(LayoutTest, TheGameKeepsTheViewsOnTopAndTheBooksBelow) {
  GameLayout l = compute_game_layout({1280, 800});
  EXPECT_EQ(l.camera.y, 0);
  EXPECT_EQ(l.table.y, 0);
  EXPECT_EQ(l.ships.y, l.camera.h);
  EXPECT_EQ(l.turn.y, l.camera.h);
  // Usable at 1280x800: each bottom panel keeps room for a ship's card at the game font.
  EXPECT_GE(l.ships.w, 400);
  EXPECT_GE(l.ships.h, 340);
}

TEST(LayoutTest, ViewsGetTheTopAndTheCameraTheWiderPart) {
  Layout l = compute_layout({1280, 800});
  EXPECT_EQ(l.camera.y, 0);
  EXPECT_EQ(l.table.y, 0);
  EXPECT_GT(l.camera.w, l.table.w);
  EXPECT_GT(l.camera.h, l.dispute.h);
  EXPECT_EQ(l.dispute.y, l.camera.h);
}

}  // namespace
}  // namespace diskref::ui
