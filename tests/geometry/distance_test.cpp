// Signed distance: closed-form cases that can be checked by hand. The brute-force property tests
// are in distance_property_test.cpp.

#include "engine/geometry/distance.h"

#include <cmath>

#include <gtest/gtest.h>

#include "placed_at.h"

namespace diskref::geom {
namespace {

constexpr double kTol = 1e-9;

using test_shapes::at;

TEST(SignedDistance, CirclesApartTouchingOverlapping) {
  auto a = at(Circle{20}, 0, 0, 0);
  auto d = signed_distance(a, at(Circle{10}, 30, 40, 0));
  EXPECT_NEAR(d.distance, 50 - 15, kTol);
  EXPECT_NEAR(d.normal.x, 0.6, kTol);
  EXPECT_NEAR(d.normal.y, 0.8, kTol);
  EXPECT_NEAR(d.point_a.x, 6, kTol);
  EXPECT_NEAR(d.point_a.y, 8, kTol);
  EXPECT_NEAR(d.point_b.x, 27, kTol);
  EXPECT_NEAR(d.point_b.y, 36, kTol);
  EXPECT_NEAR(signed_distance(a, at(Circle{10}, 15, 0, 0)).distance, 0, kTol);
  EXPECT_NEAR(signed_distance(a, at(Circle{10}, 5, 0, 0)).distance, -10, kTol);
  EXPECT_TRUE(overlaps(a, at(Circle{10}, 15, 0, 0)));
  EXPECT_FALSE(overlaps(a, at(Circle{10}, 15.000001, 0, 0)));
}

TEST(SignedDistance, ConcentricAndIdenticalShapes) {
  // Concentric circles: the shortest separating move is r_a + r_b in any direction.
  EXPECT_NEAR(signed_distance(at(Circle{20}, 5, 5, 0), at(Circle{8}, 5, 5, 0)).distance, -14, kTol);
  // Identical rects: slide out along the width.
  EXPECT_NEAR(signed_distance(at(Rect{88.9, 25.4}, 1, 2, 30), at(Rect{88.9, 25.4}, 1, 2, 30)).distance, -25.4, kTol);
  // Identical flatted circles: slide out across the flats (flat_to_flat < diameter).
  EXPECT_NEAR(
      signed_distance(at(FlattedCircle{63.5, 57.2}, 0, 0, 77), at(FlattedCircle{63.5, 57.2}, 0, 0, 77)).distance, -57.2,
      kTol);
}

TEST(SignedDistance, FlatFacingFlatAndCircle) {
  // Spec §6: enterprise's front flat (heading 90, flat at y = 228.6) faces tderet (bottom at
  // y = 298.25).
  auto enterprise = at(FlattedCircle{63.5, 57.2}, 100, 200, 90);
  auto d = signed_distance(enterprise, at(Circle{63.5}, 100, 330, 270));
  EXPECT_NEAR(d.distance, 69.65, kTol);
  EXPECT_NEAR(d.point_a.x, 100, kTol);
  EXPECT_NEAR(d.point_a.y, 228.6, kTol);
  EXPECT_NEAR(d.point_b.y, 298.25, kTol);
  // Two flats facing each other, offset sideways: witness points in the middle of the shared part.
  auto f = signed_distance(at(FlattedCircle{60, 40}, 0, 0, 0), at(FlattedCircle{60, 40}, 50, 10, 180));
  EXPECT_NEAR(f.distance, 10, kTol);
  EXPECT_NEAR(f.normal.x, 1, kTol);
  EXPECT_NEAR(f.point_b.x - f.point_a.x, 10, kTol);
  EXPECT_NEAR(f.point_a.y, f.point_b.y, kTol);
  EXPECT_GE(f.point_a.y, 10 - std::sqrt(30.0 * 30 - 20 * 20) - kTol);
  EXPECT_LE(f.point_a.y, std::sqrt(30.0 * 30 - 20 * 20) + kTol);
}

TEST(SignedDistance, RectCornerToCircle) {
  // Rect corner at (10, 5) towards a circle centred at (13, 9), radius 2: gap 5 - 2.
  auto d = signed_distance(at(Rect{20, 10}, 0, 0, 0), at(Circle{4}, 13, 9, 0));
  EXPECT_NEAR(d.distance, 3, kTol);
  EXPECT_NEAR(d.point_a.x, 10, kTol);
  EXPECT_NEAR(d.point_a.y, 5, kTol);
  // Rotated rect: same answer in the rotated frame.
  Pose p = Pose::from_degrees(7, -3, 40);
  auto r =
      signed_distance(PlacedShape{Rect{20, 10}, p}, at(Circle{4}, to_table(p, {13, 9}).x, to_table(p, {13, 9}).y, 0));
  EXPECT_NEAR(r.distance, 3, kTol);
}

TEST(SignedDistance, RectsPenetration) {
  // Axis-aligned boxes overlapping by 0.5 in x and 0.1 in y: shortest way out is along y.
  auto d = signed_distance(at(Rect{2, 2}, 1, 1, 0), at(Rect{2, 2}, 2.5, 2.9, 0));
  EXPECT_NEAR(d.distance, -0.1, kTol);
  EXPECT_NEAR(d.normal.y, 1, kTol);
  // Deepest points face each other in the overlapping stretch x in [1.5, 2].
  EXPECT_NEAR(d.point_a.y, 2, kTol);
  EXPECT_NEAR(d.point_b.y, 1.9, kTol);
  EXPECT_NEAR(d.point_a.x, 1.75, kTol);
}

TEST(SignedDistance, DegenerateFlattedCircleIsACircle) {
  // flat_to_flat == diameter: the flats shrink to points; distances equal the circle's.
  for (double heading : {0.0, 10.0, 90.0, 133.0}) {
    for (double bx : {50.0, 31.0, 20.0, 0.0}) {
      auto f = signed_distance(at(FlattedCircle{40, 40}, 0, 0, heading), at(Rect{20, 6}, bx, 3, 25));
      auto c = signed_distance(at(Circle{40}, 0, 0, heading), at(Rect{20, 6}, bx, 3, 25));
      EXPECT_NEAR(f.distance, c.distance, kTol) << heading << " " << bx;
    }
  }
}

TEST(SignedDistance, SymmetricInItsArguments) {
  auto a = at(FlattedCircle{63.5, 50}, 3, 4, 17);
  auto b = at(Rect{88.9, 25.4}, 60, 30, 101);
  auto ab = signed_distance(a, b);
  auto ba = signed_distance(b, a);
  EXPECT_NEAR(ab.distance, ba.distance, kTol);
  EXPECT_NEAR(ab.normal.x, -ba.normal.x, 1e-9);
  EXPECT_NEAR(ab.normal.y, -ba.normal.y, 1e-9);
}

}  // namespace
}  // namespace diskref::geom
