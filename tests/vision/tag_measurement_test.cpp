// From image corners to a tag's pose on the table: exact on exact projections (tilted camera,
// strong distortion, tag above the table), and an uncertainty that matches the scatter.
#include "vision/tag_measurement.h"

#include <random>

#include <gtest/gtest.h>

#include "vision_test_support.h"

namespace diskref::vision {
namespace {

using test::camera_above;
using test::tag_corners_image;

class TagMeasurementOnCamera : public ::testing::TestWithParam<std::tuple<double, double>> {};

TEST_P(TagMeasurementOnCamera, ExactCornersGiveTheTagPoseBack) {
  const auto [tilt, k1] = GetParam();
  const calib::CameraPose pose = camera_above({1920, 1080}, 1400, {457, 300}, 1100, tilt, k1);
  int checked = 0;
  // Tag centres under a grid of pixels across the image.
  std::vector<cv::Point2d> pixels;
  for (double u : {200.0, 960.0, 1700.0})
    for (double v : {150.0, 540.0, 930.0}) pixels.emplace_back(u, v);
  std::vector<geom::Vec2> centres;
  for (const auto& p : calib::table_from_image(pose, pixels, 2.0)) centres.push_back(p.value());
  for (double heading : {0.0, 33.0, 91.0, 200.0, 359.0})
    for (geom::Vec2 where : centres) {
      const geom::Pose truth = geom::Pose::from_degrees(where.x, where.y, heading);
      auto corners = tag_corners_image(pose, truth, 24, 2.0);
      // Only where the camera sees (beyond the image, a strong lens model folds back on itself).
      bool in_image = true;
      for (const auto& c : corners) in_image = in_image && cv::Rect(0, 0, 1920, 1080).contains(c);
      if (!in_image) continue;
      ++checked;
      auto m = measure_tag(pose, corners, 24, 2.0);
      ASSERT_TRUE(m);
      EXPECT_NEAR(m->fit.table_from_tag.position.x, where.x, 1e-6);
      EXPECT_NEAR(m->fit.table_from_tag.position.y, where.y, 1e-6);
      EXPECT_NEAR(geom::angle_difference_deg(m->fit.table_from_tag.heading_deg(), heading), 0, 1e-6);
      EXPECT_NEAR(m->fit.fitted_size_mm, 24, 1e-6);
      EXPECT_FALSE(m->fit.mirrored);
    }
  EXPECT_GE(checked, 40);
}

INSTANTIATE_TEST_SUITE_P(TiltAndDistortion, TagMeasurementOnCamera,
                         ::testing::Values(std::make_tuple(0.0, 0.0), std::make_tuple(25.0, 0.0),
                                           std::make_tuple(25.0, -0.25), std::make_tuple(10.0, 0.15)));

TEST(TagMeasurement, TheTagsHeightAboveTheTableMatters) {
  // A tilted camera sees a tag 2 mm up displaced along the view: placing it on the table plane
  // instead would be wrong by about 2 mm * tan(view angle).
  const calib::CameraPose pose = camera_above({1920, 1080}, 1400, {457, 0}, 900, 30);
  const geom::Pose truth = geom::Pose::from_degrees(457, 700, 0);
  auto corners = tag_corners_image(pose, truth, 24, 2.0);
  auto right = measure_tag(pose, corners, 24, 2.0);
  auto wrong = measure_tag(pose, corners, 24, 0.0);
  ASSERT_TRUE(right && wrong);
  EXPECT_NEAR(geom::distance(right->fit.table_from_tag.position, truth.position), 0, 1e-6);
  EXPECT_GT(geom::distance(wrong->fit.table_from_tag.position, truth.position), 1.0);
}

TEST(TagMeasurement, JacobianIsTheLocalScale) {
  // Straight down, no distortion: mm per pixel = height / focal everywhere.
  const calib::CameraPose pose = camera_above({1280, 720}, 1000, {400, 400}, 800, 0);
  auto m = measure_tag(pose, tag_corners_image(pose, geom::Pose::from_degrees(350, 420, 17), 20, 0.0), 20, 0.0);
  ASSERT_TRUE(m);
  EXPECT_NEAR(m->pixels_per_mm, 1000.0 / 800.0, 1e-6);
  EXPECT_NEAR(std::fabs(m->table_from_image_jacobian(0, 0)), 0.8, 1e-6);
  EXPECT_NEAR(std::fabs(m->table_from_image_jacobian(1, 1)), 0.8, 1e-6);
  EXPECT_NEAR(m->table_from_image_jacobian(0, 1), 0, 1e-6);
}

// Monte Carlo: corners with Gaussian pixel noise of the prior's size; the reported centre and
// heading sigmas must match the actual scatter (RMS over trials) within 10 %.
TEST(TagMeasurement, SigmaMatchesTheScatterOfNoisyCorners) {
  const calib::CameraPose pose = camera_above({1920, 1080}, 1400, {457, 300}, 1000, 20, -0.1);
  const geom::Pose truth = geom::Pose::from_degrees(300, 500, 40);
  const auto exact = tag_corners_image(pose, truth, 24, 2.0);
  TagMeasurementOptions options;  // prior 0.1 px
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0, options.prior_corner_sigma_px);
  double err2 = 0, sigma2 = 0, herr2 = 0, hsigma2 = 0;
  const int trials = 4000;
  for (int i = 0; i < trials; ++i) {
    auto corners = exact;
    for (auto& c : corners) c += cv::Point2d(noise(rng), noise(rng));
    auto m = measure_tag(pose, corners, 24, 2.0, options);
    ASSERT_TRUE(m);
    const geom::Vec2 e = m->fit.table_from_tag.position - truth.position;
    err2 += geom::length_squared(e) / 2;  // per axis
    sigma2 += m->center_sigma_mm * m->center_sigma_mm;
    const double he = geom::angle_difference_deg(m->fit.table_from_tag.heading_deg(), 40);
    herr2 += he * he;
    hsigma2 += m->heading_sigma_deg * m->heading_sigma_deg;
  }
  EXPECT_NEAR(std::sqrt(err2 / trials) / std::sqrt(sigma2 / trials), 1.0, 0.1);
  EXPECT_NEAR(std::sqrt(herr2 / trials) / std::sqrt(hsigma2 / trials), 1.0, 0.1);
}

TEST(TagMeasurement, LargerCornerNoiseRaisesTheEstimate) {
  const calib::CameraPose pose = camera_above({1920, 1080}, 1400, {457, 457}, 1000, 0);
  const auto exact = tag_corners_image(pose, geom::Pose::from_degrees(457, 457, 0), 24, 2.0);
  std::mt19937 rng(5);
  std::normal_distribution<double> noise(0, 1.0);  // ten times the prior
  double sigma_px2 = 0;
  for (int i = 0; i < 2000; ++i) {
    auto corners = exact;
    for (auto& c : corners) c += cv::Point2d(noise(rng), noise(rng));
    sigma_px2 += std::pow(measure_tag(pose, corners, 24, 2.0)->corner_sigma_px, 2);
  }
  // Pooled with 5 prior degrees of freedom at 0.1 px: sqrt((5 * 1 + 5 * 0.01) / 10) = 0.71 px.
  EXPECT_NEAR(std::sqrt(sigma_px2 / 2000), std::sqrt((5 * 1.0 + 5 * 0.01) / 10), 0.05);
}

// The detector's still bias: an edge lying along the pixel grid sees one sub-pixel phase over its
// whole length and keeps its error; an edge crossing many pixel rows averages it out.
TEST(TagMeasurement, GridLockedShareFollowsThePixelRowsAnEdgeCrosses) {
  auto square = [](double side, double turn_deg) {
    const double a = geom::deg_to_rad(turn_deg), h = side / 2;
    std::array<cv::Point2d, 4> corners;
    const double xs[4] = {-h, h, h, -h}, ys[4] = {-h, -h, h, h};
    for (std::size_t k = 0; k < 4; ++k)
      corners[k] = {500 + xs[k] * std::cos(a) - ys[k] * std::sin(a), 300 + xs[k] * std::sin(a) + ys[k] * std::cos(a)};
    return corners;
  };
  EXPECT_DOUBLE_EQ(grid_locked_share(square(24, 0)), 1.0);
  // Turned 0.5 degrees: each edge crosses 24 sin(0.5 deg) = 0.21 rows, less than one cycle.
  EXPECT_DOUBLE_EQ(grid_locked_share(square(24, 0.5)), 1.0);
  // Turned 5 degrees: 2.09 rows, 1 / (pi 2.09)^2 of it left.
  EXPECT_NEAR(grid_locked_share(square(24, 5)), 1.0 / std::pow(CV_PI * 24 * std::sin(geom::deg_to_rad(5)), 2), 1e-9);
  // The same turn on a tag twice as large crosses twice the rows: a quarter of that.
  EXPECT_NEAR(grid_locked_share(square(48, 5)), grid_locked_share(square(24, 5)) / 4, 1e-9);
  EXPECT_LT(grid_locked_share(square(24, 30)), 0.001);
  EXPECT_LT(grid_locked_share(square(24, 45)), 0.001);
}

TEST(TagMeasurement, ATagAlongThePixelGridCarriesTheGridLockedBias) {
  // Straight down, no distortion, the table's axes along the image's: heading 0 lies along the
  // grid, heading 30 across it. 0.8 mm per pixel.
  const calib::CameraPose pose = camera_above({1280, 720}, 1000, {400, 400}, 800, 0);
  TagMeasurementOptions options;
  auto along =
      measure_tag(pose, tag_corners_image(pose, geom::Pose::from_degrees(400, 400, 0), 20, 0.0), 20, 0.0, options);
  auto across =
      measure_tag(pose, tag_corners_image(pose, geom::Pose::from_degrees(400, 400, 30), 20, 0.0), 20, 0.0, options);
  ASSERT_TRUE(along && across);
  EXPECT_NEAR(along->center_bias_px, std::hypot(options.still_bias_px, options.grid_locked_bias_px), 1e-9);
  EXPECT_NEAR(across->center_bias_px, options.still_bias_px, 0.02 * options.still_bias_px)
      << "across the grid: the locked share is negligible";
  // In millimetres through the pixel footprint.
  EXPECT_NEAR(along->center_bias_sigma_mm, 0.8 * along->center_bias_px, 1e-6);
  EXPECT_NEAR(across->center_bias_sigma_mm, 0.8 * across->center_bias_px, 1e-6);
}

TEST(TagMeasurement, CornersAboveTheHorizonGiveNothing) {
  // Tilted 80 degrees: the top of the image sees above the horizon.
  const calib::CameraPose pose = camera_above({1280, 720}, 800, {0, 0}, 300, 80);
  std::array<cv::Point2d, 4> corners = {{{600, 719}, {620, 719}, {620, 709}, {600, 709}}};
  EXPECT_FALSE(measure_tag(pose, corners, 20, 0.0));
}

}  // namespace
}  // namespace diskref::vision
