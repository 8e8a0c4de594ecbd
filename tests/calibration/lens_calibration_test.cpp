// Lens calibration: against OpenCV's own calibrateCamera on the same corners (real photographs of
// a chessboard, tests/data/real-chessboard-photos), against a known camera (corners projected
// through it), outlier views, and the refusals.
#include "calibration/lens_calibration.h"

#include <algorithm>
#include <filesystem>

#include <gtest/gtest.h>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>

#include "lens_compare.h"
#include "projected_views.h"

namespace diskref::calib {
namespace {

const std::filesystem::path kPhotos = std::filesystem::path(DISKREF_TEST_DATA_DIR) / "real-chessboard-photos";

// The board of the photos: 9x6 inner corners; its square size is not published (25 mm assumed:
// the scale does not change the intrinsics).
const BoardSpec kPhotoBoard = ChessboardSpec{{9, 6}, 25.0};

std::vector<BoardView> find_boards_in_photos() {
  std::vector<std::filesystem::path> files;
  for (const auto& entry : std::filesystem::directory_iterator(kPhotos))
    if (entry.path().extension() == ".jpg") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  std::vector<BoardView> views;
  for (const auto& file : files) {
    cv::Mat gray = cv::imread(file.string(), cv::IMREAD_GRAYSCALE);
    if (auto view = detect_board(gray, kPhotoBoard, file.filename().string())) views.push_back(*view);
  }
  return views;
}

// Detected once for all the tests (about a second).
const std::vector<BoardView>& real_photo_views() {
  static const std::vector<BoardView> views = find_boards_in_photos();
  return views;
}

struct OpenCvResult {
  double rms_px;
  CameraModel camera;
};

// OpenCV's calibrateCamera exactly as its documentation and samples call it (default flags and
// stopping rule).
OpenCvResult opencv_calibrate(const std::vector<BoardView>& views, cv::Size size) {
  std::vector<std::vector<cv::Point3f>> object;
  std::vector<std::vector<cv::Point2f>> image;
  for (const auto& v : views) {
    object.push_back(v.object_points);
    image.push_back(v.image_points);
  }
  cv::Mat k, dist;
  std::vector<cv::Mat> rvecs, tvecs;
  OpenCvResult out;
  out.rms_px = cv::calibrateCamera(object, image, size, k, dist, rvecs, tvecs);
  out.camera.image_size = size;
  out.camera.camera_matrix = cv::Matx33d(k);
  for (int i = 0; i < 5; ++i) out.camera.dist_coeffs[static_cast<std::size_t>(i)] = dist.at<double>(i);
  return out;
}

TEST(RealChessboardPhotos, BoardFoundInEveryPhotoOfItAndNotElsewhere) {
  auto views = real_photo_views();
  EXPECT_EQ(views.size(), 13u);  // left01..left14 without left10; left.jpg shows no board
  for (const auto& v : views) {
    EXPECT_NE(v.name, "left.jpg");
    EXPECT_EQ(v.image_points.size(), 54u);
  }
}

TEST(RealChessboardPhotos, CalibratesAsWellAsOpenCVOnTheSameCorners) {
  auto views = real_photo_views();
  cv::Size size(640, 480);
  LensCalibration ours = calibrate_lens(views, size);
  OpenCvResult theirs = opencv_calibrate(views, size);
  std::printf("ours rms %.5f px (%zu views), OpenCV %.5f px (%zu views)\n", ours.rms_px, ours.views.size(),
              theirs.rms_px, views.size());
  // Never worse on the same corners; evaluated on all the views (ours may have dropped outliers)
  // each model, with the board poses refitted, is as good as OpenCV's.
  EXPECT_LE(ours.rms_px, theirs.rms_px + 1e-9);
  EXPECT_LE(reprojection_rms_px(ours.camera, views), reprojection_rms_px(theirs.camera, views) * 1.01);
  // The same lens: intrinsics agree, and so do the rays of every pixel.
  EXPECT_NEAR(ours.camera.fx(), theirs.camera.fx(), 0.005 * theirs.camera.fx());
  EXPECT_NEAR(ours.camera.fy(), theirs.camera.fy(), 0.005 * theirs.camera.fy());
  EXPECT_NEAR(ours.camera.cx(), theirs.camera.cx(), 2.0);
  EXPECT_NEAR(ours.camera.cy(), theirs.camera.cy(), 2.0);
  EXPECT_LT(testing::ray_map_error(theirs.camera, ours.camera).max_aligned_px, 0.3);
  // Plausible for this webcam (VGA, ~62 degrees across); every view's error is sub-pixel.
  EXPECT_LT(ours.rms_px, 0.3);
  for (const auto& v : ours.views) EXPECT_LT(v.rms_px, 0.5) << v.name;
  for (double s : ours.intrinsic_std) EXPECT_GT(s, 0.0);
  EXPECT_LT(ours.intrinsic_std[0], 0.01 * ours.camera.fx());
}

TEST(KnownCamera, ProjectedCornersWithNoiseRecoverTheLens) {
  // Corner noise as measured on rendered boards (0.04 px RMS per corner: 0.03 px per coordinate;
  // rendered_boards_test.cpp), 20 views reaching the image's edges and corners.
  CameraModel truth = testing::webcam_720p();
  BoardSpec board = ChessboardSpec{{9, 6}, 30.0};
  constexpr double kNoise = 0.03;
  auto views = testing::views_only(testing::projected_views(truth, board, 20, kNoise, 7));
  ASSERT_EQ(views.size(), 20u);
  LensCalibration cal = calibrate_lens(views, truth.image_size);
  EXPECT_NEAR(cal.camera.fx(), truth.fx(), 0.005 * truth.fx());
  EXPECT_NEAR(cal.camera.fy(), truth.fy(), 0.005 * truth.fy());
  EXPECT_NEAR(cal.camera.cx(), truth.cx(), 2.0);
  EXPECT_NEAR(cal.camera.cy(), truth.cy(), 2.0);
  auto error = testing::ray_map_error(truth, cal.camera);
  std::printf("rms %.3f px, ray map error %.3f px (%.3f px after aligning the camera frames)\n", cal.rms_px,
              error.max_px, error.max_aligned_px);
  EXPECT_LT(error.max_aligned_px, 0.3);
  // The RMS of a good fit is the corner noise (per corner: sqrt(2) x per coordinate).
  EXPECT_NEAR(cal.rms_px, kNoise * std::sqrt(2.0), 0.01);
  // The reported uncertainty is honest: the true values lie within 4 sigma.
  for (std::size_t i = 0; i < 4; ++i) {
    double truth_value[4] = {truth.fx(), truth.fy(), truth.cx(), truth.cy()};
    double estimate[4] = {cal.camera.fx(), cal.camera.fy(), cal.camera.cx(), cal.camera.cy()};
    EXPECT_LT(std::abs(estimate[i] - truth_value[i]), 4 * cal.intrinsic_std[i]) << kIntrinsicNames[i];
  }
}

TEST(KnownCamera, NeverWorseThanOpenCVOnTheSameCorners) {
  CameraModel truth = testing::webcam_720p();
  for (uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
    auto views = testing::views_only(testing::projected_views(truth, ChessboardSpec{{8, 5}, 30.0}, 6, 0.3, seed));
    LensCalibration ours = calibrate_lens(views, truth.image_size);
    OpenCvResult theirs = opencv_calibrate(views, truth.image_size);
    EXPECT_LE(ours.rms_px, theirs.rms_px + 1e-9) << "seed " << seed;
  }
}

TEST(OutlierViews, AViewWithAMisplacedCornerRowIsDroppedAndNamed) {
  CameraModel truth = testing::webcam_720p();
  auto views = testing::views_only(testing::projected_views(truth, ChessboardSpec{{9, 6}, 30.0}, 12, 0.1, 11));
  // A detection gone wrong: one row of corners shifted by 3 px.
  for (int i = 0; i < 9; ++i) views[4].image_points[static_cast<std::size_t>(i)].x += 3.0f;
  LensCalibration cal = calibrate_lens(views, truth.image_size);
  ASSERT_EQ(cal.outliers.size(), 1u);
  EXPECT_EQ(cal.outliers[0].name, views[4].name);
  EXPECT_NE(cal.outliers[0].reason.find("outlier"), std::string::npos);
  EXPECT_EQ(cal.views.size(), 11u);
  EXPECT_LT(cal.rms_px, 0.2);
}

TEST(Refusals, FewerThanThreeViews) {
  CameraModel truth = testing::webcam_720p();
  auto views = testing::views_only(testing::projected_views(truth, ChessboardSpec{{9, 6}, 30.0}, 2, 0.1, 3));
  try {
    calibrate_lens(views, truth.image_size);
    FAIL() << "two views were accepted";
  } catch (const CalibrationRefused& e) {
    EXPECT_NE(std::string(e.what()).find("at least 3"), std::string::npos) << e.what();
  }
}

TEST(Refusals, ViewsThatLeaveTheImageUncovered) {
  // Boards only ever in the middle of the image: the distortion at the edges is a guess.
  CameraModel truth = testing::webcam_720p();
  auto all = testing::projected_views(truth, ChessboardSpec{{9, 6}, 15.0}, 300, 0.1, 5, 0.12, 0.2);
  std::vector<BoardView> central;
  for (const auto& p : all) {
    bool middle = true;
    for (const auto& q : p.view.image_points)
      middle = middle && std::abs(q.x - 640) < 250 && std::abs(q.y - 360) < 150;
    if (middle) central.push_back(p.view);
  }
  ASSERT_GE(central.size(), 5u);
  try {
    calibrate_lens(central, truth.image_size);
    FAIL() << "views in the middle only were accepted";
  } catch (const CalibrationRefused& e) {
    EXPECT_NE(std::string(e.what()).find("do not cover the image"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace diskref::calib
