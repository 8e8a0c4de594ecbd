#include "ui/hit_test.h"

#include <random>

#include <gtest/gtest.h>

#include "engine/geometry/outline.h"
#include "tests/referee/test_table.h"

namespace diskref::ui {
namespace {

using geom::Vec2;
using referee::testing::test_registry;
using referee::testing::track;

TEST(PolygonContains, AgreesWithTheShapeItOutlines) {
  // The polygon is the outline sampled into chords: inside it means inside the shape (chords cut
  // corners inwards), and points well inside the shape are inside the polygon.
  geom::PlacedShape placed{geom::FlattedCircle{63.5, 57.2}, geom::Pose::from_degrees(40, -20, 33)};
  std::vector<Vec2> poly = geom::outline_polygon(placed, 2.0);
  std::mt19937 rng(5);
  std::uniform_real_distribution<double> u(-40, 40);
  int checked = 0;
  for (int i = 0; i < 4000; ++i) {
    Vec2 p = placed.pose.position + Vec2{u(rng), u(rng)};
    bool in_poly = polygon_contains(poly, p);
    if (in_poly) {
      EXPECT_TRUE(geom::contains(placed, p));
    } else if (distance_to_boundary(poly, p) > 0.2) {
      EXPECT_FALSE(geom::contains(placed, p)) << p.x << "," << p.y;
    }
    ++checked;
  }
  EXPECT_EQ(checked, 4000);
}

TEST(PickInTable, FlatsMatter) {
  model::DiskRegistry reg = test_registry();
  model::TrackFrame f;
  f.disks.push_back(track("enterprise", model::DiskKind::ship, Vec2{300, 300}, 0));
  referee::TableSnapshot scene = referee::make_snapshot(reg, f);
  // Heading +x: the front flat is at x = 300 + 28.6. A point 30 mm ahead is inside the circle of
  // diameter 63.5 but beyond the flat: not the ship (without tolerance).
  EXPECT_FALSE(pick_disk_in_table(scene, {330, 300}, 0.0));
  EXPECT_EQ(pick_disk_in_table(scene, {328, 300}, 0.0), std::optional<std::size_t>(0));
  // Beside it (across the heading) the full radius counts.
  EXPECT_EQ(pick_disk_in_table(scene, {300, 331}, 0.0), std::optional<std::size_t>(0));
  // With tolerance the point just past the flat is picked.
  EXPECT_EQ(pick_disk_in_table(scene, {330, 300}, 2.0), std::optional<std::size_t>(0));
}

TEST(PickInTable, NearestCentreWinsAmongStackedDisksAndLostDisksAreNeverPicked) {
  model::DiskRegistry reg = test_registry();
  model::TrackFrame f;
  f.disks.push_back(track("range", model::DiskKind::template_, Vec2{500, 500}, 0));
  f.disks.push_back(track("torpedo-1", model::DiskKind::torpedo, Vec2{530, 500}, 0));
  f.disks.push_back(track("tderet", model::DiskKind::ship, Vec2{100, 100}, 0, 0, model::TrackState::lost));
  referee::TableSnapshot scene = referee::make_snapshot(reg, f);
  EXPECT_EQ(pick_disk_in_table(scene, {528, 501}, 0.0), std::optional<std::size_t>(1));  // the torpedo on top
  EXPECT_EQ(pick_disk_in_table(scene, {470, 501}, 0.0), std::optional<std::size_t>(0));  // the template
  EXPECT_FALSE(pick_disk_in_table(scene, {100, 100}, 50.0));                             // lost: no pose
  EXPECT_FALSE(pick_disk_in_table(scene, {800, 800}, 10.0));
}

TEST(PickOutline, InsideThenNearestEdgeWithinTolerance) {
  std::vector<std::vector<Vec2>> outlines = {
      {{0, 0}, {10, 0}, {10, 10}, {0, 10}},
      {},  // a lost disk has no outline
      {{20, 0}, {30, 0}, {30, 10}, {20, 10}},
  };
  EXPECT_EQ(pick_outline(outlines, {5, 5}, 0), std::optional<std::size_t>(0));
  EXPECT_EQ(pick_outline(outlines, {25, 5}, 0), std::optional<std::size_t>(2));
  EXPECT_EQ(pick_outline(outlines, {16, 5}, 5), std::optional<std::size_t>(2));  // 4 px from disk 2, 6 from disk 0
  EXPECT_FALSE(pick_outline(outlines, {15, 5}, 4));
}

TEST(TableSceneTest, JoinsTracksWithTheRegistry) {
  model::DiskRegistry reg = test_registry();
  model::TrackFrame f = referee::testing::spec_example_frame();
  f.disks.push_back(track("klingon", model::DiskKind::ship, Vec2{1, 1}, 0));
  f.disks.push_back(track("torpedo-1", model::DiskKind::torpedo, std::nullopt, 0, 0, model::TrackState::lost));
  referee::TableSnapshot scene = referee::make_snapshot(reg, f);
  ASSERT_EQ(scene.disks.size(), 3u);
  EXPECT_EQ(scene.unknown, std::vector<std::string>{"klingon"});
  EXPECT_TRUE(scene.disks[0].has_pose());
  EXPECT_FALSE(scene.disks[2].has_pose());
  EXPECT_EQ(scene.index_of("tderet"), std::optional<std::size_t>(1));
  EXPECT_NEAR(scene.disks[0].pose->heading_deg(), 90, 1e-9);
  EXPECT_EQ(scene.frame, 7);
}

}  // namespace
}  // namespace diskref::ui
