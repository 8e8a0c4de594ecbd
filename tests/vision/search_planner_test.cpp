// Where to look: decimation by tag size, tiles that cover every tag whole, the sweep covering the
// table, expected tags and changed regions searched.
#include "vision/search_planner.h"

#include <gtest/gtest.h>

namespace diskref::vision {
namespace {

bool inside_some(const std::vector<SearchRegion>& regions, cv::Rect r) {
  for (const auto& s : regions)
    if ((s.roi & r) == r) return true;
  return false;
}

TEST(SearchPlanner, DecimationKeepsEnoughPixelsPerCell) {
  EXPECT_EQ(quad_decimate_for(2.5, 2.0), 1.0);
  EXPECT_EQ(quad_decimate_for(3.0, 2.0), 1.5);
  EXPECT_EQ(quad_decimate_for(4.0, 2.0), 2.0);
  EXPECT_EQ(quad_decimate_for(7.0, 2.0), 3.0);
  EXPECT_EQ(quad_decimate_for(40.0, 2.0), 4.0);
  for (double ppc = 1; ppc < 50; ppc += 0.25) {
    const double d = quad_decimate_for(ppc, 2.0);
    EXPECT_TRUE(d == 1.0 || ppc / d >= 2.0) << ppc;
  }
}

TEST(SearchPlanner, SplitTilesHoldEverySquareOfTheOverlapWhole) {
  const cv::Rect region(13, 27, 901, 577);
  const int overlap = 70;
  auto tiles = split_region(region, 200 * 200, overlap);
  EXPECT_GT(tiles.size(), 4u);
  double total = 0;
  for (const auto& t : tiles) {
    EXPECT_EQ(t & region, t);
    EXPECT_LE(t.area(), 200 * 200);
    total += t.area();
  }
  // Tiles about 200 px wide sharing 70 px: about (200 / 130)^2 = 2.4 times the pixels at most.
  EXPECT_LT(total, 2.4 * region.area());
  EXPECT_EQ(split_region(region, region.area(), overlap).size(), 1u);
  std::vector<SearchRegion> regions;
  for (const auto& t : tiles) regions.push_back({t, 1});
  for (int y = region.y; y + overlap <= region.y + region.height; y += 7)
    for (int x = region.x; x + overlap <= region.x + region.width; x += 7)
      ASSERT_TRUE(inside_some(regions, {x, y, overlap, overlap})) << x << "," << y;
}

SearchScene scene() {
  SearchScene s;
  s.image_size = {1920, 1080};
  s.table_px = {400, 40, 1100, 1000};
  s.min_pixels_per_cell = 2.4;
  s.max_tag_px = 60;
  return s;
}

TEST(SearchPlanner, ExpectedTagsAndChangesAreSearchedWithTheirDecimation) {
  SearchPlanner planner;
  SearchScene s = scene();
  s.expected = {{cv::Rect2d(600.5, 300.2, 40, 40), 8.0}, {cv::Rect2d(1200, 800, 20, 20), 3.0}};
  s.changed = {cv::Rect(900, 500, 50, 30)};
  auto regions = planner.plan(s, false);
  ASSERT_TRUE(inside_some(regions, {600, 300, 42, 42}));
  ASSERT_TRUE(inside_some(regions, {1200, 800, 20, 20}));
  ASSERT_TRUE(inside_some(regions, {900, 500, 50, 30}));
  for (const auto& r : regions) {
    EXPECT_EQ(r.roi & cv::Rect(0, 0, 1920, 1080), r.roi);
    if (r.roi.contains({620, 320})) {
      EXPECT_GE(r.quad_decimate, 2.0);
    }
    if (r.roi.contains({1210, 810})) {
      EXPECT_LE(r.quad_decimate, 1.5);
    }
    if (r.roi.contains({925, 515})) {
      EXPECT_EQ(r.quad_decimate, 1.0);  // any tag may be there
    }
  }
}

TEST(SearchPlanner, TheSweepCoversTheWholeTable) {
  SearchPlannerOptions options;
  options.sweep_frames = 48;
  options.sweep_every_frames = 2;  // a tile every other frame: 24 tiles
  SearchPlanner planner(options);
  SearchScene s = scene();
  std::vector<SearchRegion> all;
  for (int i = 0; i < options.sweep_frames; ++i) {
    auto regions = planner.plan(s, false);
    double area = 0;
    for (const auto& r : regions) area += r.roi.area();
    EXPECT_LT(area, s.table_px.area() / 6.0) << "one frame searches a small part";
    if (i % options.sweep_every_frames) {
      EXPECT_EQ(area, 0.0) << "no sweep tile in this frame";
    }
    all.insert(all.end(), regions.begin(), regions.end());
  }
  const int tag = static_cast<int>(s.max_tag_px);
  for (int y = s.table_px.y; y + tag <= s.table_px.y + s.table_px.height; y += 9)
    for (int x = s.table_px.x; x + tag <= s.table_px.x + s.table_px.width; x += 9)
      ASSERT_TRUE(inside_some(all, {x, y, tag, tag})) << x << "," << y;
}

TEST(SearchPlanner, ChangesAreDecimatedForTheSmallestTagThatCanBeWhereTheyAre) {
  SearchPlanner planner;
  SearchScene s = scene();
  // A tilted camera: the top of the image (the far side) sees the smallest tag at 2.4 px a cell,
  // the bottom at 4.8.
  s.tag_scale.cell_px = 40;
  s.tag_scale.min_pixels_per_cell = cv::Mat(27, 48, CV_64F);
  for (int r = 0; r < 27; ++r) s.tag_scale.min_pixels_per_cell.row(r).setTo(cv::Scalar(2.4 + 2.4 * r / 26.0));
  s.changed = {cv::Rect(900, 60, 40, 40), cv::Rect(900, 960, 40, 40)};
  const auto regions = planner.plan(s, false);
  for (const auto& r : regions) {
    if (r.roi.contains({920, 80})) {
      EXPECT_EQ(r.quad_decimate, 1.0);
    }
    if (r.roi.contains({920, 980})) {
      EXPECT_EQ(r.quad_decimate, 2.0);
    }
    EXPECT_EQ(r.purpose, SearchRegion::Purpose::anything);
  }
  EXPECT_EQ(s.tag_scale.min_in(cv::Rect(0, 0, 1920, 80), 9.0), 2.4);
  EXPECT_EQ(TagScaleMap{}.min_in(cv::Rect(0, 0, 10, 10), 9.0), 9.0);
}

TEST(SearchPlanner, SearchEverythingCoversTheTableAndUnknownTablesTheImage) {
  SearchPlanner planner;
  SearchScene s = scene();
  auto regions = planner.plan(s, true);
  const int tag = static_cast<int>(s.max_tag_px);
  for (int y = s.table_px.y; y + tag <= s.table_px.y + s.table_px.height; y += 11)
    for (int x = s.table_px.x; x + tag <= s.table_px.x + s.table_px.width; x += 11)
      ASSERT_TRUE(inside_some(regions, {x, y, tag, tag}));
  s.table_px = {};
  regions = planner.plan(s, false);
  ASSERT_EQ(regions.size(), 1u);
  EXPECT_EQ(regions[0].roi, cv::Rect(0, 0, 1920, 1080));
  EXPECT_EQ(regions[0].quad_decimate, 1.0);
}

}  // namespace
}  // namespace diskref::vision
