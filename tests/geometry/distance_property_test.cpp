// Signed distance against brute force, over random configurations of every shape pair.
//
// References (brute_force.h): outline sampling with exact point-to-shape distances (gaps), and a
// search over directions with per-kind support formulas (gaps and penetration depths). Both are
// refined to about 1e-12 rad, so they agree with the exact answer to well under brute::kTolerance.

#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>

#include "brute_force.h"
#include "engine/geometry/distance.h"
#include "engine/geometry/outline.h"

namespace diskref::geom {
namespace {

// Millimetres. The references are accurate to ~1e-9 mm on these sizes (golden section to 1e-12
// rad on radii <= 80 mm); 1e-7 leaves room for rounding in both.
constexpr int kConfigurations = 12000;

const char* kind_name(int k) {
  return k == 0 ? "circle" : k == 1 ? "flatted" : "rect";
}

// Random pairs: B's centre anywhere from concentric to well apart.
struct Pair {
  PlacedShape a, b;
};
Pair random_pair(brute::ShapeSampler& s, int kind_a, int kind_b) {
  Shape sa = s.shape(kind_a), sb = s.shape(kind_b);
  Pose pa = s.pose_near({0, 0}, 0);
  pa.rotation = Rot::from_degrees(s.uniform(0, 360));
  Pose pb = s.pose_near({0, 0}, bounding_radius(sa) + bounding_radius(sb) + 20);
  return {{sa, pa}, {sb, pb}};
}

// The witness points are on their shapes' outlines, and b's is `distance` along the normal from
// a's.
void expect_consistent_witnesses(const Pair& p, const DistanceOutput& d) {
  EXPECT_NEAR(brute::point_signed_distance(p.a, d.point_a), 0, brute::kTolerance);
  EXPECT_NEAR(brute::point_signed_distance(p.b, d.point_b), 0, brute::kTolerance);
  Vec2 expected_b = d.point_a + d.distance * d.normal;
  EXPECT_NEAR(distance(expected_b, d.point_b), 0, brute::kTolerance);
  EXPECT_NEAR(length(d.normal), 1, 1e-12);
}

TEST(DistanceProperty, RandomPairsAgreeWithBruteForce) {
  brute::ShapeSampler sampler(2024);
  int apart = 0, overlapping = 0;
  double worst = 0;
  for (int i = 0; i < kConfigurations; ++i) {
    int ka = i % 3, kb = (i / 3) % 3;  // every ordered pair of kinds
    Pair p = random_pair(sampler, ka, kb);
    DistanceOutput d = signed_distance(p.a, p.b);
    double by_directions = brute::signed_distance_by_directions(p.a, p.b);
    ASSERT_NEAR(d.distance, by_directions, brute::kTolerance) << kind_name(ka) << "-" << kind_name(kb) << " #" << i;
    worst = std::max(worst, std::fabs(d.distance - by_directions));
    if (d.distance > brute::kTolerance) {
      ++apart;
      double by_outline = brute::gap_by_outline(p.a, p.b);
      ASSERT_NEAR(d.distance, by_outline, brute::kTolerance) << kind_name(ka) << "-" << kind_name(kb) << " #" << i;
      worst = std::max(worst, std::fabs(d.distance - by_outline));
    } else if (d.distance < -brute::kTolerance) {
      ++overlapping;
    }
    // The overlap verdict against the outline test, away from touching.
    if (std::fabs(d.distance) > brute::kTolerance) {
      ASSERT_EQ(d.distance < 0, brute::overlap_by_outline(p.a, p.b)) << "#" << i;
    }
    expect_consistent_witnesses(p, d);
  }
  std::printf("apart %d, overlapping %d, worst difference %.3g mm\n", apart, overlapping, worst);
  EXPECT_GT(apart, kConfigurations / 5);
  EXPECT_GT(overlapping, kConfigurations / 5);
}

// Touching and nearly touching pairs: from a random pair at distance d, move B along the normal
// by target - d. The new distance is exactly `target` when target >= 0 (the separation along the
// normal becomes target, and the moved witness points are target apart) or when target >= d (no
// direction m gains more than (target - d) m.n <= target - d). So for a negative target start
// from a deeper overlap. Both references must see the chosen value, and the library too.
TEST(DistanceProperty, TouchingAndNearlyTouching) {
  brute::ShapeSampler sampler(77);
  const double targets[] = {0, 1e-9, -1e-9, 1e-6, -1e-6, 1e-3, -1e-3, 0.05, -0.05};
  for (int i = 0; i < kConfigurations; ++i) {
    int ka = i % 3, kb = (i / 3) % 3;
    double target = targets[i % 9];
    Pair p = random_pair(sampler, ka, kb);
    DistanceOutput d = signed_distance(p.a, p.b);
    while (target < 0 && d.distance > target) {
      p = random_pair(sampler, ka, kb);
      d = signed_distance(p.a, p.b);
    }
    p.b.pose.position = p.b.pose.position + (target - d.distance) * d.normal;
    DistanceOutput moved = signed_distance(p.a, p.b);
    ASSERT_NEAR(moved.distance, target, 1e-9) << kind_name(ka) << "-" << kind_name(kb) << " #" << i;
    ASSERT_NEAR(brute::signed_distance_by_directions(p.a, p.b), target, brute::kTolerance) << "#" << i;
    if (target >= 0) {
      ASSERT_NEAR(brute::gap_by_outline(p.a, p.b), target, brute::kTolerance) << "#" << i;
    }
    expect_consistent_witnesses(p, moved);
  }
}

// Flatted circles at every relative angle, including the aligned ones (flat facing flat, flat
// facing arc), at centre distances from overlapping to apart.
TEST(DistanceProperty, FlattedCirclesAtAllRelativeAngles) {
  const PlacedShape a{FlattedCircle{63.5, 57.2}, Pose::from_degrees(0, 0, 0)};
  for (int angle_b = 0; angle_b < 360; angle_b += 4) {
    for (int dir = 0; dir < 360; dir += 15) {
      for (double centre_distance : {30.0, 57.2, 60.0, 63.5, 70.0}) {
        Vec2 c = centre_distance * Rot::from_degrees(dir).axis_x();
        PlacedShape b{FlattedCircle{50, 30}, Pose::from_degrees(c.x, c.y, angle_b)};
        double d = signed_distance(a, b).distance;
        ASSERT_NEAR(d, brute::signed_distance_by_directions(a, b), brute::kTolerance) << angle_b << " " << dir;
        if (d > brute::kTolerance) {
          ASSERT_NEAR(d, brute::gap_by_outline(a, b), brute::kTolerance);
        }
      }
    }
  }
}

// The drawing outlines (outline_polygon, used for swept regions and the UI): every vertex on the
// true outline, counter-clockwise, no vertex repeated.
TEST(OutlinePolygon, VerticesOnTheOutlineCounterClockwise) {
  brute::ShapeSampler sampler(8);
  for (int i = 0; i < 300; ++i) {
    PlacedShape p{sampler.shape(i % 3), sampler.pose_near({50, 50}, 40)};
    std::vector<Vec2> poly = outline_polygon(p, 5.0);
    ASSERT_GE(poly.size(), 4u);
    double area = 0;
    for (std::size_t k = 0; k < poly.size(); ++k) {
      ASSERT_NEAR(brute::point_signed_distance(p, poly[k]), 0, 1e-9);
      Vec2 next = poly[(k + 1) % poly.size()];
      area += cross(poly[k] - p.pose.position, next - p.pose.position) / 2;
      ASSERT_GT(distance(poly[k], next), 0);  // no repeated vertex
    }
    EXPECT_GT(area, 0);
  }
}

}  // namespace
}  // namespace diskref::geom
