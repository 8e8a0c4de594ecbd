// Range verdicts that can be checked by hand, and the spec §6 example. Brute-force checks are in
// range_property_test.cpp.

#include "engine/geometry/range.h"

#include <cmath>
#include <stdexcept>

#include <gtest/gtest.h>

#include "placed_at.h"

namespace diskref::geom {
namespace {

using test_shapes::at;

const Rect kTemplate{88.9, 25.4};

// The template placement returned must contain a point of each disk: check with the closest
// points (contained up to rounding).
void expect_template_reaches_both(const RangeOutput& r) {
  PlacedShape t{Rect{r.template_length_mm + 1e-6, kTemplate.width_mm + 1e-6}, r.template_pose};
  EXPECT_TRUE(contains(t, r.point_a));
  EXPECT_TRUE(contains(t, r.point_b));
}

TEST(Range, SpecExample) {
  auto r = range_check(at(FlattedCircle{63.5, 57.2}, 100, 200, 90), at(Circle{63.5}, 100, 330, 270), kTemplate);
  EXPECT_TRUE(r.in_range);
  EXPECT_NEAR(r.gap_mm, 69.65, 1e-9);
  EXPECT_NEAR(r.reach_mm, 92.46, 0.005);
  EXPECT_NEAR(r.margin_mm, 22.81, 0.005);
  expect_template_reaches_both(r);
}

TEST(Range, BoundaryIsTheDiagonal) {
  double diag = std::hypot(88.9, 25.4);
  auto a = at(Circle{40}, 0, 0, 0);
  auto just_in = range_check(a, at(Circle{40}, 40 + diag - 1e-6, 0, 0), kTemplate);
  auto just_out = range_check(a, at(Circle{40}, 40 + diag + 1e-6, 0, 0), kTemplate);
  EXPECT_TRUE(just_in.in_range);
  EXPECT_NEAR(just_in.margin_mm, 1e-6, 1e-9);
  EXPECT_FALSE(just_out.in_range);
  EXPECT_NEAR(just_out.margin_mm, -1e-6, 1e-9);
  expect_template_reaches_both(just_in);
}

TEST(Range, OverlappingDisksAreInRangeWithZeroGap) {
  auto r = range_check(at(Circle{40}, 0, 0, 0), at(FlattedCircle{63.5, 57.2}, 10, 0, 0), kTemplate);
  EXPECT_TRUE(r.in_range);
  EXPECT_EQ(r.gap_mm, 0);
  EXPECT_NEAR(r.margin_mm, r.reach_mm, 1e-12);
  // Deep overlap (deeper than the reach): the template is centred on a shared point.
  auto big = range_check(at(Circle{300}, 0, 0, 0), at(Circle{250}, 5, 0, 0), kTemplate);
  EXPECT_TRUE(big.in_range);
  EXPECT_TRUE(contains(at(Circle{300}, 0, 0, 0), big.template_pose.position));
  EXPECT_TRUE(contains(at(Circle{250}, 5, 0, 0), big.template_pose.position));
}

TEST(Range, PlusOneRangeAddsATemplateLength) {
  auto r = range_check(at(Circle{40}, 0, 0, 0), at(Circle{40}, 200, 0, 0), kTemplate, 2);
  EXPECT_NEAR(r.reach_mm, std::hypot(2 * 88.9, 25.4), 1e-12);
  EXPECT_TRUE(r.in_range);
  EXPECT_FALSE(range_check(at(Circle{40}, 0, 0, 0), at(Circle{40}, 200, 0, 0), kTemplate, 1).in_range);
  EXPECT_THROW(range_check(at(Circle{40}, 0, 0, 0), at(Circle{40}, 200, 0, 0), kTemplate, 0), std::invalid_argument);
}

TEST(PlacedTemplate, OverlapsBothWithMargins) {
  auto a = at(Circle{40}, 0, 0, 0);
  auto b = at(Circle{40}, 100, 0, 0);
  // Template from x = 15 to 103.9 along the x axis: 5 mm into a, 23.9 mm into b.
  auto t = at(kTemplate, 15 + 88.9 / 2, 0, 0);
  auto c = check_placed_template(t, a, b);
  EXPECT_TRUE(c.overlaps_both);
  EXPECT_NEAR(c.separation_from_mm, -5, 1e-9);
  EXPECT_NEAR(c.separation_to_mm, -23.9, 1e-9);
  EXPECT_NEAR(c.margin_mm, 5, 1e-9);
  // Shifted 6 mm further: misses a by 1 mm.
  auto miss = check_placed_template(at(kTemplate, 21 + 88.9 / 2, 0, 0), a, b);
  EXPECT_FALSE(miss.overlaps_both);
  EXPECT_NEAR(miss.margin_mm, -1, 1e-9);
}

}  // namespace
}  // namespace diskref::geom
