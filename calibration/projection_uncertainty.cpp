#include "calibration/projection_uncertainty.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <opencv2/calib3d.hpp>

namespace diskref::calib {
namespace {

// projectPoints' Jacobian columns: rvec (3), tvec (3), fx fy, cx cy, then the distortion.
constexpr int kRotationColumns = 0;
constexpr int kIntrinsicColumns = 6;

int intrinsic_count(const CameraModel& camera) {
  return 4 + static_cast<int>(camera.dist_coeffs.size());
}

// Normalized undistorted rays (x/z, y/z) of raw pixels.
std::vector<cv::Point2d> rays_of(const CameraModel& camera, const std::vector<cv::Point2d>& pixels) {
  std::vector<cv::Point2d> normalized;
  if (pixels.empty()) return normalized;
  cv::undistortPoints(pixels, normalized, cv::Mat(camera.camera_matrix), camera.dist_mat(), cv::noArray(),
                      cv::noArray(), cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 100, 1e-12));
  return normalized;
}

// Jacobian (2 rows per point) of projecting the rays of `pixels` w.r.t. a rotation of the camera
// frame and w.r.t. the intrinsics.
struct ProjectionJacobian {
  cv::Mat rotation;    // 2n x 3
  cv::Mat intrinsics;  // 2n x (4 + coefficients)
};

ProjectionJacobian projection_jacobian(const CameraModel& camera, const std::vector<cv::Point2d>& pixels) {
  std::vector<cv::Point3d> points;
  for (const auto& r : rays_of(camera, pixels)) points.emplace_back(r.x, r.y, 1.0);
  std::vector<cv::Point2d> projected;
  cv::Mat jacobian;
  cv::projectPoints(points, cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), cv::Mat(camera.camera_matrix), camera.dist_mat(),
                    projected, jacobian);
  return {jacobian.colRange(kRotationColumns, kRotationColumns + 3).clone(),
          jacobian.colRange(kIntrinsicColumns, kIntrinsicColumns + intrinsic_count(camera)).clone()};
}

}  // namespace

LensCovariance lens_covariance(const LensFit& fit, const std::vector<BoardView>& views) {
  const CameraModel& camera = fit.camera;
  const int n = intrinsic_count(camera);
  cv::Mat schur = cv::Mat::zeros(n, n, CV_64F);
  double sum_sq = 0;
  std::size_t corners = 0;
  for (std::size_t v = 0; v < views.size() && v < fit.rvecs.size(); ++v) {
    std::vector<cv::Point2f> projected;  // float, as the board's points
    cv::Mat jacobian;
    cv::projectPoints(views[v].object_points, fit.rvecs[v], fit.tvecs[v], cv::Mat(camera.camera_matrix),
                      camera.dist_mat(), projected, jacobian);
    for (std::size_t i = 0; i < projected.size(); ++i) {
      const cv::Point2d d = cv::Point2d(projected[i]) - cv::Point2d(views[v].image_points[i]);
      sum_sq += d.dot(d);
    }
    corners += projected.size();
    const cv::Mat pose = jacobian.colRange(0, 6),
                  intrinsics = jacobian.colRange(kIntrinsicColumns, kIntrinsicColumns + n);
    // The view's pose, marginalised out: A - B C^-1 B^T.
    const cv::Mat b = intrinsics.t() * pose;
    cv::Mat c_inverse;
    cv::invert(pose.t() * pose, c_inverse, cv::DECOMP_SVD);
    schur += intrinsics.t() * intrinsics - b * c_inverse * b.t();
  }
  LensCovariance out;
  out.degrees_of_freedom = static_cast<int>(2 * corners) - n - 6 * static_cast<int>(views.size());
  if (out.degrees_of_freedom <= 0) {
    out.intrinsics = cv::Mat::zeros(n, n, CV_64F);
    return out;
  }
  const double variance = sum_sq / out.degrees_of_freedom;
  out.corner_sigma_px = std::sqrt(variance);
  cv::invert(schur, out.intrinsics, cv::DECOMP_SVD);
  out.intrinsics *= variance;
  return out;
}

