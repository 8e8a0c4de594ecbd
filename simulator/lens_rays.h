#pragma once
// The inverse of the camera's lens: from a raw image point to the ray it sees.
//
// Rendering works backwards: every output (super)sample is turned into a ray in the camera frame
// (OpenCV's: x right, y down, z forward) and intersected with the scene. Rays are written as
// normalized undistorted coordinates (x/z, y/z); pixels are raw (distorted) image points in
// OpenCV's convention (pixel centres at integer coordinates). The lens model is OpenCV's pinhole
// with any of its distortion models (4..14 coefficients, spec §7), so a point rendered here projects back exactly
// through cv::projectPoints.

#include <cmath>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"

namespace diskref::simulator {

// Normalized undistorted ray -> raw pixel (the forward model, as cv::projectPoints).
cv::Point2d pixel_from_ray(const calib::CameraModel& camera, cv::Vec2d ray);

// Raw pixel -> normalized undistorted ray, by Newton's method on the forward model (converges to
// 1e-12 in a few steps for any lens that a calibration would produce). nullopt when the lens
// model cannot be inverted there (the forward map folds over, far outside the calibrated field).
std::optional<cv::Vec2d> ray_from_pixel(const calib::CameraModel& camera, cv::Point2d pixel);

// The rays of every pixel centre of one camera, computed once, so that the rays of supersamples
// are bilinear look-ups (error below 1e-4 px for real lenses: the inverse lens map is smooth on the
// scale of a pixel).
class RayGrid {
 public:
  explicit RayGrid(const calib::CameraModel& camera);

  const calib::CameraModel& camera() const { return camera_; }
  cv::Size image_size() const { return camera_.image_size; }
  // Normalized ray of the raw image point (u, v); u in [-0.5, width - 0.5], v likewise. Returns
  // false where the lens cannot be inverted.
  bool ray(double u, double v, double& x, double& y) const {
    double gu = u + 1.0, gv = v + 1.0;  // the grid starts one pixel outside the image
    int iu = static_cast<int>(gu), iv = static_cast<int>(gv);
    if (iu < 0 || iv < 0 || iu >= grid_w_ - 1 || iv >= grid_h_ - 1) return false;
    double fu = gu - iu, fv = gv - iv;
    const cv::Vec2f* p =
        &grid_[static_cast<std::size_t>(iv) * static_cast<std::size_t>(grid_w_) + static_cast<std::size_t>(iu)];
    const cv::Vec2f* q = p + grid_w_;
    if (!(std::isfinite(p[0][0]) && std::isfinite(p[1][0]) && std::isfinite(q[0][0]) && std::isfinite(q[1][0])))
      return false;
    auto d = [](float f) { return static_cast<double>(f); };
    x = (1 - fv) * ((1 - fu) * d(p[0][0]) + fu * d(p[1][0])) + fv * ((1 - fu) * d(q[0][0]) + fu * d(q[1][0]));
    y = (1 - fv) * ((1 - fu) * d(p[0][1]) + fu * d(p[1][1])) + fv * ((1 - fu) * d(q[0][1]) + fu * d(q[1][1]));
    return true;
  }

 private:
  calib::CameraModel camera_;
  int grid_w_ = 0;
  int grid_h_ = 0;
  std::vector<cv::Vec2f> grid_;  // (width + 2) x (height + 2), origin at pixel (-1, -1); NaN = none
};

}  // namespace diskref::simulator
