#include "calibration/lens_calibration.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <opencv2/calib3d.hpp>

#include "calibration/view_quality.h"

namespace diskref::calib {
namespace {

struct Fit {
  double rms_px = 0;
  cv::Matx33d camera_matrix;
  cv::Mat dist;
  std::vector<double> view_rms;
  cv::Mat std_intrinsics;
};

// calibrateCamera's extended form on the views. With `start`, the fit starts from that model
// (CALIB_USE_INTRINSIC_GUESS) and runs to a tight convergence.
Fit run_calibrate_camera(const std::vector<BoardView>& views, cv::Size image_size, const Fit* start) {
  std::vector<std::vector<cv::Point3f>> object_points;
  std::vector<std::vector<cv::Point2f>> image_points;
  for (const auto& v : views) {
    object_points.push_back(v.object_points);
    image_points.push_back(v.image_points);
  }
  Fit fit;
  cv::Mat k = cv::Mat::eye(3, 3, CV_64F), dist = cv::Mat::zeros(1, 5, CV_64F);
  int flags = 0;
  cv::TermCriteria criteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 30, DBL_EPSILON);  // OpenCV's default
  if (start) {
    k = cv::Mat(start->camera_matrix).clone();
    dist = start->dist.clone();
    flags |= cv::CALIB_USE_INTRINSIC_GUESS;
    criteria = cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 500, DBL_EPSILON);
  }
  std::vector<cv::Mat> rvecs, tvecs;
  cv::Mat std_extrinsics, per_view;
  fit.rms_px = cv::calibrateCamera(object_points, image_points, image_size, k, dist, rvecs, tvecs, fit.std_intrinsics,
                                   std_extrinsics, per_view, flags, criteria);
  fit.camera_matrix = cv::Matx33d(k);
  fit.dist = dist.reshape(1, 1).colRange(0, 5).clone();
  for (int i = 0; i < per_view.rows; ++i) fit.view_rms.push_back(per_view.at<double>(i));
  return fit;
}

// The better of OpenCV's default run and a converged refinement of it.
Fit best_fit(const std::vector<BoardView>& views, cv::Size image_size) {
  try {
    Fit fit = run_calibrate_camera(views, image_size, nullptr);
    Fit refined = run_calibrate_camera(views, image_size, &fit);
    return refined.rms_px < fit.rms_px ? refined : fit;
  } catch (const cv::Exception& e) {
    // Degenerate views (all boards parallel, too few corners): OpenCV's assertion says why.
    throw CalibrationRefused("OpenCV cannot calibrate from these views: " + e.msg);
  }
}

double median(std::vector<double> values) {
  auto mid = values.begin() + static_cast<std::ptrdiff_t>(values.size() / 2);
  std::nth_element(values.begin(), mid, values.end());
  return *mid;
}


void refuse_unless_covered(const std::vector<BoardView>& views, cv::Size image_size,
                           const LensCalibrationOptions& options, LensCalibration& out) {
  out.area_coverage = image_coverage(views, image_size);
  out.cell_coverage = corner_cell_coverage(views, image_size, 4);
  if (out.area_coverage >= options.min_area_coverage && out.cell_coverage >= options.min_cell_coverage) return;
  throw CalibrationRefused(fmt::format(
      "the views do not cover the image: the boards cover {:.0f} % of its area (need {:.0f} %) and their corners "
      "reach {:.0f} % of the cells of a 4x4 grid over it (need {:.0f} %); show the board near the image's edges and "
      "corners too",
      100 * out.area_coverage, 100 * options.min_area_coverage, 100 * out.cell_coverage,
      100 * options.min_cell_coverage));
}

}  // namespace

LensCalibration calibrate_lens(const std::vector<BoardView>& views_in, cv::Size image_size,
                               const LensCalibrationOptions& options) {
  std::vector<BoardView> views = views_in;
  if (static_cast<int>(views.size()) < options.min_views)
    throw CalibrationRefused("only " + std::to_string(views.size()) + " usable view(s) of the board; at least " +
                             std::to_string(options.min_views) + " are needed");
  LensCalibration out;
  refuse_unless_covered(views, image_size, options, out);

  Fit fit = best_fit(views, image_size);
  // Outlier views: drop them all at once, refit, and keep the refit only if it is better.
  for (int round = 0; round < 3; ++round) {
    double typical = median(fit.view_rms);
    double limit = std::max(options.outlier_factor * typical, typical + options.outlier_margin_px);
    std::vector<BoardView> inliers;
    std::vector<DroppedView> dropped;
    for (std::size_t i = 0; i < views.size(); ++i) {
      if (fit.view_rms[i] > limit)
        dropped.push_back({views[i].name, "outlier",
                           fmt::format("outlier: view error {:.3f} px (limit {:.3f} px; median view {:.3f} px)",
                                       fit.view_rms[i], limit, typical)});
      else
        inliers.push_back(views[i]);
    }
    if (dropped.empty() || static_cast<int>(inliers.size()) < options.min_views) break;
    Fit refit = best_fit(inliers, image_size);
    if (!(refit.rms_px < fit.rms_px)) break;
    views = std::move(inliers);
    fit = std::move(refit);
    out.outliers.insert(out.outliers.end(), dropped.begin(), dropped.end());
  }
  refuse_unless_covered(views, image_size, options, out);

  out.rms_px = fit.rms_px;
  out.camera.image_size = image_size;
  out.camera.camera_matrix = fit.camera_matrix;
  for (int i = 0; i < 5; ++i) out.camera.dist_coeffs[static_cast<std::size_t>(i)] = fit.dist.at<double>(i);
  out.camera.rms_px = fit.rms_px;
  for (std::size_t i = 0; i < views.size(); ++i)
    out.views.push_back({views[i].name, static_cast<int>(views[i].image_points.size()), fit.view_rms[i]});
  for (int i = 0; i < 9; ++i) out.intrinsic_std[static_cast<std::size_t>(i)] = fit.std_intrinsics.at<double>(i);
  return out;
}

double reprojection_rms_px(const CameraModel& camera, const std::vector<BoardView>& views) {
  double sum = 0;
  std::size_t count = 0;
  cv::Mat k(camera.camera_matrix), dist = camera.dist_mat();
  for (const auto& v : views) {
    cv::Mat rvec, tvec;
    cv::solvePnP(v.object_points, v.image_points, k, dist, rvec, tvec, false, cv::SOLVEPNP_IPPE);
    cv::solvePnPRefineLM(v.object_points, v.image_points, k, dist, rvec, tvec);
    std::vector<cv::Point2f> projected;
    cv::projectPoints(v.object_points, rvec, tvec, k, dist, projected);
    for (std::size_t i = 0; i < projected.size(); ++i) {
      cv::Point2f d = projected[i] - v.image_points[i];
      sum += static_cast<double>(d.dot(d));
    }
    count += projected.size();
  }
  return count ? std::sqrt(sum / static_cast<double>(count)) : 0.0;
}

}  // namespace diskref::calib
