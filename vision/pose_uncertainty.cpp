#include "vision/pose_uncertainty.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <numbers>

#include <opencv2/calib3d.hpp>

namespace diskref::vision {
namespace {

// Small steps for the numerical derivatives: radians, mm, and a relative focal length.
constexpr double kRotationStep = 1e-6;
constexpr double kTranslationStep = 1e-3;
constexpr double kFocalStep = 1e-6;
constexpr int kGridPoints = 9;  // per side, over the play area and a margin

// The pose with its parameters moved by `delta` (3 rotation, 3 translation in the camera frame,
// then optionally the relative focal length).
calib::CameraPose perturbed(const calib::CameraPose& pose, const std::vector<double>& delta) {
  calib::CameraPose q = pose;
  cv::Matx33d turn;
  cv::Rodrigues(cv::Vec3d(delta[0], delta[1], delta[2]), turn);
  q.rotation = turn * pose.rotation;
  q.translation = turn * pose.translation + cv::Vec3d(delta[3], delta[4], delta[5]);
  if (delta.size() > 6) {
    q.camera.camera_matrix(0, 0) *= 1 + delta[6];
    q.camera.camera_matrix(1, 1) *= 1 + delta[6];
  }
  return q;
}

double step_of(int parameter) {
  return parameter < 3 ? kRotationStep : parameter < 6 ? kTranslationStep : kFocalStep;
}

// The table point at `height_mm` on the ray `ray_cam` (camera frame, as the unperturbed pose sees
// the point) under a perturbed pose; the focal length's change rescales the ray (no distortion).
geom::Vec2 point_on_ray(const calib::CameraPose& base, const calib::CameraPose& q, cv::Vec3d ray_cam,
                        double height_mm) {
  const double scale = base.camera.camera_matrix(0, 0) / q.camera.camera_matrix(0, 0);
  ray_cam = cv::Vec3d(ray_cam[0] / ray_cam[2] * scale, ray_cam[1] / ray_cam[2] * scale, 1.0);
  const cv::Vec3d centre = q.camera_center_table();
  const cv::Vec3d direction = q.rotation.t() * ray_cam;
  const double s = (height_mm - centre[2]) / direction[2];
  return {centre[0] + s * direction[0], centre[1] + s * direction[1]};
}

// Leave-one-out prediction error of the markers' corners on the table, per axis (see the header).
double leave_one_out_mm(const model::TableSpec& table, const std::vector<calib::MarkerObservation>& markers,
                        const std::optional<calib::CameraModel>& lens, cv::Size image_size) {
  double sum2 = 0;
  int corners = 0;
  for (std::size_t left_out = 0; left_out < markers.size(); ++left_out) {
    const calib::MarkerObservation& m = markers[left_out];
    if (!model::is_corner_marker(m.id)) continue;
    std::vector<calib::MarkerObservation> others;
    for (std::size_t i = 0; i < markers.size(); ++i)
      if (i != left_out) others.push_back(markers[i]);
    const calib::CameraPoseEstimate estimate = calib::estimate_camera_pose(table, others, lens, image_size);
    if (!estimate.pose) continue;
    const auto expected = table.corner_markers[static_cast<std::size_t>(m.id)].corners_mm();
    const auto mapped = calib::table_from_image(
        *estimate.pose, std::vector<cv::Point2d>(m.corners_px.begin(), m.corners_px.end()), 0.0);
    for (std::size_t k = 0; k < 4; ++k) {
      if (!mapped[k]) continue;
      sum2 += geom::length_squared(*mapped[k] - expected[k]);
      ++corners;
    }
  }
  return corners ? std::sqrt(sum2 / corners) / std::sqrt(2.0) : 0.0;
}

}  // namespace

double frame_corner_noise_px(const std::vector<std::vector<calib::MarkerObservation>>& frames) {
  double sum2 = 0;
  long long count = 0;
  const std::vector<calib::MarkerObservation>* previous = nullptr;
  for (const auto& frame : frames) {
    if (previous) {
      long long frame_count = 0;
      double frame_sum2 = 0;
      for (const auto& m : frame)
        for (const auto& p : *previous) {
          if (p.id != m.id) continue;
          for (std::size_t k = 0; k < 4; ++k) {
            const cv::Point2d d = m.corners_px[k] - p.corners_px[k];
            frame_sum2 += d.dot(d);
            frame_count += 2;
          }
        }
      // The same picture again: no second look at the noise.
      if (frame_count > 0 && frame_sum2 == 0) continue;
      sum2 += frame_sum2;
      count += frame_count;
    }
    previous = &frame;
  }
  return count ? std::sqrt(sum2 / static_cast<double>(count) / 2) : 0.0;
}

PoseUncertainty::PoseUncertainty(const model::TableSpec& table, const calib::CameraPose& pose,
                                 const std::vector<calib::MarkerObservation>& markers,
                                 const std::optional<calib::CameraModel>& lens, cv::Size image_size,
                                 PoseUncertaintyOptions options)
    : pose_(pose), parameters_(pose.lens_calibrated ? 6 : 7) {
  // The markers' corners the pose explains, on the table and as seen.
  std::vector<cv::Point3d> table_mm;
  std::vector<cv::Point2d> seen_px;
  std::vector<int> marker_of;
  std::array<double, 4> bias2_of{};  // per marker id: its still bias squared (pixels²)
  for (const calib::MarkerObservation& m : markers) {
    if (!model::is_corner_marker(m.id)) continue;
    const double bias = still_bias_px(m.corners_px, options.detector);
    bias2_of[static_cast<std::size_t>(m.id)] = bias * bias;
    const auto corners = table.corner_markers[static_cast<std::size_t>(m.id)].corners_mm();
    for (std::size_t k = 0; k < 4; ++k) {
      table_mm.emplace_back(corners[k].x, corners[k].y, 0.0);
      seen_px.push_back(m.corners_px[k]);
      marker_of.push_back(m.id);
    }
  }
  const int rows = 2 * static_cast<int>(table_mm.size());
  const int p = parameters_;
  covariance_.assign(static_cast<std::size_t>(p * p), 0.0);
  if (rows > p) {
    // d(corner pixels) / d(parameters), by central differences.
    cv::Mat jacobian(rows, p, CV_64F);
    for (int j = 0; j < p; ++j) {
      std::vector<double> delta(static_cast<std::size_t>(p), 0.0);
      delta[static_cast<std::size_t>(j)] = step_of(j);
      const auto plus = calib::image_from_table(perturbed(pose, delta), table_mm);
      delta[static_cast<std::size_t>(j)] = -step_of(j);
      const auto minus = calib::image_from_table(perturbed(pose, delta), table_mm);
      for (std::size_t k = 0; k < table_mm.size(); ++k) {
        jacobian.at<double>(static_cast<int>(2 * k), j) = (plus[k].x - minus[k].x) / (2 * step_of(j));
        jacobian.at<double>(static_cast<int>(2 * k + 1), j) = (plus[k].y - minus[k].y) / (2 * step_of(j));
      }
    }
    // A marker's corners err together (the detector's bias for the tag moves the whole marker,
    // and so the pose) and apart (noise, and the marker's shape: seen a little too small or
    // skewed, which moves its centre hardly at all). The bias is the detector's model for any
    // still tag, at this marker's place on the pixel grid: the markers' own residuals cannot show
    // it (the fit absorbs most of it, and what it leaves has 2 degrees of freedom per marker less
    // the pose's, too few to measure anything by). The corners' noise is what the frames' noise
    // leaves in their median, at least the floor.
    const double left2 = options.frame_corner_noise_px * options.frame_corner_noise_px * std::numbers::pi /
                         (2 * std::max(options.median_frames, 1.0));
    const double noise2 = std::max(options.min_corner_noise_px * options.min_corner_noise_px, left2);
    cv::Mat corner_covariance(rows, rows, CV_64F, cv::Scalar(0.0));
    for (int a = 0; a < rows; ++a)
      for (int b = 0; b < rows; ++b) {
        const int marker = marker_of[static_cast<std::size_t>(a / 2)];
        const bool same_marker = marker == marker_of[static_cast<std::size_t>(b / 2)];
        const bool same_axis = a % 2 == b % 2;
        corner_covariance.at<double>(a, b) =
            (a == b ? noise2 : 0.0) + (same_marker && same_axis ? bias2_of[static_cast<std::size_t>(marker)] : 0.0);
      }
    // Least squares: parameters = (J^T J)^-1 J^T corners, so their covariance is
    // (J^T J)^-1 J^T C J (J^T J)^-1.
    cv::Mat normal_inverse;
    if (cv::invert(jacobian.t() * jacobian, normal_inverse, cv::DECOMP_SVD) > 0) {
      const cv::Mat sandwich = normal_inverse * jacobian.t() * corner_covariance * jacobian * normal_inverse;
      for (int a = 0; a < p; ++a)
        for (int b = 0; b < p; ++b) covariance_[static_cast<std::size_t>(a * p + b)] = sandwich.at<double>(a, b);
    }
  }
  if (!pose.lens_calibrated && markers.size() >= 3)
    model_floor_mm_ = leave_one_out_mm(table, markers, lens, image_size);

  // The grid over the play area and a tenth of it around.
  const geom::Vec2 area = table.play_area_mm;
  grid_origin_ = {-0.1 * area.x, -0.1 * area.y};
  grid_step_ = {1.2 * area.x / (kGridPoints - 1), 1.2 * area.y / (kGridPoints - 1)};
  grid_nx_ = grid_ny_ = kGridPoints;
  grid_.resize(static_cast<std::size_t>(grid_nx_ * grid_ny_));
  for (int iy = 0; iy < grid_ny_; ++iy)
    for (int ix = 0; ix < grid_nx_; ++ix)
      grid_[static_cast<std::size_t>(iy * grid_nx_ + ix)] =
          sigma_from_covariance(grid_origin_ + geom::Vec2{ix * grid_step_.x, iy * grid_step_.y}, grid_height_mm_);
}

double PoseUncertainty::sigma_from_covariance(geom::Vec2 p, double height_mm) const {
  const cv::Vec3d ray_cam = pose_.rotation * cv::Vec3d(p.x, p.y, height_mm) + pose_.translation;
  if (!(ray_cam[2] > 0)) return 0;
  const int n = parameters_;
  // d(table point) / d(parameters) for the pixel that sees p, by central differences.
  std::vector<geom::Vec2> column(static_cast<std::size_t>(n));
  for (int j = 0; j < n; ++j) {
    std::vector<double> delta(static_cast<std::size_t>(n), 0.0);
    delta[static_cast<std::size_t>(j)] = step_of(j);
    const geom::Vec2 plus = point_on_ray(pose_, perturbed(pose_, delta), ray_cam, height_mm);
    delta[static_cast<std::size_t>(j)] = -step_of(j);
    const geom::Vec2 minus = point_on_ray(pose_, perturbed(pose_, delta), ray_cam, height_mm);
    column[static_cast<std::size_t>(j)] = (plus - minus) / (2 * step_of(j));
  }
  double cxx = 0, cyy = 0;
  for (int a = 0; a < n; ++a)
    for (int b = 0; b < n; ++b) {
      const double c = covariance_[static_cast<std::size_t>(a * n + b)];
      cxx += column[static_cast<std::size_t>(a)].x * c * column[static_cast<std::size_t>(b)].x;
      cyy += column[static_cast<std::size_t>(a)].y * c * column[static_cast<std::size_t>(b)].y;
    }
  return std::sqrt(std::max(0.0, (cxx + cyy) / 2));
}

double PoseUncertainty::sigma_mm(geom::Vec2 p, double height_mm) const {
  (void)height_mm;  // a disk's few millimetres change the pose's share by far less than it is
  // Bilinear interpolation in the grid (clamped at its edges).
  const double fx = std::clamp((p.x - grid_origin_.x) / grid_step_.x, 0.0, grid_nx_ - 1.000001);
  const double fy = std::clamp((p.y - grid_origin_.y) / grid_step_.y, 0.0, grid_ny_ - 1.000001);
  const int ix = static_cast<int>(fx), iy = static_cast<int>(fy);
  const double ax = fx - ix, ay = fy - iy;
  auto at = [&](int x, int y) { return grid_[static_cast<std::size_t>(y * grid_nx_ + x)]; };
  const double s = (1 - ay) * ((1 - ax) * at(ix, iy) + ax * at(ix + 1, iy)) +
                   ay * ((1 - ax) * at(ix, iy + 1) + ax * at(ix + 1, iy + 1));
  return std::max(s, model_floor_mm_);
}

double PoseUncertainty::lens_sigma_mm(geom::Vec2 p, double height_mm) const {
  if (!pose_.camera.uncertainty) return 0;
  // The local scale: a millimetre step along each table axis, in pixels.
  const auto px = calib::image_from_table(
      pose_, std::vector<cv::Point3d>{{p.x, p.y, height_mm}, {p.x + 1, p.y, height_mm}, {p.x, p.y + 1, height_mm}});
  const cv::Point2d ex = px[1] - px[0], ey = px[2] - px[0];
  const double px_per_mm = std::sqrt(std::fabs(ex.x * ey.y - ex.y * ey.x));  // area scale
  if (!(px_per_mm > 0) || !std::isfinite(px_per_mm)) return 0;
  return pose_.camera.uncertainty->at(px[0], pose_.camera.image_size) / px_per_mm;
}

double PoseUncertainty::lift_per_mm(geom::Vec2 p, double height_mm) const {
  const cv::Vec3d centre = pose_.camera_center_table();
  const double above = centre[2] - height_mm;
  if (!(above > 0)) return 0;
  return std::hypot(p.x - centre[0], p.y - centre[1]) / above;
}

}  // namespace diskref::vision
