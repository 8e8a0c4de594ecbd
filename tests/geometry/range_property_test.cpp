// Range against brute force: the verdict against a brute-force gap, the returned placement against
// a brute-force overlap test, and searches over template placements (random and systematic) that
// must find a placement overlapping both disks exactly when the library says "in range".

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numbers>
#include <vector>

#include <gtest/gtest.h>

#include "brute_force.h"
#include "engine/geometry/range.h"

namespace diskref::geom {
namespace {

struct RangeCase {
  PlacedShape from, to;
  Rect templ;
  int multiplier = 1;
};

double reach_of(const RangeCase& c) {
  return std::hypot(c.multiplier * c.templ.length_mm, c.templ.width_mm);
}

// Two disks whose gap is spread around the template's reach (and sometimes overlapping).
RangeCase random_case(brute::ShapeSampler& s) {
  RangeCase c;
  c.templ = Rect{s.uniform(30, 150), s.uniform(8, 40)};
  c.multiplier = s.uniform(0, 1) < 0.2 ? 2 : 1;
  c.from = {s.disk(), Pose{{0, 0}, Rot::from_degrees(s.uniform(0, 360))}};
  Shape to = s.disk();
  double spread = bounding_radius(c.from.shape) + bounding_radius(to) + reach_of(c) * s.uniform(0, 1.3);
  Vec2 at = spread * Rot::from_degrees(s.uniform(0, 360)).axis_x();
  c.to = {to, Pose{at, Rot::from_degrees(s.uniform(0, 360))}};
  return c;
}

// A template placement overlaps a disk, by the brute-force signed distance.
bool overlaps_brute(const PlacedShape& t, const PlacedShape& disk) {
  return brute::signed_distance_by_directions(t, disk) <= brute::kTolerance;
}

TEST(RangeProperty, VerdictPlacementAndRandomSearchAgreeWithBruteForce) {
  brute::ShapeSampler s(5150);
  const int configurations = 12000;
  int in_range = 0, out_of_range = 0, random_found = 0, random_found_when_in = 0;
  for (int i = 0; i < configurations; ++i) {
    RangeCase c = random_case(s);
    // One in four is moved to within a micrometre of the boundary (gap = reach +- 1e-6 .. 1e-3).
    if (i % 4 == 0) {
      DistanceOutput d = signed_distance(c.from, c.to);
      if (d.distance > 0) {
        double target = reach_of(c) + (i % 8 == 0 ? 1 : -1) * std::pow(10.0, -3 - (i / 4) % 4);
        c.to.pose.position = c.to.pose.position + (target - d.distance) * d.normal;
      }
    }
    RangeOutput r = range_check(c.from, c.to, c.templ, c.multiplier);

    // The numbers: reach is the diagonal; gap is the brute-force signed distance clamped at 0.
    double gap = std::max(0.0, brute::signed_distance_by_directions(c.from, c.to));
    ASSERT_NEAR(r.reach_mm, reach_of(c), 1e-12);
    ASSERT_NEAR(r.gap_mm, gap, brute::kTolerance) << "#" << i;
    ASSERT_NEAR(r.margin_mm, r.reach_mm - r.gap_mm, 1e-12);
    if (std::fabs(r.reach_mm - gap) > brute::kTolerance) {
      ASSERT_EQ(r.in_range, gap <= r.reach_mm) << "#" << i;
    }
    (r.in_range ? in_range : out_of_range)++;

    // In range: the returned placement really overlaps both disks.
    PlacedShape placed{Rect{r.template_length_mm, c.templ.width_mm}, r.template_pose};
    if (r.in_range) {
      ASSERT_TRUE(overlaps_brute(placed, c.from)) << "#" << i;
      ASSERT_TRUE(overlaps_brute(placed, c.to)) << "#" << i;
    }

    // Random placements between the disks (centre near a point between random outline points of
    // the two, any orientation): any that overlaps both must come with "in range".
    for (int k = 0; k < 4; ++k) {
      Vec2 a = to_table(c.from.pose, brute::outline_point_local(c.from.shape, s.uniform(0, 7)));
      Vec2 b = to_table(c.to.pose, brute::outline_point_local(c.to.shape, s.uniform(0, 7)));
      Vec2 centre = a + s.uniform(0, 1) * (b - a);
      PlacedShape t{placed.shape, s.pose_near(centre, c.templ.width_mm / 2)};
      // Screen with the (fast) library, confirm with brute force.
      if (signed_distance(t, c.from).distance > 1e-6 || signed_distance(t, c.to).distance > 1e-6) continue;
      if (!overlaps_brute(t, c.from) || !overlaps_brute(t, c.to)) continue;
      ++random_found;
      ASSERT_GE(r.margin_mm, -brute::kTolerance) << "#" << i << ": a placement overlapping both, yet out of range";
      if (r.in_range) ++random_found_when_in;
    }
  }
  std::printf("in range %d, out of range %d; random placements overlapping both: %d\n", in_range, out_of_range,
              random_found);
  EXPECT_GT(in_range, configurations / 4);
  EXPECT_GT(out_of_range, configurations / 4);
  EXPECT_GT(random_found, configurations / 4);  // the random search is not vacuous
  EXPECT_EQ(random_found, random_found_when_in);
}

// Systematic search over placements near the boundary. The family searched: one corner of the
// template on a point of `from`'s outline (so it overlaps `from`), every orientation. Over it,
// maximise how deep the template reaches into `to` (minus its signed distance): a grid of 48
// outline points x 48 orientations x 2 corners (the other two corners give the same placements
// turned half a turn), then a zooming 5 x 5 pattern search around the best three (each round half
// the previous span, 32 rounds: down to ~4e-11 rad). Brute force says "in range" when that depth
// is >= 0. The depths are evaluated with the library's signed distance, itself checked against
// brute force for rect-disk pairs in distance_property_test.cpp.
//
// Tolerance: with margin m > 0 the best placement of the family reaches about m x (the
// template's corner half-angle, >= 0.05 rad for these templates) into `to`; the zooming search
// resolves the depth to ~1e-8 mm; so outside |m| >= kBoundary = 1e-3 mm the verdicts must agree.
TEST(RangeProperty, SystematicSearchAgreesAwayFromTheBoundary) {
  brute::ShapeSampler s(99);
  constexpr double kBoundary = 1e-3;
  const double two_pi = 2 * std::numbers::pi;
  int checked = 0, found = 0;
  for (int i = 0; i < 80; ++i) {
    RangeCase c = random_case(s);
    DistanceOutput d = signed_distance(c.from, c.to);
    if (d.distance <= 0) continue;
    // Put the gap within +-2 mm of the reach: the hard cases.
    double target = reach_of(c) + s.uniform(-2, 2);
    c.to.pose.position = c.to.pose.position + (target - d.distance) * d.normal;
    RangeOutput r = range_check(c.from, c.to, c.templ, c.multiplier);
    const Rect t_shape{r.template_length_mm, c.templ.width_mm};
    const Vec2 corners[2] = {{t_shape.length_mm / 2, t_shape.width_mm / 2},
                             {-t_shape.length_mm / 2, t_shape.width_mm / 2}};

    // How far the template with `corner` at outline point t, turned by psi, reaches into `to`.
    auto depth = [&](double t, double psi, int corner) {
      Vec2 a = to_table(c.from.pose, brute::outline_point_local(c.from.shape, t));
      Rot q{std::cos(psi), std::sin(psi)};
      PlacedShape tp{t_shape, Pose{a - rotate(q, corners[corner]), q}};
      return -signed_distance(tp, c.to).distance;
    };
    struct Probe {
      double value, t, psi;
      int corner;
    };
    std::vector<Probe> grid;
    for (int corner = 0; corner < 2; ++corner)
      for (int it = 0; it < 48; ++it)
        for (int ip = 0; ip < 48; ++ip) {
          double t = it * two_pi / 48, psi = ip * two_pi / 48;
          grid.push_back({depth(t, psi, corner), t, psi, corner});
        }
    auto deeper = [](const Probe& x, const Probe& y) { return x.value > y.value; };
    std::partial_sort(grid.begin(), grid.begin() + 3, grid.end(), deeper);
    double best = grid[0].value;
    for (int k = 0; k < 3; ++k) {
      Probe p = grid[k];
      double wt = two_pi / 48, wp = two_pi / 48;
      for (int round = 0; round < 32; ++round, wt /= 2, wp /= 2) {
        Probe centre = p;
        for (int a = -2; a <= 2; ++a)
          for (int b = -2; b <= 2; ++b) {
            double t = centre.t + a * wt / 2, psi = centre.psi + b * wp / 2;
            Probe q{depth(t, psi, p.corner), t, psi, p.corner};
            if (deeper(q, p)) p = q;
          }
      }
      best = std::max(best, p.value);
    }
    ++checked;
    bool brute_in = best >= 0;
    found += brute_in;
    if (std::fabs(r.margin_mm) >= kBoundary) {
      EXPECT_EQ(brute_in, r.in_range) << "#" << i << " margin " << r.margin_mm << " best depth " << best;
    }
  }
  std::printf("systematic: %d configurations near the boundary, %d found in range\n", checked, found);
  EXPECT_GT(checked, 50);
  EXPECT_GT(found, checked / 4);
  EXPECT_LT(found, checked * 3 / 4);
}

}  // namespace
}  // namespace diskref::geom
