#pragma once
// A camera's lens model (spec §7): pinhole intrinsics and OpenCV's five distortion coefficients
// k1 k2 p1 p2 k3, in OpenCV's pixel convention (pixel centres at integer coordinates).

#include <array>
#include <filesystem>
#include <optional>

#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>

#include "engine/io/json_cursor.h"

namespace diskref::calib {

struct CameraModel {
  cv::Size image_size;
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  std::array<double, 5> dist_coeffs{};  // k1 k2 p1 p2 k3
  std::optional<double> rms_px;         // reprojection error of the calibration, when known

  cv::Mat dist_mat() const { return cv::Mat(1, 5, CV_64F, const_cast<double*>(dist_coeffs.data())).clone(); }
  double fx() const { return camera_matrix(0, 0); }
  double fy() const { return camera_matrix(1, 1); }
  double cx() const { return camera_matrix(0, 2); }
  double cy() const { return camera_matrix(1, 2); }
};

// Throws InputError (file, JSON path, problem): sizes > 0, focal lengths > 0, finite numbers,
// exactly five coefficients.
CameraModel parse_camera_model(const io::JsonCursor& root);
CameraModel load_camera_model(const std::filesystem::path& file);
nlohmann::json camera_model_to_json(const CameraModel& camera);
// Writes atomically (temporary file, then rename) so that a crash never leaves half a file.
void save_camera_model(const CameraModel& camera, const std::filesystem::path& file);

// The same model for an image resized by `scale` (a 1080p calibration used on 720p frames).
CameraModel scaled(const CameraModel& camera, cv::Size new_size);

}  // namespace diskref::calib
