// Lens calibration on boards rendered through a known camera (simulator/board_views.h): detection,
// view selection and calibration end to end, against the true lens. Chessboard and ChArUco.
#include <cstdio>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "calibration/lens_calibration.h"
#include "calibration/projection_uncertainty.h"
#include "calibration/view_quality.h"
#include "calibration/view_selection.h"
#include "lens_compare.h"
#include "projected_views.h"
#include "simulator/board_views.h"

namespace diskref::calib {
namespace {

// A 720p webcam with noticeable barrel distortion and its principal point off centre.
CameraModel true_camera() {
  CameraModel c;
  c.image_size = {1280, 720};
  c.camera_matrix = cv::Matx33d(1010.0, 0, 652.3, 0, 1006.0, 355.8, 0, 0, 1);
  c.dist_coeffs = {-0.21, 0.08, 0.0007, -0.0004, -0.015};
  return c;
}

// What a real webcam adds: sensor noise, a little defocus, vignetting, uneven light.
simulator::ImageEffects realistic_effects() {
  simulator::ImageEffects e;
  e.noise_sigma = 2.0;
  e.blur_sigma_px = 0.6;
  e.vignetting = 0.25;
  e.light_gradient = 0.3;
  e.supersample = 4;
  return e;
}

print::BoardSpec render_spec(const BoardSpec& board) {
  print::BoardSpec spec;
  if (const auto* chess = std::get_if<ChessboardSpec>(&board)) {
    spec.type = print::BoardSpec::Type::chessboard;
    spec.cols = chess->inner_corners.width;
    spec.rows = chess->inner_corners.height;
    spec.square_mm = chess->square_mm;
  } else {
    const auto& charuco = std::get<CharucoSpec>(board);
    EXPECT_EQ(charuco.dictionary, "DICT_5X5_100");
    spec.type = print::BoardSpec::Type::charuco;
    spec.cols = charuco.squares.width;
    spec.rows = charuco.squares.height;
    spec.square_mm = charuco.square_mm;
    spec.marker_mm = charuco.marker_mm;
    spec.aruco_dictionary = cv::aruco::DICT_5X5_100;
  }
  return spec;
}

// Poses that show the whole card and reach the image's edges and corners (spread_board_poses),
// as someone calibrating carefully holds the board.
std::vector<std::pair<cv::Matx33d, cv::Vec3d>> card_poses(const CameraModel& camera, const print::BoardSpec& spec,
                                                          int count, uint64_t seed) {
  print::BoardPattern pattern(spec);
  cv::Rect2d card = pattern.card_mm();
  std::vector<cv::Point3f> outline;
  for (double fx : {0.0, 0.5, 1.0})
    for (double fy : {0.0, 0.5, 1.0})
      outline.emplace_back(static_cast<float>(card.x + fx * card.width), static_cast<float>(card.y + fy * card.height),
                           0.0f);
  std::vector<std::pair<cv::Matx33d, cv::Vec3d>> out;
  for (const auto& pose : testing::spread_board_poses(camera, outline, 3 * count, seed, 0.35, 0.6, 10)) {
    cv::Matx33d r;
    cv::Rodrigues(pose.rvec, r);
    if (!simulator::board_fully_visible(camera, r, pose.tvec, pattern, 8.0)) continue;
    out.emplace_back(r, pose.tvec);
    if (static_cast<int>(out.size()) == count) break;
  }
  return out;
}

struct Rendered {
  std::vector<ViewCandidate> candidates;
  double corner_rms_px = 0;  // detected corners against the truth
  int views_without_board = 0;
};

Rendered render_and_detect(const CameraModel& camera, const BoardSpec& board, int count, uint64_t seed,
                           const simulator::ImageEffects& effects) {
  print::BoardSpec spec = render_spec(board);
  Rendered out;
  double sum = 0;
  std::size_t n = 0;
  auto poses = card_poses(camera, spec, count, seed);
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const auto& [r, t] = poses[i];
    cv::Mat gray;
    cv::cvtColor(simulator::render_board_view(camera, r, t, spec, effects, seed + i), gray, cv::COLOR_BGR2GRAY);
    auto candidate = examine_view(gray, cv::Mat(), board, "view " + std::to_string(i));
    if (!candidate) {
      ++out.views_without_board;
      continue;
    }
    auto truth = simulator::board_corner_truth(camera, r, t, spec);
    // A chessboard seen upside down is reported in reverse order (the same board, turned).
    const auto& ids = candidate->view.corner_ids;
    const auto& found = candidate->view.image_points;
    auto error_with = [&](bool reversed) {
      double e = 0;
      for (std::size_t k = 0; k < ids.size(); ++k) {
        std::size_t id = static_cast<std::size_t>(ids[k]);
        cv::Point2d expected = truth[reversed ? truth.size() - 1 - id : id];
        e += std::pow(cv::norm(cv::Point2d(found[k]) - expected), 2);
      }
      return e;
    };
    bool can_reverse = std::holds_alternative<ChessboardSpec>(board);
    sum += can_reverse ? std::min(error_with(false), error_with(true)) : error_with(false);
    n += ids.size();
    out.candidates.push_back(std::move(*candidate));
  }
  out.corner_rms_px = std::sqrt(sum / static_cast<double>(std::max<std::size_t>(n, 1)));
  return out;
}

void expect_recovers_the_lens(const BoardSpec& board, uint64_t seed) {
  CameraModel truth = true_camera();
  Rendered rendered = render_and_detect(truth, board, 25, seed, realistic_effects());
  EXPECT_EQ(rendered.views_without_board, 0);
  ViewSelection selection = select_views(rendered.candidates, truth.image_size);
  for (const auto& d : selection.dropped) std::printf("  dropped %s: %s\n", d.name.c_str(), d.reason.c_str());
  LensCalibration cal = calibrate_lens(selection.kept, truth.image_size);
  auto error = testing::ray_map_error(truth, cal.camera);
  std::printf(
      "%s: %zu views, corner error %.3f px RMS; calibration rms %.3f px; fx %+.2f fy %+.2f cx %+.2f cy %+.2f px; "
      "ray map error %.3f px (%.3f px after aligning the camera frames)\n",
      describe_board(board).c_str(), cal.views.size(), rendered.corner_rms_px, cal.rms_px, cal.camera.fx() - truth.fx(),
      cal.camera.fy() - truth.fy(), cal.camera.cx() - truth.cx(), cal.camera.cy() - truth.cy(), error.max_px,
      error.max_aligned_px);
  EXPECT_NEAR(cal.camera.fx(), truth.fx(), 0.005 * truth.fx());
  EXPECT_NEAR(cal.camera.fy(), truth.fy(), 0.005 * truth.fy());
  EXPECT_NEAR(cal.camera.cx(), truth.cx(), 2.0);
  EXPECT_NEAR(cal.camera.cy(), truth.cy(), 2.0);
  // Where the boards went (the central 80 % of the image) the lens is right to 0.3 px; beyond, in
  // the image's corners, the model chosen by held-out views may extrapolate off (k3 is kept only
  // when the views show it), and the predicted uncertainty must say so (below).
  EXPECT_LT(testing::ray_map_error_at(truth, cal.camera, central_grid(truth.image_size, 24, 14, 0.8)).max_aligned_px,
            0.3);
  const auto whole = grid_nodes(truth.image_size, 24, 14);
  const auto whole_apart = lens_difference_px(cal.camera, truth, whole);
  const auto whole_sigma = projection_sigma_px(cal.camera, cal.covariance, whole);
  std::size_t covered = 0;
  for (std::size_t i = 0; i < whole.size(); ++i) covered += whole_apart[i] <= 3 * whole_sigma[i];
  std::printf("  model %s; whole image: truth within 3 predicted sigma at %zu of %zu points\n",
              lens_model_name(cal.model).c_str(), covered, whole.size());
  // 85 %: the uncertainty of a parametric model leaves out the model's own error where it
  // extrapolates (a k3 the views could not show: 88 % on the chessboard, 93 % on the ChArUco set
  // when measured; docs/design/calibration.md).
  EXPECT_GE(covered, whole.size() * 85 / 100);
  // The lens is right within its predicted uncertainty over the central 80 % of the image.
  const auto grid = central_grid(truth.image_size, 24, 14, 0.8);
  const auto apart = lens_difference_px(cal.camera, truth, grid);
  const auto sigma = projection_sigma_px(cal.camera, cal.covariance, grid);
  int within = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) within += apart[i] <= 3 * sigma[i];
  std::printf("  truth within 3 predicted sigma at %d of %zu points (sigma median %.3f px)\n", within, grid.size(),
              cal.uncertainty_central.median);
  EXPECT_GE(within, static_cast<int>(0.8 * static_cast<double>(grid.size())));
}

