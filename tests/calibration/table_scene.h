#pragma once
// Test support: a camera looking at the table from a known pose, and the corner markers it sees
// (projected with cv::projectPoints, optional Gaussian noise on the corners).

#include <cmath>
#include <cstdint>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "engine/model/table_spec.h"

namespace diskref::testing {

// camera_from_table for a camera at `centre_mm` (table frame) looking at `target_mm`, with the
// image's "up" towards the table's +y as far as possible.
inline std::pair<cv::Matx33d, cv::Vec3d> look_at(cv::Vec3d centre_mm, cv::Vec3d target_mm) {
  cv::Vec3d forward = cv::normalize(target_mm - centre_mm);   // camera z
  cv::Vec3d down_hint(0, -1, 0);                              // image y goes down, towards table -y
  cv::Vec3d right = cv::normalize(down_hint.cross(forward));  // camera x = y cross z
  cv::Vec3d down = forward.cross(right);                      // camera y = z cross x
  cv::Matx33d r(right[0], right[1], right[2], down[0], down[1], down[2], forward[0], forward[1], forward[2]);
  return {r, -(r * centre_mm)};
}

struct TableScene {
  calib::CameraModel camera;
  calib::CameraPose truth;  // camera and camera_from_table as they really are

  cv::Point2d project(cv::Point3d table_mm) const { return calib::image_from_table(truth, table_mm); }

  std::vector<calib::MarkerObservation> markers(const model::TableSpec& table, double noise_px, uint64_t seed) const {
    cv::RNG rng(seed);
    std::vector<calib::MarkerObservation> out;
    for (const auto& marker : table.corner_markers) {
      calib::MarkerObservation m;
      m.id = marker.id;
      auto corners = marker.corners_mm();
      for (std::size_t k = 0; k < 4; ++k) {
        cv::Point2d p = project({corners[k].x, corners[k].y, 0.0});
        m.corners_px[k] = {p.x + rng.gaussian(noise_px), p.y + rng.gaussian(noise_px)};
      }
      out.push_back(m);
    }
    return out;
  }
};

// A 1080p webcam on a boom, off to the side of the table and above it, looking at its middle.
inline TableScene oblique_scene(bool distorted) {
  TableScene s;
  s.camera.image_size = {1920, 1080};
  s.camera.camera_matrix = cv::Matx33d(1390, 0, 968.4, 0, 1392, 536.2, 0, 0, 1);
  if (distorted) s.camera.dist_coeffs = {-0.12, 0.05, 0.0006, -0.0003, -0.01};
  s.truth.camera = s.camera;
  s.truth.lens_calibrated = true;
  auto [r, t] = look_at({300, -420, 1250}, {457.2, 457.2, 0});
  s.truth.rotation = r;
  s.truth.translation = t;
  return s;
}

// The same camera straight above the table's middle.
inline TableScene overhead_scene(bool distorted) {
  TableScene s = oblique_scene(distorted);
  auto [r, t] = look_at({457.2, 457.2, 1500}, {457.2, 457.2, 0});
  s.truth.rotation = r;
  s.truth.translation = t;
  return s;
}

// The largest distance (mm) between grid points over the play area at `height_mm` and where the
// estimated pose maps their true image positions.
inline double max_play_area_error_mm(const TableScene& scene, const calib::CameraPose& estimate,
                                     const model::TableSpec& table, double height_mm, double step_mm = 15.24) {
  double worst = 0;
  for (double x = 0; x <= table.play_area_mm.x + 1e-9; x += step_mm)
    for (double y = 0; y <= table.play_area_mm.y + 1e-9; y += step_mm) {
      cv::Point2d pixel = scene.project({x, y, height_mm});
      auto mapped = calib::table_from_image(estimate, pixel, height_mm);
      if (!mapped) return 1e9;
      worst = std::max(worst, std::hypot(mapped->x - x, mapped->y - y));
    }
  return worst;
}

}  // namespace diskref::testing
