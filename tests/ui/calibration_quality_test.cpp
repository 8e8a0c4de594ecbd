#include "ui/calibration_quality.h"

#include <gtest/gtest.h>

#include "ui/camera_overlay.h"

namespace diskref::ui {
namespace {

bool any_contains(const std::vector<std::string>& v, const std::string& part) {
  for (const auto& s : v) {
    if (s.find(part) != std::string::npos) return true;
  }
  return false;
}

calib::CameraPose good_pose() {
  calib::CameraPose p;
  p.lens_calibrated = true;
  p.reprojection_rms_px = 0.3;
  p.reprojection_rms_mm = 0.2;
  return p;
}

// Every warning says what to do after what is wrong.
TEST(CalibrationWarnings, EachSaysWhatToDo) {
  calib::CameraPose poor = good_pose();
  poor.lens_calibrated = false;
  poor.reprojection_rms_px = 3;
  std::vector<std::string> all = calibration_warnings(poor, 1.7, true);
  for (const std::string& w : calibration_warnings(std::nullopt, std::nullopt, false)) all.push_back(w);
  ASSERT_EQ(all.size(), 5u);
  for (const std::string& w : all) {
    const auto colon = w.find(": ");
    ASSERT_NE(colon, std::string::npos) << w;
    const std::string todo = w.substr(colon + 2);
    const bool says = todo.find("put ") != std::string::npos || todo.find("calibrate") != std::string::npos ||
                      todo.find("fix ") != std::string::npos || todo.find("lay ") != std::string::npos;
    EXPECT_TRUE(says) << w;
  }
}

TEST(CalibrationWarnings, NoneWhenAllIsWell) { EXPECT_TRUE(calibration_warnings(good_pose(), 0.4, false).empty()); }

TEST(CalibrationWarnings, EachProblemIsSaid) {
  EXPECT_TRUE(any_contains(calibration_warnings(std::nullopt, 0.4, false), "table not found"));
  EXPECT_TRUE(any_contains(calibration_warnings(good_pose(), 1.7, false), "lens calibration poor"));
  EXPECT_TRUE(any_contains(calibration_warnings(good_pose(), 0.4, true), "camera moved"));
  calib::CameraPose p = good_pose();
  p.reprojection_rms_mm = 1.5;
  EXPECT_TRUE(any_contains(calibration_warnings(p, 0.4, false), "table pose poor"));
  p = good_pose();
  p.reprojection_rms_px = 2.5;
  EXPECT_TRUE(any_contains(calibration_warnings(p, 0.4, false), "table pose poor"));
  p = good_pose();
  p.lens_calibrated = false;
  EXPECT_TRUE(any_contains(calibration_warnings(p, std::nullopt, false), "no lens calibration"));
}

TEST(CameraOverlay, PlayAreaEdgeGoesRoundCounterClockwise) {
  std::vector<Vec2> e = play_area_edge_mm({900, 600}, 3);
  ASSERT_EQ(e.size(), 12u);
  EXPECT_EQ(e[0], (Vec2{0, 0}));
  EXPECT_EQ(e[3], (Vec2{900, 0}));
  EXPECT_EQ(e[6], (Vec2{900, 600}));
  EXPECT_EQ(e[9], (Vec2{0, 600}));
  double area2 = 0;
  for (std::size_t i = 0; i < e.size(); ++i) area2 += geom::cross(e[i], e[(i + 1) % e.size()]);
  EXPECT_DOUBLE_EQ(area2 / 2, 900.0 * 600.0);
}

TEST(CameraOverlay, ProjectsThroughThePoseAndTheView) {
  // A camera 1000 mm straight above the table point (500, 500), looking down, image +x along
  // table +x and image +y along table -y (seen from above): camera_from_table R = diag(1, -1, -1).
  calib::CameraPose pose;
  pose.camera.image_size = {1000, 800};
  pose.camera.camera_matrix = cv::Matx33d(800, 0, 500, 0, 800, 400, 0, 0, 1);
  pose.lens_calibrated = true;
  pose.rotation = cv::Matx33d(1, 0, 0, 0, -1, 0, 0, 0, -1);
  pose.translation = cv::Vec3d(-500, 500, 1000);
  ImageViewTransform view = fit_image({1000, 800}, {0, 0, 500, 400});
  std::vector<Vec2> s = screen_from_table(pose, view, {{500, 500}, {600, 500}, {500, 600}}, 0.0);
  ASSERT_EQ(s.size(), 3u);
  // The point below the camera lands on the principal point; 100 mm at 1000 mm is 80 px.
  EXPECT_NEAR(s[0].x, (500 + 0.5) * 0.5, 1e-6);
  EXPECT_NEAR(s[0].y, (400 + 0.5) * 0.5, 1e-6);
  EXPECT_NEAR(s[1].x - s[0].x, 40, 1e-6);
  EXPECT_NEAR(s[2].y - s[0].y, -40, 1e-6);
  // A point 100 mm up (a tall disk) seen from 900 mm away looks bigger: 100 mm -> 88.9 px.
  std::vector<Vec2> up = screen_from_table(pose, view, {{500, 500}, {600, 500}}, 100.0);
  EXPECT_NEAR(up[1].x - up[0].x, 0.5 * 800 * 100 / 900.0, 1e-6);
}

}  // namespace
}  // namespace diskref::ui
