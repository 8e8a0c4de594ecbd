#include "vision/tag_measurement.h"

#include <algorithm>
#include <cmath>

namespace diskref::vision {

double grid_locked_share(const std::array<cv::Point2d, 4>& corners_px) {
  double share = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    const cv::Point2d edge = corners_px[(i + 1) % 4] - corners_px[i];
    // The pixel rows (or columns) the edge crosses across its length: the sub-pixel phase cycles
    // it samples.
    const double cycles = std::min(std::fabs(edge.x), std::fabs(edge.y));
    const double left = cycles > 0 ? 1.0 / (CV_PI * cycles) : 1.0;
    share += std::min(1.0, left * left) / 4;
  }
  return share;
}

double still_bias_px(const std::array<cv::Point2d, 4>& corners_px, const TagMeasurementOptions& options) {
  return std::sqrt(options.still_bias_px * options.still_bias_px +
                   options.grid_locked_bias_px * options.grid_locked_bias_px * grid_locked_share(corners_px));
}

std::optional<TagMeasurement> measure_tag(const calib::CameraPose& pose, const std::array<cv::Point2d, 4>& corners_px,
                                          double size_mm, double height_mm, const TagMeasurementOptions& options) {
  std::vector<cv::Point2d> pixels(corners_px.begin(), corners_px.end());
  auto mapped = calib::table_from_image(pose, pixels, height_mm);
  std::array<geom::Vec2, 4> corners_mm;
  for (std::size_t i = 0; i < 4; ++i) {
    if (!mapped[i] || !geom::is_valid(*mapped[i])) return std::nullopt;
    corners_mm[i] = *mapped[i];
  }

  TagMeasurement m;
  m.fit = fit_tag_square(corners_mm, size_mm);

  // Local linear map pixel -> table (least squares over the four corner pairs, about their means).
  cv::Point2d px_mean(0, 0);
  geom::Vec2 mm_mean{};
  for (std::size_t i = 0; i < 4; ++i) {
    px_mean += corners_px[i];
    mm_mean = mm_mean + corners_mm[i];
  }
  px_mean *= 0.25;
  mm_mean = mm_mean / 4.0;
  cv::Matx22d px_px = cv::Matx22d::zeros();
  cv::Matx22d mm_px = cv::Matx22d::zeros();
  for (std::size_t i = 0; i < 4; ++i) {
    cv::Vec2d dp(corners_px[i].x - px_mean.x, corners_px[i].y - px_mean.y);
    cv::Vec2d dm(corners_mm[i].x - mm_mean.x, corners_mm[i].y - mm_mean.y);
    px_px += dp * dp.t();
    mm_px += dm * dp.t();
  }
  if (std::fabs(cv::determinant(px_px)) < 1e-9) return std::nullopt;
  const cv::Matx22d jacobian = mm_px * px_px.inv();
  const double det = cv::determinant(jacobian);
  if (!std::isfinite(det) || std::fabs(det) < 1e-12) return std::nullopt;
  m.table_from_image_jacobian = jacobian;
  m.pixels_per_mm = 1.0 / std::sqrt(std::fabs(det));

  // Residuals back in pixels, pooled with the prior.
  const cv::Matx22d image_from_table = jacobian.inv();
  double residual_px2 = 0;
  for (const auto& r : m.fit.residuals_mm) {
    cv::Vec2d rp = image_from_table * cv::Vec2d(r.x, r.y);
    residual_px2 += rp.dot(rp);
  }
  double shape_px2 = 0;
  for (const auto& r : m.fit.shape_residuals_mm) {
    cv::Vec2d rp = image_from_table * cv::Vec2d(r.x, r.y);
    shape_px2 += rp.dot(rp);
  }
  m.shape_residual_px = std::sqrt(shape_px2 / 8);
  for (std::size_t i = 0; i < 4; ++i) m.side_px += cv::norm(corners_px[(i + 1) % 4] - corners_px[i]) / 4;
  const double prior2 = options.prior_corner_sigma_px * options.prior_corner_sigma_px;
  m.corner_sigma_px =
      std::sqrt((residual_px2 + options.prior_dof * prior2) / (kSquareFitResidualDof + options.prior_dof));

  // The centre is the mean of four corners: covariance J J^T sigma^2 / 4.
  const cv::Matx22d jjt = jacobian * jacobian.t();
  const double corner_sigma_mm = std::sqrt((jjt(0, 0) + jjt(1, 1)) / 2) * m.corner_sigma_px;
  m.center_sigma_mm = corner_sigma_mm / 2;
  m.center_bias_px = still_bias_px(corners_px, options);
  m.center_bias_sigma_mm = std::sqrt((jjt(0, 0) + jjt(1, 1)) / 2) * m.center_bias_px;
  // Procrustes angle from four corners at distance size/sqrt(2): var = sigma^2 / (2 * size^2).
  m.heading_sigma_deg = geom::rad_to_deg(corner_sigma_mm / (std::sqrt(2.0) * size_mm));
  return m;
}

}  // namespace diskref::vision
