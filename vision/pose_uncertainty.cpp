#include "vision/pose_uncertainty.h"

#include <algorithm>
#include <cmath>

namespace diskref::vision {

double table_pose_sigma_mm(const model::TableSpec& table, const calib::CameraPose& pose, const std::vector<calib::MarkerObservation>& markers,
                           const std::optional<calib::CameraModel>& lens, cv::Size image_size) {
  // RMS distance over both axes -> per axis.
  const double fit_sigma = pose.reprojection_rms_mm / std::sqrt(2.0);
  if (pose.lens_calibrated || markers.size() < 3) return fit_sigma;

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
    const auto mapped =
        calib::table_from_image(*estimate.pose, std::vector<cv::Point2d>(m.corners_px.begin(), m.corners_px.end()), 0.0);
    for (std::size_t k = 0; k < 4; ++k) {
      if (!mapped[k]) continue;
      sum2 += geom::length_squared(*mapped[k] - expected[k]);
      ++corners;
    }
  }
  if (corners == 0) return fit_sigma;
  return std::max(fit_sigma, std::sqrt(sum2 / corners) / std::sqrt(2.0));
}

}  // namespace diskref::vision
