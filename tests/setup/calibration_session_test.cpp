// The calibration step, fed rendered views of the kit's board (simulator/board_views.h, exact
// truth): views are kept or refused as they come, with the reason; the map fills where corners
// are seen; a board never found is said with what to check; and the lens found is the true one.

#include <gtest/gtest.h>

#include <opencv2/imgproc.hpp>
#include "tests/setup/setup_scene.h"

#include "setup/calibration_session.h"
#include "setup/kit.h"
#include "simulator/board_views.h"
#include "simulator/camera_rig.h"

namespace diskref::setup {
namespace {

calib::CameraModel true_lens() {
  calib::CameraModel c;
  c.image_size = {1280, 720};
  c.camera_matrix = simulator::camera_matrix_for_fov(c.image_size, 66);
  c.dist_coeffs = {-0.18, 0.06, 0.0005, -0.0004, -0.01};
  return c;
}

cv::Mat gray_view(const calib::CameraModel& lens, const std::pair<cv::Matx33d, cv::Vec3d>& pose,
                  const print::BoardSpec& board, std::uint64_t seed, double blur = 0) {
  simulator::ImageEffects fx;
  fx.noise_sigma = 1.5;
  cv::Mat bgr = simulator::render_board_view(lens, pose.first, pose.second, board, fx, seed), gray;
  cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
  if (blur > 0) cv::GaussianBlur(gray, gray, {0, 0}, blur);
  return gray;
}

TEST(CalibrationSession, ViewsAreJudgedAsTheyComeAndTheLensFoundIsTheTrueOne) {
  const print::BoardSpec board = default_kit_board();
  const calib::CameraModel lens = true_lens();
  CalibrationSession session(board, lens.image_size);
  const auto poses = simulator::calibration_poses(lens, board, 16, 4);
  double t = 0;
  // The first view is kept; the same view again is a near-duplicate; a blurred one is kept too
  // (blur alone refuses no view: its corners are judged when the lens is calibrated).
  FrameVerdict first = session.add_frame(gray_view(lens, poses[0], board, 1), cv::Mat(), t += 0.5);
  EXPECT_TRUE(first.accepted) << first.text;
  EXPECT_FALSE(first.corners.empty());
  // The same place again, a little softer: its sharper twin stays.
  FrameVerdict again = session.add_frame(gray_view(lens, poses[0], board, 2, 0.8), cv::Mat(), t += 0.5);
  EXPECT_FALSE(again.accepted);
  EXPECT_NE(again.text.find("near-duplicate"), std::string::npos) << again.text;
  FrameVerdict blurred = session.add_frame(gray_view(lens, poses[1], board, 3, 3.0), cv::Mat(), t += 0.5);
  EXPECT_TRUE(blurred.accepted) << blurred.text;
  EXPECT_EQ(blurred.brief, "kept: view 2");
  EXPECT_FALSE(session.ready());
  EXPECT_NE(testing::all_text(session.advice(t)).find("2 of 12 views kept"), std::string::npos)
      << testing::all_text(session.advice(t));

  for (std::size_t i = 1; i < poses.size(); ++i)
    session.add_frame(gray_view(lens, poses[i], board, 10 + i), cv::Mat(), t += 0.5);
  EXPECT_GE(session.views_kept(), kWantedViews);
  EXPECT_TRUE(session.ready()) << testing::all_text(session.advice(t));
  // Where the lens is known worst is said while views come ("show the board here").
  EXPECT_FALSE(session.worst_known_region().empty());
  EXPECT_GT(session.worst_known_sigma_px(), 0.0);
  const std::string advice = testing::all_text(session.advice(t));
  EXPECT_TRUE(advice.find("the lens is known worst at the picture's " + session.worst_known_region()) !=
                  std::string::npos ||
              advice.find("the lens is known within ") != std::string::npos)
      << advice;
  const cv::Mat map = session.coverage();
  EXPECT_GT(cv::countNonZero(map), map.total() * 3 / 4) << "corners all over the picture";
  const calib::LensCalibration c = session.calibrate();
  EXPECT_NEAR(c.camera.fx(), lens.fx(), 0.005 * lens.fx());
  EXPECT_NEAR(c.camera.cx(), lens.cx(), 3.0);
  // Judged by the projection uncertainty over the central 80 % of the picture, not by the RMS.
  EXPECT_LT(c.uncertainty_central.p90, 0.2);
  const Advice meaning = explain_calibration(c);
  EXPECT_EQ(meaning.level, Advice::Level::ok);
  EXPECT_EQ(meaning.text.rfind("excellent: the lens", 0), 0u) << meaning.text;
  EXPECT_NE(meaning.text.find("known worst at the picture's "), std::string::npos) << meaning.text;
  // And a lens known poorly is called poor, with where to show the board.
  calib::LensCalibration unsure = c;
  unsure.uncertainty_central.p90 = 1.4;
  const Advice poor = explain_calibration(unsure);
  EXPECT_EQ(poor.level, Advice::Level::problem);
  EXPECT_NE(poor.fix.find("calibrate again"), std::string::npos);
  EXPECT_NE(poor.fix.find("show the board more at the picture's "), std::string::npos) << poor.fix;
}

TEST(CalibrationSession, TheRegionKnownWorstIsSaidWithWhereToShowTheBoard) {
  // Views only over the left part of the picture: the lens is poorly known beyond them.
  const print::BoardSpec board = default_kit_board();
  const calib::CameraModel lens = true_lens();
  CalibrationSession session(board, lens.image_size);
  double t = 0;
  int shown = 0;
  for (const auto& pose : simulator::calibration_poses(lens, board, 60, 9)) {
    const double x = lens.fx() * pose.second[0] / pose.second[2] + lens.cx();  // where the board's origin is seen
    if (x > 0.35 * lens.image_size.width) continue;
    session.add_frame(gray_view(lens, pose, board, 50 + static_cast<std::uint64_t>(shown)), cv::Mat(), t += 0.5);
    if (++shown == 10) break;
  }
  ASSERT_GE(session.views_kept(), kWorstRegionViews);
  // OpenCV's lens models are global polynomials: their uncertainty grows with the distance from
  // the principal point more than with the distance from the corners seen, so the worst place is
  // a corner of the picture (the coverage map says which parts saw no corner).
  std::printf("worst: %s, %.2f px\n", session.worst_known_region().c_str(), session.worst_known_sigma_px());
  EXPECT_NE(session.worst_known_region().find("corner"), std::string::npos) << session.worst_known_region();
  EXPECT_GT(session.worst_known_sigma_px(), 0.5);
  EXPECT_NE(testing::all_text(session.advice(t)).find("show the board there"), std::string::npos)
      << testing::all_text(session.advice(t));
  // The region drawn on the screen is the one said, with the same uncertainty.
  ASSERT_TRUE(session.worst_known());
  EXPECT_EQ(session.worst_known()->name, session.worst_known_region());
  EXPECT_DOUBLE_EQ(session.worst_known()->max_sigma_px, session.worst_known_sigma_px());
  // Once calibrated, the screen leaves the quick fit's region out (the calibration names its own).
  EXPECT_EQ(testing::all_text(session.advice(t, false)).find("known worst"), std::string::npos)
      << testing::all_text(session.advice(t, false));
}

TEST(CalibrationSession, ABoardNeverFoundIsSaidWithWhatToCheck) {
  const print::BoardSpec board = default_kit_board();
  CalibrationSession session(board, {640, 480});
  cv::Mat nothing(480, 640, CV_8UC1, cv::Scalar(120));
  cv::randn(nothing, 120, 20);
  for (double t = 0; t <= 6.0; t += 0.5) EXPECT_FALSE(session.add_frame(nothing, cv::Mat(), t).found);
  const std::vector<Advice> advice = session.advice(6.0);
  ASSERT_FALSE(advice.empty());
  EXPECT_EQ(advice.front().level, Advice::Level::problem);
  EXPECT_EQ(advice.front().text, "no board found in 6 s of pictures");
  EXPECT_NE(advice.front().fix.find(
                "hold the printed board (ChArUco 7x5 squares, 30 mm squares, 22 mm markers, DICT_5X5_100)"),
            std::string::npos)
      << advice.front().fix;
  EXPECT_THROW(session.calibrate(), calib::CalibrationRefused);
}

}  // namespace
}  // namespace diskref::setup
