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

TEST(CalibrationWarnings, NoneWhenAllIsWell) {
  EXPECT_TRUE(calibration_warnings(good_pose(), 0.4, false).empty());
}

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

// A 1280 x 720 camera whose uncertainty grid (16 x 9 nodes, as the camera file's) is `base`
// everywhere except where `worse` says.
calib::CameraModel camera_with_grid(double base, const std::vector<std::pair<std::pair<int, int>, double>>& worse) {
  calib::CameraModel camera;
  camera.image_size = {1280, 720};
  calib::UncertaintyGrid g;
  g.cols = 16;
  g.rows = 9;
  g.sigma_px.assign(16 * 9, base);
  for (const auto& [node, sigma] : worse) g.sigma_px[static_cast<std::size_t>(node.second * 16 + node.first)] = sigma;
  camera.uncertainty = g;
  return camera;
}

// The region drawn is the ninth of the picture whose nodes are known worst on average: the
// bottom-right ninth here, with its rectangle in raw pixels.
TEST(ShowBoardHere, DrawsTheNinthKnownWorst) {
  std::vector<std::pair<std::pair<int, int>, double>> worse;
  for (int c = 11; c < 16; ++c)
    for (int r = 6; r < 9; ++r) worse.push_back({{c, r}, 1.4});
  const std::optional<calib::WorstKnownRegion> worst = calib::worst_known_ninth(camera_with_grid(0.2, worse));
  ASSERT_TRUE(worst);
  EXPECT_EQ(worst->name, "bottom-right corner");
  EXPECT_NEAR(worst->rect_px.x, 1280.0 * 2 / 3, 1e-9);
  EXPECT_NEAR(worst->rect_px.y, 720.0 * 2 / 3, 1e-9);
  EXPECT_NEAR(worst->rect_px.width, 1280.0 / 3, 1e-9);
  EXPECT_NEAR(worst->rect_px.height, 720.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(worst->max_sigma_px, 1.4);

  const std::optional<ShowBoardHere> here = show_board_here(worst);
  ASSERT_TRUE(here);
  // Inside the region, inset so that its line stays in the picture.
  EXPECT_NEAR(here->rect_px.x, 1280.0 * 2 / 3 + kShowBoardHereInsetPx, 1e-9);
  EXPECT_NEAR(here->rect_px.x + here->rect_px.width, 1280.0 - kShowBoardHereInsetPx, 1e-9);
  EXPECT_NEAR(here->rect_px.y + here->rect_px.height, 720.0 - kShowBoardHereInsetPx, 1e-9);
  EXPECT_NE(here->words.find("show the board here"), std::string::npos) << here->words;
  EXPECT_NE(here->words.find("bottom-right corner"), std::string::npos) << here->words;
  EXPECT_NE(here->words.find("1.4 px"), std::string::npos) << here->words;
}

// A whole edge known poorly outweighs one poor node at a corner: the region is chosen by its
// nodes' mean, and the words give the worst node within it.
TEST(ShowBoardHere, AWholeEdgeOutweighsOneNode) {
  std::vector<std::pair<std::pair<int, int>, double>> worse{{{0, 0}, 3.0}};  // the top-left corner pixel
  for (int r = 3; r < 6; ++r)
    for (int c = 11; c < 16; ++c) worse.push_back({{c, r}, 1.0 + 0.1 * (r - 3)});  // the right edge
  const std::optional<calib::WorstKnownRegion> worst = calib::worst_known_ninth(camera_with_grid(0.1, worse));
  ASSERT_TRUE(worst);
  EXPECT_EQ(worst->name, "right edge");
  EXPECT_NEAR(worst->rect_px.x, 1280.0 * 2 / 3, 1e-9);
  EXPECT_NEAR(worst->rect_px.y, 720.0 / 3, 1e-9);
  EXPECT_DOUBLE_EQ(worst->max_sigma_px, 1.2);
  EXPECT_EQ(calib::worst_known_region(camera_with_grid(0.1, worse)), "right edge");
}

// Nothing is drawn when every region is known well enough, nor without a grid.
TEST(ShowBoardHere, NothingWhenTheLensIsKnownEverywhere) {
  const calib::CameraModel good = camera_with_grid(0.1, {{{15, 8}, kShowBoardHereSigmaPx * 0.9}});
  ASSERT_TRUE(calib::worst_known_ninth(good));
  EXPECT_FALSE(show_board_here(calib::worst_known_ninth(good)));
  EXPECT_TRUE(show_board_here(calib::worst_known_ninth(camera_with_grid(0.1, {{{15, 8}, kShowBoardHereSigmaPx}}))));
  calib::CameraModel none;
  none.image_size = {1280, 720};
  EXPECT_FALSE(calib::worst_known_ninth(none));
  EXPECT_FALSE(show_board_here(std::nullopt));
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
