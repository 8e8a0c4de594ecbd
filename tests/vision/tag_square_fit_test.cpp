// The square fit on mapped corners: exact squares give their pose back; the fitted size, the
// residuals and the winding say what the corners say.
#include "vision/tag_square_fit.h"

#include <random>

#include <gtest/gtest.h>

namespace diskref::vision {
namespace {

// Corners of a tag of `size` at `pose`, in apriltag's order, seen from above.
std::array<geom::Vec2, 4> tag_corners(const geom::Pose& pose, double size) {
  const double h = size / 2;
  return {geom::to_table(pose, {-h, -h}), geom::to_table(pose, {h, -h}), geom::to_table(pose, {h, h}),
          geom::to_table(pose, {-h, h})};
}

TEST(TagSquareFit, ExactSquareGivesItsPoseBackAtEveryHeading) {
  for (double heading = 0; heading < 360; heading += 7.5) {
    const geom::Pose truth = geom::Pose::from_degrees(123.4, 567.8, heading);
    TagSquareFit fit = fit_tag_square(tag_corners(truth, 24), 24);
    EXPECT_NEAR(fit.table_from_tag.position.x, 123.4, 1e-9);
    EXPECT_NEAR(fit.table_from_tag.position.y, 567.8, 1e-9);
    EXPECT_NEAR(geom::angle_difference_deg(fit.table_from_tag.heading_deg(), heading), 0, 1e-9) << heading;
    EXPECT_NEAR(fit.fitted_size_mm, 24, 1e-9);
    EXPECT_NEAR(fit.residual_sum_squares_mm2, 0, 1e-18);
    EXPECT_FALSE(fit.mirrored);
  }
}

TEST(TagSquareFit, TagXAxisPointsFromLeftEdgeToRightEdge) {
  // Upright tag, bitmap top towards table +y: corners bottom-left, bottom-right, top-right, top-left.
  std::array<geom::Vec2, 4> corners = {{{0, 0}, {10, 0}, {10, 10}, {0, 10}}};
  TagSquareFit fit = fit_tag_square(corners, 10);
  EXPECT_NEAR(fit.table_from_tag.heading_deg(), 0, 1e-9);
  // The same tag turned so that its right edge faces +y: heading 90.
  corners = {{{10, 0}, {10, 10}, {0, 10}, {0, 0}}};
  fit = fit_tag_square(corners, 10);
  EXPECT_NEAR(fit.table_from_tag.heading_deg(), 90, 1e-9);
}

TEST(TagSquareFit, ABiggerSquareShowsInFittedSizeAndResiduals) {
  const geom::Pose truth = geom::Pose::from_degrees(0, 0, 30);
  TagSquareFit fit = fit_tag_square(tag_corners(truth, 26.4), 24);
  EXPECT_NEAR(fit.fitted_size_mm, 26.4, 1e-9);
  EXPECT_NEAR(fit.table_from_tag.position.x, 0, 1e-9);
  EXPECT_NEAR(fit.table_from_tag.heading_deg(), 30, 1e-9);
  // Each corner is 1.2 * sqrt(2) mm further out than the 24 mm square's.
  for (const auto& r : fit.residuals_mm) EXPECT_NEAR(geom::length(r), 1.2 * std::sqrt(2.0), 1e-9);
}

TEST(TagSquareFit, MirroredCornersAreFlagged) {
  auto corners = tag_corners(geom::Pose::from_degrees(5, 5, 10), 12);
  std::swap(corners[1], corners[3]);
  EXPECT_TRUE(fit_tag_square(corners, 12).mirrored);
}

TEST(TagSquareFit, ResidualsCarryFiveDegreesOfFreedomOfNoise) {
  // With independent noise sigma per coordinate, E[sum of squared residuals] = 5 sigma^2.
  std::mt19937 rng(7);
  std::normal_distribution<double> noise(0, 0.1);
  double sum = 0;
  const int trials = 20000;
  for (int i = 0; i < trials; ++i) {
    auto corners = tag_corners(geom::Pose::from_degrees(10, 20, i * 0.37), 24);
    for (auto& c : corners) c = c + geom::Vec2{noise(rng), noise(rng)};
    sum += fit_tag_square(corners, 24).residual_sum_squares_mm2;
  }
  EXPECT_NEAR(sum / trials / (0.1 * 0.1), kSquareFitResidualDof, 0.1);
}

}  // namespace
}  // namespace diskref::vision
