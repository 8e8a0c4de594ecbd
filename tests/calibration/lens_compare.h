#pragma once
// Test support: how far apart two lens models put the rays of the same pixels, in pixels.

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/projection_uncertainty.h"

namespace diskref::testing {

using calib::unit_rays;

// Pixel centres on a grid over the whole image, its border included.
inline std::vector<cv::Point2d> image_grid(cv::Size size, int steps) {
  std::vector<cv::Point2d> out;
  for (int i = 0; i <= steps; ++i)
    for (int j = 0; j <= steps; ++j)
      out.emplace_back((size.width - 1) * static_cast<double>(j) / steps,
                       (size.height - 1) * static_cast<double>(i) / steps);
  return out;
}

struct RayMapError {
  double max_px = 0;          // largest angle between the models' rays of a pixel, in true pixels
  double max_aligned_px = 0;  // the same after the best rotation of one camera frame onto the other
};

// How differently `estimate` and `truth` map `pixels` to rays (see ray_map_error).
inline RayMapError ray_map_error_at(const calib::CameraModel& truth, const calib::CameraModel& estimate,
                                    const std::vector<cv::Point2d>& pixels);

// How differently `estimate` and `truth` map the pixels of a grid over the whole image to rays,
// expressed in pixels of the true camera (angle x its focal length). A rotation of the camera frame
// is absorbed by any pose estimated later (a table pose), so `max_aligned_px` is what measuring
// the table sees.
inline RayMapError ray_map_error(const calib::CameraModel& truth, const calib::CameraModel& estimate, int steps = 40) {
  return ray_map_error_at(truth, estimate, image_grid(truth.image_size, steps));
}

inline RayMapError ray_map_error_at(const calib::CameraModel& truth, const calib::CameraModel& estimate,
                                    const std::vector<cv::Point2d>& pixels) {
  auto a = unit_rays(truth, pixels);
  auto b = unit_rays(estimate, pixels);
  const cv::Matx33d rotation = calib::best_rotation(b, a);
  double f = truth.fx();
  RayMapError out;
  for (std::size_t i = 0; i < a.size(); ++i) {
    auto angle = [](cv::Vec3d p, cv::Vec3d q) { return std::atan2(cv::norm(p.cross(q)), p.dot(q)); };
    out.max_px = std::max(out.max_px, f * angle(a[i], b[i]));
    out.max_aligned_px = std::max(out.max_aligned_px, f * angle(a[i], rotation * b[i]));
  }
  return out;
}

}  // namespace diskref::testing
