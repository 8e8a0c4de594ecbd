// Where a tag seen tilted lies in space, against tags placed exactly and projected through lenses.

#include "vision/tilted_tag.h"

#include <cmath>

#include <gtest/gtest.h>

#include "calibration/camera_pose.h"
#include "tests/vision/vision_test_support.h"

namespace diskref::vision {
namespace {

// A tag of `size` whose bottom edge lies on the table along x at (x, y), tilted up about that
// edge by `tilt_deg`; its corners in apriltag order seen from above when it lies flat.
struct Leaning {
  std::array<cv::Point3d, 4> corners;
  cv::Point3d centre;
};
Leaning leaning(double x, double y, double size, double tilt_deg) {
  const double a = tilt_deg * CV_PI / 180, h = size / 2;
  auto at = [&](double u, double v) {  // u across, v up the slope from the bottom edge's middle
    return cv::Point3d(x + u, y + v * std::cos(a), v * std::sin(a));
  };
  return {{at(-h, 0), at(h, 0), at(h, size), at(-h, size)}, at(0, h)};
}

TEST(TiltedTag, ItsMiddleAndTiltAreFoundForAnyTiltThroughADistortingLens) {
  for (const double k1 : {0.0, -0.25}) {
    const calib::CameraPose pose = test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 900, 25, k1);
    for (const double tilt : {0.0, 12.0, 30.0, 60.0, 85.0}) {
      for (const cv::Point2d at : {cv::Point2d{300, 300}, cv::Point2d{120, 420}, cv::Point2d{470, 180}}) {
        const Leaning tag = leaning(at.x, at.y, 14.5, tilt);
        const std::vector<cv::Point2d> px = calib::image_from_table(pose, {tag.corners.begin(), tag.corners.end()});
        const std::optional<TiltedTagPose> found = tilted_tag_pose(pose, {px[0], px[1], px[2], px[3]}, 14.5);
        ASSERT_TRUE(found) << "k1 " << k1 << " tilt " << tilt;
        EXPECT_NEAR(found->centre_mm.x, tag.centre.x, 0.05) << "k1 " << k1 << " tilt " << tilt << " at " << at;
        EXPECT_NEAR(found->centre_mm.y, tag.centre.y, 0.05) << "k1 " << k1 << " tilt " << tilt << " at " << at;
        EXPECT_NEAR(found->centre_mm.z, tag.centre.z, 0.05) << "k1 " << k1 << " tilt " << tilt << " at " << at;
        EXPECT_NEAR(found->tilt_deg, tilt, 0.2) << "k1 " << k1 << " at " << at;
      }
    }
  }
}

TEST(TiltedTag, CornersThatFixNoPoseGiveNone) {
  const calib::CameraPose pose = test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 900, 0);
  const cv::Point2d p{960, 540};
  EXPECT_FALSE(tilted_tag_pose(pose, {p, p, p, p}, 14.5)) << "all four corners at one pixel";
  EXPECT_FALSE(tilted_tag_pose(pose, {cv::Point2d{900, 500}, {1000, 500}, {1000, 600}, {900, 600}}, 0.0)) << "no size";
}

}  // namespace
}  // namespace diskref::vision
