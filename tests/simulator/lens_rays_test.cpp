#include "simulator/lens_rays.h"

#include <set>

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

TEST(LensRays, SupersamplesFillThePixelWithDistinctRowsAndColumns) {
  auto offsets = supersample_offsets(4);
  ASSERT_EQ(offsets.size(), 16u);
  std::set<double> xs, ys;
  cv::Point2d mean;
  for (const auto& o : offsets) {
    EXPECT_GT(o.x, -0.5);
    EXPECT_LT(o.x, 0.5);
    EXPECT_GT(o.y, -0.5);
    EXPECT_LT(o.y, 0.5);
    xs.insert(o.x);
    ys.insert(o.y);
    mean += o * (1.0 / 16);
  }
  EXPECT_EQ(xs.size(), 16u);
  EXPECT_EQ(ys.size(), 16u);
  EXPECT_NEAR(mean.x, 0, 1e-12);  // centred: no shift of the image
  EXPECT_NEAR(mean.y, 0, 1e-12);
  ASSERT_EQ(supersample_offsets(1).size(), 1u);
  EXPECT_EQ(supersample_offsets(1)[0], cv::Point2d(0, 0));
}

}  // namespace
}  // namespace diskref::simulator
