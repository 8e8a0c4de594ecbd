#include "engine/geometry/shape.h"

#include <algorithm>
#include <random>
#include <vector>

#include <gtest/gtest.h>

namespace diskref::geom {
namespace {

TEST(Shape, ValidityMessages) {
  EXPECT_TRUE(is_valid(Circle{63.5}));
  EXPECT_FALSE(is_valid(Circle{0}));
  EXPECT_FALSE(is_valid(Circle{std::nan("")}));
  EXPECT_TRUE(is_valid(FlattedCircle{63.5, 57.2}));
  EXPECT_TRUE(is_valid(FlattedCircle{63.5, 63.5}));
  EXPECT_EQ(shape_problem(FlattedCircle{63.5, 63.6}), "flat_to_flat_mm must not be larger than diameter_mm");
  EXPECT_FALSE(is_valid(Rect{88.9, -1}));
}

TEST(Shape, FlipLengths) {
  EXPECT_DOUBLE_EQ(flip_length(FlattedCircle{63.5, 57.2}), 57.2);
  EXPECT_DOUBLE_EQ(flip_length(Circle{25.4}), 25.4);
}

// The support point must be the outline point farthest along the direction: check against
// dense sampling of the outline.
TEST(Shape, SupportMatchesBruteForce) {
  std::mt19937 rng(7);
  std::uniform_real_distribution<double> angle(0, 360);
  const Shape shapes[] = {Circle{30}, FlattedCircle{63.5, 57.2}, FlattedCircle{50, 20}, Rect{88.9, 25.4}};
  for (const Shape& s : shapes) {
    // The outline, sampled densely by bisecting along rays from the centre.
    std::vector<Vec2> outline;
    for (int k = 0; k < 20000; ++k) {
      Vec2 ray = Rot::from_degrees(k * 360.0 / 20000).axis_x() * bounding_radius(s);
      double lo = 0, hi = 1;
      for (int it = 0; it < 50; ++it) {
        double mid = (lo + hi) / 2;
        (contains(PlacedShape{s, Pose{}}, ray * mid) ? lo : hi) = mid;
      }
      outline.push_back(ray * lo);
    }
    PlacedShape placed{s, Pose::from_degrees(10, -5, angle(rng))};
    for (int i = 0; i < 200; ++i) {
      Vec2 dir = Rot::from_degrees(angle(rng)).axis_x();
      double best = -1e300;
      for (Vec2 local : outline) best = std::max(best, dot(to_table(placed.pose, local), dir));
      // The support point is on the shape and at least as far as every sampled outline point;
      // sampling can miss a corner by at most the arc between rays (0.018 deg at 47 mm).
      Vec2 sp = support(placed, dir);
      EXPECT_TRUE(contains(placed, placed.pose.position + (sp - placed.pose.position) * (1 - 1e-12)));
      EXPECT_GE(dot(sp, dir), best - 1e-9) << shape_type_name(s);
      EXPECT_LE(dot(sp, dir), best + 0.02) << shape_type_name(s);
    }
  }
}

TEST(Shape, ContainsRespectsFlats) {
  PlacedShape f{FlattedCircle{63.5, 57.2}, Pose::from_degrees(0, 0, 90)};
  EXPECT_TRUE(contains(f, {0, 28.5}));
  EXPECT_FALSE(contains(f, {0, 28.7})) << "the flat is at 28.6 along the heading (+y)";
  EXPECT_TRUE(contains(f, {31.7, 0})) << "across the heading the full radius remains";
}

}  // namespace
}  // namespace diskref::geom
