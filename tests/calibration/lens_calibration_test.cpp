// Lens calibration, judged by what it predicts: views held out of the fit (real photographs of a
// chessboard, tests/data/real-chessboard-photos, against OpenCV's own calibrateCamera), a known
// camera (corners projected through it) against the predicted projection uncertainty, the lens
// model chosen by held-out views, outlier views, and the refusals.
#include "calibration/lens_calibration.h"
#include "calibration/cross_validation.h"

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
  out.camera.dist_coeffs.assign(dist.begin<double>(), dist.begin<double>() + 5);
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

// Share of the points of a grid over the central 80 % of the image where `estimate` maps within
// `sigmas` x its predicted projection uncertainty of `truth`.
double share_within(const CameraModel& truth, const LensCalibration& estimate, double sigmas) {
  const auto grid = central_grid(truth.image_size, 24, 14, 0.8);
  const auto error = lens_difference_px(estimate.camera, truth, grid);
  const auto sigma = projection_sigma_px(estimate.camera, estimate.covariance, grid);
  int within = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) within += error[i] <= sigmas * sigma[i];
  return static_cast<double>(within) / static_cast<double>(grid.size());
}

TEST(RealChessboardPhotos, PredictsHeldOutPhotosAtLeastAsWellAsOpenCV) {
  // Four folds over the photos: each fold predicted by a calibration (ours, and OpenCV's default
  // calibrateCamera) made without it.
  const auto& views = real_photo_views();
  const cv::Size size(640, 480);
  const std::vector<int> fold = fold_of_views(views.size(), 4);
  HeldOutError ours, theirs;
  for (int f = 0; f < 4; ++f) {
    std::vector<BoardView> train, test;
    for (std::size_t i = 0; i < views.size(); ++i) (fold[i] == f ? test : train).push_back(views[i]);
    ours += held_out_error(calibrate_lens(train, size).camera, test);
    theirs += held_out_error(opencv_calibrate(train, size).camera, test);
  }
  std::printf("held-out RMS: ours %.4f px, OpenCV %.4f px\n", ours.rms_px(), theirs.rms_px());
  EXPECT_LE(ours.rms_px(), theirs.rms_px() * 1.02);
  // On all the photos: the same lens as OpenCV's within the predicted uncertainty, which is small.
  LensCalibration cal = calibrate_lens(views, size);
  EXPECT_TRUE(cal.outliers.empty());
  EXPECT_EQ(cal.views.size(), views.size());
  for (const auto& v : cal.views) EXPECT_FALSE(v.verdict.empty()) << v.name;
  CameraModel opencv = opencv_calibrate(views, size).camera;
  const auto grid = central_grid(size, 16, 12, 0.8);
  const auto apart = lens_difference_px(cal.camera, opencv, grid);
  const auto sigma = projection_sigma_px(cal.camera, cal.covariance, grid);
  std::size_t within = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) within += apart[i] <= 3 * sigma[i];
  std::printf("model %s; OpenCV's k3 lens within 3 sigma of ours at %zu of %zu points\n",
              lens_model_name(cal.model).c_str(), within, grid.size());
  EXPECT_GE(within, grid.size() * 8 / 10);
  EXPECT_LT(cal.uncertainty_central.p90, 0.5);
  EXPECT_GT(cal.uncertainty_central.median, 0.0);
  ASSERT_TRUE(cal.camera.uncertainty);
  EXPECT_EQ(cal.camera.uncertainty->sigma_px.size(), 16u * 9u);
  for (double s : cal.intrinsic_std) EXPECT_GT(s, 0.0);
}

TEST(KnownCamera, ProjectedCornersWithNoiseRecoverTheLensWithinItsUncertainty) {
  // Corner noise as measured on rendered boards (0.04 px RMS per corner: 0.03 px per coordinate;
  // rendered_boards_test.cpp), 20 views reaching the image's edges and corners.
  CameraModel truth = testing::webcam_720p();
  BoardSpec board = ChessboardSpec{{9, 6}, 30.0};
  constexpr double kNoise = 0.03;
  double coverage = 0;
  const std::vector<uint64_t> seeds{7, 8};
  for (uint64_t seed : seeds) {
    auto views = testing::views_only(testing::projected_views(truth, board, 20, kNoise, seed));
    ASSERT_EQ(views.size(), 20u);
    LensCalibration cal = calibrate_lens(views, truth.image_size);
    // The corners' noise is measured from the residuals.
    EXPECT_NEAR(cal.covariance.corner_sigma_px, kNoise, 0.005);
    const double within = share_within(truth, cal, 2.0);
    std::printf("seed %llu: model %s, truth within 2 sigma at %.0f %% of the central grid (sigma median %.3f px)\n",
                static_cast<unsigned long long>(seed), lens_model_name(cal.model).c_str(), 100 * within,
                cal.uncertainty_central.median);
    coverage += within / static_cast<double>(seeds.size());
    EXPECT_LT(testing::ray_map_error(truth, cal.camera).max_aligned_px, 0.3);
  }
  // The predicted uncertainty is honest: neither too small (truth outside) nor far too large.
  EXPECT_GE(coverage, 0.8);
}

