// The camera planner (engine/model/camera_plan.h): what a camera sees of the table and how well it
// reads the tags, checked against closed forms for a pinhole straight above, against its own advice
// (at the advised heights the plan holds, just past them it does not), and on cameras that are not
// straight above (tilted, distorting), where the worst place is not the centre.

#include <cmath>

#include <gtest/gtest.h>

#include "engine/model/camera_plan.h"

namespace diskref::model {
namespace {

DiskRegistry sample_registry() {
  std::vector<DiskSpec> disks;
  DiskSpec ship{"enterprise", DiskKind::ship, 2.0, geom::FlattedCircle{63.5, 57.2}, {}, std::nullopt, std::nullopt};
  ship.tags = {{10, Face::up, 24, 0}, {11, Face::down, 24, 0}};
  disks.push_back(ship);
  for (int i = 0; i < 2; ++i) {
    DiskSpec torpedo{
        "torpedo-" + std::to_string(i + 1), DiskKind::torpedo, 2.0, geom::Circle{25.4}, {}, std::nullopt, std::nullopt};
    torpedo.tags = {{40 + i, Face::up, 9.5, 0}, {44 + i, Face::down, 9.5, 0}};
    disks.push_back(torpedo);
  }
  DiskSpec range{"range", DiskKind::template_, 1.0, geom::Rect{88.9, 25.4}, {}, std::nullopt, std::nullopt};
  range.tags = {{60, Face::up, 14, 0}};
  disks.push_back(range);
  return DiskRegistry(disks);
}

TEST(CameraPlan, StraightAboveTheScaleIsHeightOverFocalLengthEverywhere) {
  const TableSpec table = default_table();
  const PinholeCamera camera{1920, 1080, 70, 1000};
  const double f = 960 / std::tan(geom::deg_to_rad(35));
  EXPECT_NEAR(camera.focal_px(), f, 1e-9);
  const CameraPlan plan = plan_camera(straight_above_play_area(camera, table), table, nullptr);
  EXPECT_NEAR(plan.mm_per_px_centre, 1000 / f, 1e-6);
  EXPECT_NEAR(plan.mm_per_px_worst, 1000 / f, 1e-6);
  // A tag 2 mm up (a disk's face) is 998 mm away: 5 cells of 2.5 px.
  EXPECT_NEAR(plan.smallest_tag_mm, 2.5 * 5 * 998 / f, 1e-6);
  // Markers: 40 mm at 1000 mm: 40 / 5 * f / 1000 px per cell.
  ASSERT_EQ(plan.tags.size(), 4u);
  for (const TagReading& t : plan.tags) EXPECT_NEAR(t.px_per_cell, 8 * f / 1000, 1e-6) << t.what;
}

TEST(CameraPlan, ReadsEveryTagAtItsDisksHeightAndSaysWhatFits) {
  const TableSpec table = default_table();
  const DiskRegistry registry = sample_registry();
  const PinholeCamera camera{1280, 720, 78, 1200};
  const CameraPlan plan = plan_camera(straight_above_play_area(camera, table), table, &registry);
  ASSERT_EQ(plan.tags.size(), 7u + 4u);
  const double f = camera.focal_px();
  for (const TagReading& t : plan.tags) {
    const double z = t.what.rfind("range", 0) == 0 ? 1.0 : t.what.rfind("corner", 0) == 0 ? 0.0 : 2.0;
    EXPECT_NEAR(t.px_per_cell, t.size_mm / 5 * f / (1200 - z), 1e-6) << t.what;
    EXPECT_NEAR(t.needed_mm, 2.5 * 5 * (1200 - z) / f, 1e-6) << t.what;
  }
  // The torpedoes' 9.5 mm tags cannot be read from here, and their 25.4 mm disks take at most 9.98 mm.
  std::vector<TagReading> bad = plan.unreadable();
  ASSERT_EQ(bad.size(), 5u);  // four torpedo faces and the range template
  for (const TagReading& t : bad) {
    if (t.what.rfind("torpedo", 0) == 0) {
      EXPECT_NEAR(t.largest_fitting_mm, 25.4 / (1.8 * std::sqrt(2.0)), 0.01);
      EXPECT_FALSE(t.fixable_by_size());
    }
  }
}

TEST(CameraPlan, AtTheAdvisedHeightsThePlanHoldsAndJustPastThemItDoesNot) {
  const TableSpec table = default_table();
  const DiskRegistry registry = sample_registry();
  // A 4K camera: everything can be done (the 9.5 mm torpedo tags read from high enough to see it all).
  PinholeCamera camera{3840, 2160, 70, 1000};
  const HeightAdvice advice = advise_height(camera, table, &registry);
  ASSERT_TRUE(advice.possible()) << advice.lowest_seeing_all_mm << " " << advice.highest_reading_all_mm;
  EXPECT_EQ(advice.smallest_tag_mm, 9.5);

  auto plan_at = [&](double height) {
    camera.height_mm = height;
    return plan_camera(straight_above_play_area(camera, table), table, &registry);
  };
  CameraPlan at_lowest = plan_at(advice.lowest_seeing_all_mm * 1.001);
  EXPECT_TRUE(at_lowest.sees_everything());
  EXPECT_TRUE(plan_at(advice.lowest_seeing_all_mm * 0.99).markers_out_of_view.size() > 0);
  CameraPlan at_highest = plan_at(advice.highest_reading_all_mm * 0.999);
  EXPECT_TRUE(at_highest.unreadable().empty());
  EXPECT_TRUE(at_highest.sees_everything());
  EXPECT_FALSE(plan_at(advice.highest_reading_all_mm * 1.01).unreadable().empty());
  EXPECT_TRUE(plan_problems(at_highest, table, &registry, camera).empty());
}

TEST(CameraPlan, AWebcamThatCannotDoBothSaysHowManyPixelsItWouldNeed) {
  const TableSpec table = default_table();
  const DiskRegistry registry = sample_registry();
  // From 1100 mm the torpedoes' 9.5 mm tags read at 2.4 px per cell, and the table is not all in view.
  PinholeCamera camera{1920, 1080, 70, 1100};
  const HeightAdvice advice = advise_height(camera, table, &registry);
  ASSERT_FALSE(advice.possible());
  // That many pixels at the same field of view (and aspect) do both, a percent fewer do not.
  auto with_short_side = [&](double px) {
    PinholeCamera c = camera;
    c.height_px = static_cast<int>(std::lround(px));
    c.width_px = static_cast<int>(std::lround(px * 1920 / 1080));
    return advise_height(c, table, &registry);
  };
  EXPECT_TRUE(with_short_side(advice.short_side_px_needed * 1.01).possible());
  EXPECT_FALSE(with_short_side(advice.short_side_px_needed * 0.99).possible());

  // The problems say so, with their fixes: the torpedoes grouped on one line, "no height works".
  const CameraPlan plan = plan_camera(straight_above_play_area(camera, table), table, &registry);
  const auto problems = plan_problems(plan, table, &registry, camera);
  ASSERT_FALSE(problems.empty());
  bool torpedoes = false;
  for (const PlanProblem& p : problems) {
    EXPECT_FALSE(p.fix.empty()) << p.problem;
    if (p.problem.find("torpedo-1 and torpedo-2 (tags 40, 44, 41 and 45): 9.5 mm tags read at") != std::string::npos) {
      torpedoes = true;
      EXPECT_NE(p.fix.find("no height works for this camera"), std::string::npos) << p.fix;
      EXPECT_NE(p.fix.find("a 4K camera has 2160"), std::string::npos) << p.fix;
    }
  }
  EXPECT_TRUE(torpedoes);
  // From 1100 mm the 914 mm square with its markers does not fit the 1080 px side.
  EXPECT_FALSE(plan.sees_everything());
  EXPECT_NE(problems.front().fix.find("raise the camera to at least"), std::string::npos) << problems.front().fix;
}

TEST(CameraPlan, ATagThatCanGrowIsToldItsSizeAndAMarkerItsCard) {
  TableSpec table = table_with_markers({600, 400}, 10);
  std::vector<DiskSpec> disks;
  DiskSpec planet{"moon", DiskKind::planet, 2.0, geom::Circle{108}, {}, std::nullopt, std::nullopt};
  planet.tags = {{70, Face::up, 8, 0}};
  disks.push_back(planet);
  const DiskRegistry registry(disks);
  const PinholeCamera camera{1280, 720, 70, 900};
  const CameraPlan plan = plan_camera(straight_above_play_area(camera, table), table, &registry);
  const auto problems = plan_problems(plan, table, &registry, camera);
  ASSERT_EQ(problems.size(), 2u);
  EXPECT_NE(problems[0].problem.find("moon (tag 70): 8 mm tag reads at"), std::string::npos) << problems[0].problem;
  EXPECT_NE(problems[0].fix.find("print the tag at least"), std::string::npos) << problems[0].fix;
  EXPECT_NE(problems[0].fix.find("its disk takes up to 42.4 mm"), std::string::npos) << problems[0].fix;
  EXPECT_NE(problems[1].problem.find(
                "corner marker 0, corner marker 1, corner marker 2 and corner marker 3 (tags 0 to 3): 10 mm tags"),
            std::string::npos)
      << problems[1].problem;
  EXPECT_NE(problems[1].fix.find("print the marker at least"), std::string::npos) << problems[1].fix;
}

// A camera on a boom, tilted: the far side of the table is seen coarser than the near side, and the
// planner finds the coarsest place, not the centre's scale.
TEST(CameraPlan, ATiltedCameraIsCoarsestOnTheFarSide) {
  const TableSpec table = default_table();
  const double f = 1400, tilt = geom::deg_to_rad(30);
  // Camera 1000 mm above a point 300 mm before the near edge, looking towards +y, tilted 30 degrees.
  const double cx = 457.2, cy = -300, cz = 1000;
  CameraView view;
  view.width_px = 1920;
  view.height_px = 1080;
  view.image_from_table = [=](double x, double y, double z) -> std::optional<geom::Vec2> {
    // Camera axes in the table frame: right = +x, forward = (0, sin t, -cos t), down = right x forward.
    const double dx = x - cx, dy = y - cy, dz = z - cz;
    const double xc = dx;
    const double zc = dy * std::sin(tilt) - dz * std::cos(tilt);
    const double yc = -(dy * std::cos(tilt) + dz * std::sin(tilt));
    if (zc <= 0) return std::nullopt;
    return geom::Vec2{959.5 + f * xc / zc, 539.5 + f * yc / zc};
  };
  const CameraPlan plan = plan_camera(view, table, nullptr);
  EXPECT_GT(plan.mm_per_px_worst, plan.mm_per_px_centre * 1.1);
  // The far corner's distance along the optical axis bounds the coarsest scale from below.
  const double far_depth = (914.4 - cy) * std::sin(tilt) + cz * std::cos(tilt);
  EXPECT_GE(plan.mm_per_px_worst, far_depth / f * 0.999);
}

// A barrel lens squeezes the image's edges: fewer pixels per millimetre there than at the centre.
TEST(CameraPlan, ABarrelLensIsCoarsestAtTheEdges) {
  const TableSpec table = default_table();
  const PinholeCamera pinhole{1920, 1080, 60, 1800};
  const CameraView straight = straight_above_play_area(pinhole, table);
  CameraView barrel = straight;
  barrel.image_from_table = [straight](double x, double y, double z) -> std::optional<geom::Vec2> {
    auto p = straight.image_from_table(x, y, z);
    if (!p) return p;
    const geom::Vec2 d = (*p - geom::Vec2{959.5, 539.5}) / 1663.0;
    const double r2 = geom::dot(d, d);
    return geom::Vec2{959.5, 539.5} + d * (1 - 0.3 * r2) * 1663.0;
  };
  const CameraPlan a = plan_camera(straight, table, nullptr), b = plan_camera(barrel, table, nullptr);
  EXPECT_NEAR(b.mm_per_px_centre, a.mm_per_px_centre, 1e-3);
  EXPECT_GT(b.mm_per_px_worst, a.mm_per_px_worst * 1.05);
  EXPECT_FALSE(a.footprint_mm.empty());
}

}  // namespace
}  // namespace diskref::model