TEST(RenderedBoards, ChessboardRecoversTheLens) {
  expect_recovers_the_lens(ChessboardSpec{{9, 6}, 30.0}, 100);
}

TEST(RenderedBoards, CharucoRecoversTheLens) {
  expect_recovers_the_lens(CharucoSpec{{11, 8}, 24.0, 16.0, "DICT_5X5_100"}, 200);
}

TEST(RenderedBoards, BlurredViewsAreKeptAndTheLensStaysRight) {
  // Two views out of focus (Gaussian sigma 3 px) among sharp ones: their corners are still good
  // (the sub-pixel search needs no sharp edge), so they are kept, and the lens is still found.
  CameraModel truth = true_camera();
  BoardSpec board = ChessboardSpec{{9, 6}, 30.0};
  print::BoardSpec spec = render_spec(board);
  auto poses = card_poses(truth, spec, 10, 300);
  std::vector<ViewCandidate> candidates;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    simulator::ImageEffects effects = realistic_effects();
    if (i == 2 || i == 5) effects.blur_sigma_px = 3.0;
    cv::Mat gray;
    cv::cvtColor(simulator::render_board_view(truth, poses[i].first, poses[i].second, spec, effects, i), gray,
                 cv::COLOR_BGR2GRAY);
    auto candidate = examine_view(gray, cv::Mat(), board, "view " + std::to_string(i));
    ASSERT_TRUE(candidate) << i;
    ASSERT_TRUE(candidate->edge_width_px);
    std::printf("view %zu: edges %.2f px\n", i, *candidate->edge_width_px);
    if (i == 2 || i == 5) {
      EXPECT_GT(*candidate->edge_width_px, 5.0);  // measured as blurred
    }
    candidates.push_back(std::move(*candidate));
  }
  ViewSelection selection = select_views(candidates, truth.image_size);
  EXPECT_TRUE(selection.dropped.empty());
  LensCalibration cal = calibrate_lens(selection.kept, truth.image_size);
  EXPECT_EQ(cal.views.size(), poses.size());
  EXPECT_TRUE(cal.outliers.empty());
  EXPECT_LT(testing::ray_map_error_at(truth, cal.camera, central_grid(truth.image_size, 24, 14, 0.8)).max_aligned_px,
            0.5);
}

}  // namespace
}  // namespace diskref::calib