TEST(LensModelChoice, ARicherModelOnlyWhenHeldOutViewsPredictBetter) {
  // A lens with no k3 (4 coefficients' worth) is fitted with 4 or 5; a strongly rational lens
  // (a wide angle) gets the rational model or a richer one.
  CameraModel plain = testing::webcam_720p();
  plain.dist_coeffs = {-0.12, 0.03, 0.0005, -0.0003};
  auto views = testing::views_only(testing::projected_views(plain, ChessboardSpec{{9, 6}, 30.0}, 20, 0.1, 21));
  LensCalibration cal = calibrate_lens(views, plain.image_size);
  EXPECT_LE(coefficient_count(cal.model), 5) << lens_model_name(cal.model);
  ASSERT_GE(cal.models.size(), 3u);  // 4, 5 and rational at least

  CameraModel wide = testing::webcam_720p();
  wide.camera_matrix = cv::Matx33d(600.0, 0, 640, 0, 600.0, 360, 0, 0, 1);
  wide.dist_coeffs = {0.9, 0.3, 0.0005, -0.0003, 0.002, 1.3, 0.6, 0.04};
  views = testing::views_only(testing::projected_views(wide, ChessboardSpec{{9, 6}, 30.0}, 20, 0.1, 22));
  cal = calibrate_lens(views, wide.image_size);
  EXPECT_GE(coefficient_count(cal.model), 8) << lens_model_name(cal.model);
  for (const auto& m : cal.models)
    std::printf("%-20s held-out %.4f fit %.4f\n", lens_model_name(m.model).c_str(), m.held_out_rms_px, m.fit_rms_px);
}

TEST(CrossValidation, TwoHalvesAgreeWithinTheirPredictedUncertainty) {
  CameraModel truth = testing::webcam_720p();
  auto views = testing::views_only(testing::projected_views(truth, ChessboardSpec{{9, 6}, 30.0}, 30, 0.1, 31));
  LensCalibrationOptions options;
  options.model = LensModel::k3;
  SplitCrossValidation cv = cross_validate_halves(views, truth.image_size, options);
  EXPECT_EQ(cv.first.views.size() + cv.second.views.size(), 30u);
  std::printf("halves apart: median %.3f px, predicted sigma median %.3f px, within 2 sigma %.0f %%\n",
              cv.comparison.difference.median, cv.comparison.predicted.median, 100 * cv.comparison.within_2_sigma);
  EXPECT_GE(cv.comparison.within_2_sigma, 0.8);
  // A half whose corners were all shifted is caught: the halves disagree beyond their uncertainty.
  for (std::size_t i = 1; i < views.size(); i += 2)
    for (auto& p : views[i].image_points) p.x += 0.002f * (p.x - 640.0f);  // a lens 0.2 % wider in x
  SplitCrossValidation bad = cross_validate_halves(views, truth.image_size, options);
  EXPECT_LT(bad.comparison.within_2_sigma, 0.5);
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
  EXPECT_NE(cal.outliers[0].reason.find("predicted worse with it"), std::string::npos) << cal.outliers[0].reason;
}

TEST(OutlierViews, AViewWithNoisierCornersIsKeptAndSaysWhy) {
  // A soft view: its corners three times noisier than the others', but unbiased.
  CameraModel truth = testing::webcam_720p();
  auto views = testing::views_only(testing::projected_views(truth, ChessboardSpec{{9, 6}, 30.0}, 12, 0.1, 11));
  cv::RNG rng(5);
  for (auto& p : views[4].image_points)
    p += cv::Point2f(static_cast<float>(rng.gaussian(0.3)), static_cast<float>(rng.gaussian(0.3)));
  LensCalibration cal = calibrate_lens(views, truth.image_size);
  EXPECT_TRUE(cal.outliers.empty()) << cal.outliers[0].reason;
  ASSERT_EQ(cal.views.size(), 12u);
  std::printf("%s\n", cal.views[4].verdict.c_str());
  EXPECT_NE(cal.views[4].verdict.find("with it"), std::string::npos) << cal.views[4].verdict;
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
    for (const auto& q : p.view.image_points) middle = middle && std::abs(q.x - 640) < 250 && std::abs(q.y - 360) < 150;
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
