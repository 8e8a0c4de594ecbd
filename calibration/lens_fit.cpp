#include "calibration/lens_fit.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

#include <fmt/format.h>
#include <opencv2/calib3d.hpp>

namespace diskref::calib {
namespace {

int model_flags(LensModel model) {
  switch (model) {
    case LensModel::k1k2p1p2:
      return cv::CALIB_FIX_K3;
    case LensModel::k3:
      return 0;
    case LensModel::rational:
      return cv::CALIB_RATIONAL_MODEL;
    case LensModel::thin_prism:
      return cv::CALIB_RATIONAL_MODEL | cv::CALIB_THIN_PRISM_MODEL;
    case LensModel::tilted:
      return cv::CALIB_RATIONAL_MODEL | cv::CALIB_THIN_PRISM_MODEL | cv::CALIB_TILTED_MODEL;
  }
  return 0;
}

// calibrateCamera once; `guess` starts it from that camera, with a tight stopping rule when
// `converge`.
LensFit run_once(const std::vector<BoardView>& views, cv::Size image_size, LensModel model, const CameraModel* guess,
                 bool converge = true) {
  std::vector<std::vector<cv::Point3f>> object_points;
  std::vector<std::vector<cv::Point2f>> image_points;
  for (const auto& v : views) {
    object_points.push_back(v.object_points);
    image_points.push_back(v.image_points);
  }
  const int count = coefficient_count(model);
  // OpenCV works with at least 5 coefficients (k3 held at 0 for the 4-coefficient model).
  const int opencv_count = std::max(count, 5);
  cv::Mat k = cv::Mat::eye(3, 3, CV_64F), dist = cv::Mat::zeros(1, opencv_count, CV_64F);
  int flags = model_flags(model);
  // OpenCV's default stopping rule; a tight one when refining.
  cv::TermCriteria criteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 30, DBL_EPSILON);
  if (guess) {
    k = cv::Mat(guess->camera_matrix).clone();
    for (int i = 0; i < std::min(opencv_count, static_cast<int>(guess->dist_coeffs.size())); ++i)
      dist.at<double>(i) = guess->dist_coeffs[static_cast<std::size_t>(i)];
    if (model == LensModel::k1k2p1p2) dist.at<double>(4) = 0;
    flags |= cv::CALIB_USE_INTRINSIC_GUESS;
    if (converge) criteria = cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 200, DBL_EPSILON);
  }
  std::vector<cv::Mat> rvecs, tvecs;
  cv::Mat std_intrinsics, std_extrinsics, per_view;
  LensFit fit;
  try {
    fit.rms_px = cv::calibrateCamera(object_points, image_points, image_size, k, dist, rvecs, tvecs, std_intrinsics,
                                     std_extrinsics, per_view, flags, criteria);
  } catch (const cv::Exception& e) {
    throw LensFitFailed("OpenCV cannot calibrate from these views: " + e.msg);
  }
  fit.camera.image_size = image_size;
  fit.camera.camera_matrix = cv::Matx33d(k);
  dist = dist.reshape(1, 1);
  fit.camera.dist_coeffs.assign(static_cast<std::size_t>(count), 0.0);
  for (int i = 0; i < count; ++i) fit.camera.dist_coeffs[static_cast<std::size_t>(i)] = dist.at<double>(i);
  fit.camera.rms_px = fit.rms_px;
  for (int i = 0; i < per_view.rows; ++i) fit.view_rms_px.push_back(per_view.at<double>(i));
  for (std::size_t i = 0; i < rvecs.size(); ++i) {
    fit.rvecs.emplace_back(rvecs[i].reshape(1, 3));
    fit.tvecs.emplace_back(tvecs[i].reshape(1, 3));
  }
  return fit;
}

bool usable(const LensFit& fit) {
  return std::isfinite(fit.rms_px) && camera_model_problem(fit.camera).empty();
}

}  // namespace