std::vector<double> projection_sigma_px(const CameraModel& camera, const LensCovariance& covariance,
                                        const std::vector<cv::Point2d>& pixels) {
  // The rotation that best absorbs a change of the intrinsics over the central 80 %: a linear map
  // from the intrinsics' change to the rotation's (least squares).
  const ProjectionJacobian central = projection_jacobian(camera, central_grid(camera.image_size, 16, 9, 0.8));
  cv::Mat rotation_solve;
  cv::invert(central.rotation.t() * central.rotation, rotation_solve, cv::DECOMP_SVD);
  const cv::Mat absorbed = rotation_solve * central.rotation.t() * central.intrinsics;  // 3 x n

  const ProjectionJacobian at = projection_jacobian(camera, pixels);
  const cv::Mat aligned = at.intrinsics - at.rotation * absorbed;  // 2m x n
  std::vector<double> out;
  out.reserve(pixels.size());
  for (int i = 0; i < static_cast<int>(pixels.size()); ++i) {
    const cv::Mat j = aligned.rowRange(2 * i, 2 * i + 2);
    const cv::Mat cov = j * covariance.intrinsics * j.t();
    const double a = cov.at<double>(0, 0), b = cov.at<double>(0, 1), d = cov.at<double>(1, 1);
    const double worst = 0.5 * (a + d) + std::sqrt(0.25 * (a - d) * (a - d) + b * b);
    out.push_back(std::isfinite(worst) ? std::sqrt(std::max(0.0, worst)) : std::numeric_limits<double>::infinity());
  }
  return out;
}

std::vector<cv::Point2d> grid_nodes(cv::Size image_size, int cols, int rows) {
  std::vector<cv::Point2d> out;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out.emplace_back((image_size.width - 1) * static_cast<double>(c) / (cols - 1),
                       (image_size.height - 1) * static_cast<double>(r) / (rows - 1));
  return out;
}

std::vector<cv::Point2d> central_grid(cv::Size image_size, int cols, int rows, double fraction) {
  std::vector<cv::Point2d> out;
  const double margin = (1 - fraction) / 2;
  for (int r = 0; r < rows; ++r)
    for (int c = 0; c < cols; ++c)
      out.emplace_back((image_size.width - 1) * (margin + fraction * c / (cols - 1)),
                       (image_size.height - 1) * (margin + fraction * r / (rows - 1)));
  return out;
}

UncertaintyGrid uncertainty_grid(const CameraModel& camera, const LensCovariance& covariance, int cols, int rows) {
  UncertaintyGrid grid;
  grid.cols = cols;
  grid.rows = rows;
  grid.sigma_px = projection_sigma_px(camera, covariance, grid_nodes(camera.image_size, cols, rows));
  // A camera file holds finite figures; beyond 1000 px nothing is known anyway.
  for (double& v : grid.sigma_px) v = std::isfinite(v) ? std::min(v, 1000.0) : 1000.0;
  return grid;
}

std::vector<double> lens_difference_px(const CameraModel& a, const CameraModel& b,
                                       const std::vector<cv::Point2d>& pixels) {
  const std::vector<cv::Point2d> central = central_grid(b.image_size, 16, 9, 0.8);
  const cv::Matx33d rotation = best_rotation(unit_rays(a, central), unit_rays(b, central));
  std::vector<cv::Point3d> points;
  for (const auto& ray : unit_rays(a, pixels)) {
    const cv::Vec3d p = rotation * ray;
    points.emplace_back(p[0], p[1], p[2]);
  }
  std::vector<cv::Point2d> projected;
  cv::projectPoints(points, cv::Vec3d(0, 0, 0), cv::Vec3d(0, 0, 0), cv::Mat(b.camera_matrix), b.dist_mat(), projected);
  std::vector<double> out;
  for (std::size_t i = 0; i < pixels.size(); ++i) {
    const double d = cv::norm(projected[i] - pixels[i]);
    out.push_back(points[i].z > 0 && std::isfinite(d) ? d : std::numeric_limits<double>::infinity());
  }
  return out;
}

// Kabsch: the rotation taking the unit vectors `from` onto `to` best.
cv::Matx33d best_rotation(const std::vector<cv::Vec3d>& from, const std::vector<cv::Vec3d>& to) {
  cv::Matx33d h = cv::Matx33d::zeros();
  for (std::size_t i = 0; i < from.size(); ++i) h += from[i] * to[i].t();
  cv::Mat w, u, vt;
  cv::SVD::compute(cv::Mat(h), w, u, vt);
  const cv::Matx33d v(cv::Mat(vt.t())), ut(cv::Mat(u.t()));
  const double d = cv::determinant(v * ut) < 0 ? -1.0 : 1.0;
  return v * cv::Matx33d(1, 0, 0, 0, 1, 0, 0, 0, d) * ut;
}

std::vector<cv::Vec3d> unit_rays(const CameraModel& camera, const std::vector<cv::Point2d>& pixels) {
  std::vector<cv::Vec3d> out;
  for (const auto& r : rays_of(camera, pixels)) out.push_back(cv::normalize(cv::Vec3d(r.x, r.y, 1.0)));
  return out;
}

Spread spread_of(std::vector<double> values) {
  Spread s;
  if (values.empty()) return s;
  std::sort(values.begin(), values.end());
  auto at = [&](double q) {
    return values[static_cast<std::size_t>(q * static_cast<double>(values.size() - 1) + 0.5)];
  };
  s.median = at(0.5);
  s.p90 = at(0.9);
  s.max = values.back();
  return s;
}

}  // namespace diskref::calib
