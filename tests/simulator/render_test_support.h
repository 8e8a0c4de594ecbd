#pragma once
// Cameras and helpers shared by the render tests.

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"

namespace diskref::simulator::testing {

// A 1280x720 camera with a ~64 degree horizontal field of view; `distorted` adds a strong
// barrel lens with tangential terms.
inline calib::CameraModel test_camera(bool distorted, cv::Size size = {1280, 720}) {
  calib::CameraModel camera;
  camera.image_size = size;
  double f = 1000.0 * size.width / 1280.0;
  camera.camera_matrix = cv::Matx33d(f, 0, (size.width - 1) / 2.0 + 3.2, 0, f, (size.height - 1) / 2.0 - 2.7, 0, 0, 1);
  if (distorted) camera.dist_coeffs = {-0.28, 0.09, 0.0012, -0.0008, -0.012};
  return camera;
}

}  // namespace diskref::simulator::testing
