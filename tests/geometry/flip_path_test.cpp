// Flip movement (spec §6 "move"), checked by hand.

#include "engine/geometry/flip_path.h"

#include <gtest/gtest.h>

#include "placed_at.h"

namespace diskref::geom {
namespace {

using test_shapes::at;

TEST(FlipPath, SpecExample) {
  FlipInput in;
  in.mover = at(FlattedCircle{63.5, 57.2}, 100, 200, 90);
  in.flips = 3;
  in.others = {{"tderet", at(Circle{63.5}, 100, 330, 270), false}};
  FlipOutput out = flip_path(in);
  ASSERT_EQ(out.landings.size(), 3u);
  const double ys[] = {257.2, 314.4, 371.6};
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(out.landings[i].position.x, 100, 1e-9);
    EXPECT_NEAR(out.landings[i].position.y, ys[i], 1e-9);
    EXPECT_NEAR(out.landings[i].heading_deg(), 90, 1e-9);
  }
  EXPECT_TRUE(out.torpedo_contacts.empty());
  ASSERT_EQ(out.end_overlaps.size(), 1u);
  EXPECT_EQ(out.end_overlaps[0].disk, "tderet");
  // Back flat at 371.6 - 28.6 = 343 against the circle's top at 361.75.
  EXPECT_NEAR(out.end_overlaps[0].separation_mm, -(361.75 - 343), 1e-9);
  EXPECT_FALSE(out.leaves_play_area);
  EXPECT_NEAR(out.play_area_margin_mm, 100, 1e-9);
}

TEST(FlipPath, TorpedoContactsAtLandingsOnly) {
  FlipInput in;
  in.mover = at(Circle{50}, 100, 100, 0);
  in.flips = 2;
  // Landings at (150, 100) and (200, 100), radius 25. t1 is 28 mm from landing 1 (radii 25 + 5):
  // 2 mm into it. t2 is 31 mm from landing 2: 1 mm clear.
  in.others = {{"t1", at(Circle{10}, 150, 128, 0), true},
               {"t2", at(Circle{10}, 200, 131, 0), true},
               {"ship", at(Circle{50}, 240, 100, 0), false}};
  FlipOutput out = flip_path(in);
  ASSERT_EQ(out.torpedo_contacts.size(), 1u);
  EXPECT_EQ(out.torpedo_contacts[0].flip, 1);
  EXPECT_EQ(out.torpedo_contacts[0].disk, "t1");
  EXPECT_NEAR(out.torpedo_contacts[0].separation_mm, -2, 1e-9);
  ASSERT_TRUE(out.nearest_torpedo);
  EXPECT_EQ(out.nearest_torpedo->disk, "t1");
  // Where it ends (200, 100): the ship 40 mm away overlaps by 10 mm; t2 is 1 mm clear.
  ASSERT_EQ(out.end_overlaps.size(), 1u);
  EXPECT_EQ(out.end_overlaps[0].disk, "ship");
  ASSERT_EQ(out.end_separations.size(), 3u);
  EXPECT_EQ(out.end_separations.front().disk, "ship");
  EXPECT_NEAR(out.end_separations[1].separation_mm, 1, 1e-9);
  EXPECT_NEAR(out.end_separations.front().separation_mm, -10, 1e-9);
}

TEST(FlipPath, HeadingOverrideAndLeavingThePlayArea) {
  FlipInput in;
  in.mover = at(FlattedCircle{60, 50}, 30, 400, 0);
  in.heading_deg = 180;
  in.flips = 2;
  FlipOutput out = flip_path(in);
  ASSERT_EQ(out.landings.size(), 2u);
  EXPECT_NEAR(out.landings[1].position.x, -70, 1e-9);
  EXPECT_NEAR(out.landings[0].heading_deg(), 180, 1e-9);
  EXPECT_TRUE(out.leaves_play_area);
  EXPECT_EQ(out.first_flip_outside, 1);
  EXPECT_NEAR(out.play_area_margin_mm, -70, 1e-9);
}

TEST(FlipPath, NoFlipsStaysPut) {
  FlipInput in;
  in.mover = at(Circle{50}, 10, 10, 45);
  in.others = {{"o", at(Circle{10}, 20, 10, 0), false}};
  FlipOutput out = flip_path(in);
  EXPECT_TRUE(out.landings.empty());
  EXPECT_FALSE(out.leaves_play_area);
  EXPECT_NEAR(out.play_area_margin_mm, 10, 1e-12);
  ASSERT_EQ(out.end_overlaps.size(), 1u);
}

TEST(FlipPath, SweptOutlineCoversBothFootprints) {
  FlipInput in;
  in.mover = at(FlattedCircle{63.5, 57.2}, 100, 200, 30);
  in.flips = 2;
  FlipOutput out = flip_path(in);
  auto regions = swept_outlines(in, out);
  ASSERT_EQ(regions.size(), 2u);
  // Convex, counter-clockwise, and containing both landing centres and the points between.
  for (std::size_t k = 0; k < regions.size(); ++k) {
    const auto& poly = regions[k];
    ASSERT_GE(poly.size(), 8u);
    Vec2 from = k == 0 ? in.mover.pose.position : out.landings[k - 1].position;
    for (double t : {0.0, 0.5, 1.0}) {
      Vec2 p = from + t * (out.landings[k].position - from);
      for (std::size_t i = 0; i < poly.size(); ++i)
        EXPECT_GT(cross(poly[(i + 1) % poly.size()] - poly[i], p - poly[i]), 0);
    }
  }
}

}  // namespace
}  // namespace diskref::geom