std::string lens_model_name(LensModel model) {
  switch (model) {
    case LensModel::k1k2p1p2:
      return "k1 k2 p1 p2 (4)";
    case LensModel::k3:
      return "+ k3 (5)";
    case LensModel::rational:
      return "rational (8)";
    case LensModel::thin_prism:
      return "thin prism (12)";
    case LensModel::tilted:
      return "tilted sensor (14)";
  }
  return "?";
}

int coefficient_count(LensModel model) {
  return static_cast<int>(model);
}

LensFit fit_lens(const std::vector<BoardView>& views, cv::Size image_size, LensModel model, const CameraModel* start) {
  LensFit first = run_once(views, image_size, model, start);
  LensFit refined;
  try {
    refined = run_once(views, image_size, model, &first.camera);
  } catch (const LensFitFailed&) {
    return first;
  }
  if (!usable(first)) return refined;
  return usable(refined) && refined.rms_px < first.rms_px ? refined : first;
}

LensFit fit_lens_from(const std::vector<BoardView>& views, cv::Size image_size, LensModel model,
                      const CameraModel& start) {
  return run_once(views, image_size, model, &start, false);
}

double HeldOutError::rms_px() const {
  return corners ? std::sqrt(sum_sq_px / static_cast<double>(corners)) : 0.0;
}

HeldOutError& HeldOutError::operator+=(const HeldOutError& other) {
  sum_sq_px += other.sum_sq_px;
  corners += other.corners;
  view_sum_sq_px.insert(view_sum_sq_px.end(), other.view_sum_sq_px.begin(), other.view_sum_sq_px.end());
  return *this;
}

HeldOutError held_out_error(const CameraModel& camera, const std::vector<BoardView>& views) {
  HeldOutError out;
  cv::Mat k(camera.camera_matrix), dist = camera.dist_mat();
  for (const auto& v : views) {
    cv::Mat rvec, tvec;
    cv::solvePnP(v.object_points, v.image_points, k, dist, rvec, tvec, false, cv::SOLVEPNP_IPPE);
    cv::solvePnPRefineLM(v.object_points, v.image_points, k, dist, rvec, tvec);
    std::vector<cv::Point2f> projected;
    cv::projectPoints(v.object_points, rvec, tvec, k, dist, projected);
    const double before = out.sum_sq_px;
    for (std::size_t i = 0; i < projected.size(); ++i) {
      const cv::Point2f d = projected[i] - v.image_points[i];
      // A lens that folds over where it was never measured can throw a corner anywhere: count it
      // as far off, not as NaN.
      const double sq = static_cast<double>(d.dot(d));
      out.sum_sq_px += std::isfinite(sq) ? std::min(sq, 1e6) : 1e6;
    }
    out.corners += projected.size();
    out.view_sum_sq_px.push_back(out.sum_sq_px - before);
  }
  return out;
}

std::vector<int> fold_of_views(std::size_t n, int folds) {
  const int k = std::max(1, std::min(static_cast<int>(n), folds));
  std::vector<int> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = static_cast<int>(i) % k;
  return out;
}

HeldOutError cross_validated_error(const std::vector<BoardView>& views, cv::Size image_size, LensModel model, int folds,
                                   const CameraModel* start) {
  const std::vector<int> fold = fold_of_views(views.size(), folds);
  const int k = fold.empty() ? 0 : *std::max_element(fold.begin(), fold.end()) + 1;
  HeldOutError total;
  for (int f = 0; f < k; ++f) {
    std::vector<BoardView> train, test;
    for (std::size_t i = 0; i < views.size(); ++i) (fold[i] == f ? test : train).push_back(views[i]);
    try {
      total += held_out_error(
          (start ? fit_lens_from(train, image_size, model, *start) : fit_lens(train, image_size, model)).camera, test);
    } catch (const LensFitFailed&) {
      // Too few views left for this model: it cannot predict this fold at all.
      for (const auto& v : test) {
        const double sq = 1e6 * static_cast<double>(v.image_points.size());
        total += HeldOutError{sq, v.image_points.size(), {sq}};
      }
    }
  }
  return total;
}

}  // namespace diskref::calib
