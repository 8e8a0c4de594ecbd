#pragma once
// A camera's lens model (spec §7): pinhole intrinsics and OpenCV's five distortion coefficients
// k1 k2 p1 p2 k3, in OpenCV's pixel convention (pixel centres at integer coordinates).

#include <array>
#include <filesystem>
#include <optional>
#include <string>

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

// Throws InputError (file, JSON path, problem): finite numbers, exactly five coefficients, and a
// camera that can exist (engine/model/bounds.h): an image 16..16384 px a side, a field of view of
// 1..170 degrees either way, pixels at most 2:1, the principal point in the image, distortion
// within |k| <= 100, |p| <= 1.
CameraModel parse_camera_model(const io::JsonCursor& root);

// What is impossible about `camera` (the bounds above), or empty. Names the member
// ("camera_matrix: ...").
std::string camera_model_problem(const CameraModel& camera);

// Why `camera` cannot be used on images of `image_size`, or empty: the same size is fine, and so
// is another size of the same aspect ratio (within 1 %: the camera is scaled, as for a 1080p
// calibration used on 720p frames).
std::string camera_fits_image_problem(const CameraModel& camera, cv::Size image_size);
// Throws InputError naming `file` and its image_size when it does not fit: "camera.json:
// image_size: is 1280x1024 (aspect 1.25), but the video is 1920x1080 (aspect 1.78): ...".
// `images` says what the images are ("the video", "the images").
void check_camera_fits_image(const CameraModel& camera, cv::Size image_size, const std::string& file,
                             const std::string& images);
CameraModel load_camera_model(const std::filesystem::path& file);
nlohmann::json camera_model_to_json(const CameraModel& camera);
// Writes atomically (temporary file, then rename) so that a crash never leaves half a file.
void save_camera_model(const CameraModel& camera, const std::filesystem::path& file);

// The same model for an image resized by `scale` (a 1080p calibration used on 720p frames).
CameraModel scaled(const CameraModel& camera, cv::Size new_size);

}  // namespace diskref::calib
