#include "simulator/lens_rays.h"
#include "simulator/supersample_pattern.h"

#include <cmath>
#include <set>
#include <stdexcept>

#include <gtest/gtest.h>
#include <opencv2/calib3d.hpp>

#include "tests/simulator/render_test_support.h"

namespace diskref::simulator {
namespace {

TEST(LensRays, ForwardModelIsOpenCVsProjectPoints) {
  calib::CameraModel camera = testing::test_camera(true);
  std::vector<cv::Point3d> points;
  for (double x = -0.6; x <= 0.6; x += 0.15)
    for (double y = -0.35; y <= 0.35; y += 0.1) points.emplace_back(x, y, 1.0);
  std::vector<cv::Point2d> projected;
  cv::projectPoints(points, cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), camera.camera_matrix, camera.dist_mat(), projected);
  for (std::size_t i = 0; i < points.size(); ++i) {
    cv::Point2d mine = pixel_from_ray(camera, {points[i].x, points[i].y});
    EXPECT_NEAR(mine.x, projected[i].x, 1e-9);
    EXPECT_NEAR(mine.y, projected[i].y, 1e-9);
  }
}

TEST(LensRays, InverseRoundTripsEveryPixelOfAStrongLens) {
  calib::CameraModel camera = testing::test_camera(true);
  double worst = 0;
  for (int v = 0; v < camera.image_size.height; v += 37) {
    for (int u = 0; u < camera.image_size.width; u += 41) {
      auto ray = ray_from_pixel(camera, {double(u), double(v)});
      ASSERT_TRUE(ray) << u << "," << v;
      cv::Point2d back = pixel_from_ray(camera, *ray);
      worst = std::max(worst, cv::norm(back - cv::Point2d(u, v)));
    }
  }
  EXPECT_LT(worst, 1e-8);
}

// Every model a camera file may hold (spec §7: 4, 5, 8, 12 or 14 coefficients) renders as OpenCV
// projects, and inverts.
TEST(LensRays, EveryDistortionModelIsOpenCVsAndInverts) {
  const std::vector<double> full{-0.21, 0.08,   0.0007,  -0.0004, -0.015, 0.02, -0.01,
                                 0.004, 0.0012, -0.0005, -0.0009, 0.0003, 0.01, -0.008};
  for (std::size_t count : calib::kDistortionCounts) {
    calib::CameraModel camera = testing::test_camera(true);
    camera.dist_coeffs.assign(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(count));
    std::vector<cv::Point3d> points;
    for (double x = -0.6; x <= 0.6; x += 0.15)
      for (double y = -0.35; y <= 0.35; y += 0.1) points.emplace_back(x, y, 1.0);
    std::vector<cv::Point2d> projected;
    cv::projectPoints(points, cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), camera.camera_matrix, camera.dist_mat(),
                      projected);
    for (std::size_t i = 0; i < points.size(); ++i) {
      cv::Point2d mine = pixel_from_ray(camera, {points[i].x, points[i].y});
      EXPECT_NEAR(mine.x, projected[i].x, 1e-7) << count << " coefficients";
      EXPECT_NEAR(mine.y, projected[i].y, 1e-7) << count << " coefficients";
      auto ray = ray_from_pixel(camera, projected[i]);
      ASSERT_TRUE(ray) << count;
      EXPECT_NEAR((*ray)[0], points[i].x, 1e-8) << count;
      EXPECT_NEAR((*ray)[1], points[i].y, 1e-8) << count;
    }
  }
}

TEST(LensRays, GridInterpolationIsWithinAThousandthOfAPixel) {
  calib::CameraModel camera = testing::test_camera(true);
  RayGrid grid(camera);
  double worst = 0;
  for (double v = -0.4; v < camera.image_size.height - 0.5; v += 23.37) {
    for (double u = -0.4; u < camera.image_size.width - 0.5; u += 19.71) {
      double x = 0, y = 0;
      ASSERT_TRUE(grid.ray(u, v, x, y));
      worst = std::max(worst, cv::norm(pixel_from_ray(camera, {x, y}) - cv::Point2d(u, v)));
    }
  }
  EXPECT_LT(worst, 1e-3);
}

// supersample_pattern.h: every n x n pattern is stratified (each sample alone in its column and
// its row of the N x N strata), no two samples share a diagonal (an N-queens solution: N distinct
// places across a 45-degree edge too), and it is centred on the pixel.
TEST(SupersamplePattern, StratifiedWithDistinctDiagonalsAndCentred) {
  for (int n = 1; n <= 8; ++n) {
    const auto offsets = supersample_offsets(n);
    const std::size_t count = static_cast<std::size_t>(n * n);
    ASSERT_EQ(offsets.size(), count);
    std::set<long long> columns, rows, sums, differences;
    cv::Point2d mean;
    for (const auto& o : offsets) {
      EXPECT_GT(o.x, -0.5);
      EXPECT_LT(o.x, 0.5);
      EXPECT_GT(o.y, -0.5);
      EXPECT_LT(o.y, 0.5);
      // The stratum of each coordinate, and the sample's place in it (its middle).
      const double cx = (o.x + 0.5) * static_cast<double>(count) - 0.5,
                   cy = (o.y + 0.5) * static_cast<double>(count) - 0.5;
      EXPECT_NEAR(cx, std::round(cx), 1e-9);
      EXPECT_NEAR(cy, std::round(cy), 1e-9);
      const long long i = std::llround(cx), j = std::llround(cy);
      columns.insert(i);
      rows.insert(j);
      sums.insert(i + j);
      differences.insert(i - j);
      mean += o * (1.0 / static_cast<double>(count));
    }
    EXPECT_EQ(columns.size(), count) << "n = " << n;
    EXPECT_EQ(rows.size(), count) << "n = " << n;
    if (n >= 2) {
      EXPECT_EQ(sums.size(), count) << "n = " << n;
      EXPECT_EQ(differences.size(), count) << "n = " << n;
    }
    EXPECT_NEAR(mean.x, 0, 1e-12) << "n = " << n;  // centred: no shift of the image
    EXPECT_NEAR(mean.y, 0, 1e-12) << "n = " << n;
  }
  EXPECT_EQ(supersample_offsets(1)[0], cv::Point2d(0, 0));
  EXPECT_EQ(edge_supersample_offsets().size(), 64u);
  EXPECT_THROW(supersample_offsets(0), std::invalid_argument);
  EXPECT_THROW(supersample_offsets(9), std::invalid_argument);
}

}  // namespace
}  // namespace diskref::simulator
