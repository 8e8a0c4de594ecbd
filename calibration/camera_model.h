#pragma once
// A camera's lens model (spec §7): pinhole intrinsics and OpenCV's distortion coefficients (4, 5,
// 8, 12 or 14 of them: k1 k2 p1 p2 [k3 [k4 k5 k6 [s1 s2 s3 s4 [tx ty]]]]), in OpenCV's pixel
// convention (pixel centres at integer coordinates), and optionally the calibration's projection
// uncertainty over the image (a coarse grid).

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <opencv2/core.hpp>

#include "engine/io/json_cursor.h"

namespace diskref::calib {

// The numbers of distortion coefficients OpenCV's models have: k1 k2 p1 p2; + k3; + k4 k5 k6
// (rational); + s1 s2 s3 s4 (thin prism); + tx ty (tilted sensor).
inline constexpr std::array<std::size_t, 5> kDistortionCounts{4, 5, 8, 12, 14};
// The name of coefficient `i` of a distortion vector ("k1", "p2", "s3", "tx").
const char* distortion_name(std::size_t i);

// The calibration's projection uncertainty (spec §7): one standard deviation (px, in the worst
// direction) of where a point at the table's distance projects, at the nodes of a cols x rows grid
// whose outer nodes lie on the image's corner pixels (node (c, r) at
// (c (W-1)/(cols-1), r (H-1)/(rows-1))), row by row.
struct UncertaintyGrid {
  int cols = 0, rows = 0;
  std::vector<double> sigma_px;

  // Bilinear between the nodes; `pixel` is clamped to the image.
  double at(cv::Point2d pixel, cv::Size image_size) const;
};

struct CameraModel {
  cv::Size image_size;
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  std::vector<double> dist_coeffs = std::vector<double>(5, 0.0);  // 4, 5, 8, 12 or 14 (kDistortionCounts)
  std::optional<double> rms_px;                                   // reprojection error of the calibration, when known
  std::optional<UncertaintyGrid> uncertainty;                     // projection uncertainty, when calibrated here

  cv::Mat dist_mat() const {
    return cv::Mat(1, static_cast<int>(dist_coeffs.size()), CV_64F, const_cast<double*>(dist_coeffs.data())).clone();
  }
  // Coefficient i, 0 beyond those given (a missing coefficient is a zero one in OpenCV's models).
  double coefficient(std::size_t i) const { return i < dist_coeffs.size() ? dist_coeffs[i] : 0.0; }
  double fx() const { return camera_matrix(0, 0); }
  double fy() const { return camera_matrix(1, 1); }
  double cx() const { return camera_matrix(0, 2); }
  double cy() const { return camera_matrix(1, 2); }
};

// Throws InputError (file, JSON path, problem): finite numbers, 4, 5, 8, 12 or 14 coefficients,
// and a camera that can exist (engine/model/bounds.h): an image 16..16384 px a side, a field of view
// of 1..170 degrees either way, pixels at most 2:1, the principal point in the image, distortion
// within |k| <= 100, |p|, |s| <= 1, |t| <= 0.5 rad; an optional `uncertainty` grid (2..256 nodes a
// side, sigmas 0..1000 px).
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
