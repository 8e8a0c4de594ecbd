#pragma once
// Test support: board views made by projecting the board's corners through a known camera
// (cv::projectPoints, no image), with Gaussian noise on the corners. For the arithmetic of
// calibration without the cost of rendering; rendered views are in the render-based tests.

#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/camera_model.h"

namespace diskref::testing {

// A camera like a 720p webcam with noticeable barrel distortion.
inline calib::CameraModel webcam_720p() {
  calib::CameraModel c;
  c.image_size = {1280, 720};
  c.camera_matrix = cv::Matx33d(1010.0, 0, 652.3, 0, 1006.0, 355.8, 0, 0, 1);
  c.dist_coeffs = {-0.21, 0.08, 0.0007, -0.0004, -0.015};
  return c;
}

struct ProjectedView {
  calib::BoardView view;
  cv::Vec3d rvec, tvec;  // camera_from_board
};

struct BoardPose {
  cv::Vec3d rvec, tvec;  // camera_from_board
};

// `count` poses of a board, tilted up to 40 degrees about random axes and turned up to 25 degrees
// in plane, filling `fill_min`..`fill_max` of the image's width, aimed anywhere over the image and
// pushed back in until `keep_in_view_mm` (board points, e.g. the card's outline) are all inside it
// with `margin_px` to spare: the edges and corners of the image get covered, as a careful person
// covers them.
inline std::vector<BoardPose> spread_board_poses(const calib::CameraModel& camera,
                                                 const std::vector<cv::Point3f>& keep_in_view_mm, int count,
                                                 uint64_t seed, double fill_min = 0.3, double fill_max = 0.6,
                                                 double margin_px = 4) {
  cv::RNG rng(seed);
  cv::Point3f centre(0, 0, 0);
  for (const auto& p : keep_in_view_mm) centre += p * (1.0f / static_cast<float>(keep_in_view_mm.size()));
  double extent = 0;
  for (const auto& p : keep_in_view_mm) extent = std::max(extent, static_cast<double>(p.x - centre.x));
  cv::Mat k(camera.camera_matrix), dist = camera.dist_mat();
  std::vector<BoardPose> out;
  int attempts = 0;
  while (static_cast<int>(out.size()) < count && attempts++ < 100000) {
    double fill = rng.uniform(fill_min, fill_max);
    double z = camera.fx() * 2 * extent / (fill * camera.image_size.width);
    cv::Point2d target(rng.uniform(0.0, 1.0) * camera.image_size.width,
                       rng.uniform(0.0, 1.0) * camera.image_size.height);
    double axis_angle = rng.uniform(0.0, 2 * CV_PI), tilt = rng.uniform(0.0, 40.0) * CV_PI / 180;
    cv::Matx33d tilt_r, spin_r;
    cv::Rodrigues(cv::Vec3d(std::cos(axis_angle), std::sin(axis_angle), 0) * tilt, tilt_r);
    cv::Rodrigues(cv::Vec3d(0, 0, rng.uniform(-25.0, 25.0) * CV_PI / 180), spin_r);
    cv::Matx33d r = tilt_r * spin_r;
    cv::Vec3d c((target.x - camera.cx()) / camera.fx() * z, (target.y - camera.cy()) / camera.fy() * z, z);
    BoardPose pose;
    pose.tvec =
        c - r * cv::Vec3d(static_cast<double>(centre.x), static_cast<double>(centre.y), static_cast<double>(centre.z));
    cv::Rodrigues(r, pose.rvec);
    bool inside = false;
    for (int push = 0; push < 6 && !inside; ++push) {
      std::vector<cv::Point2f> image;
      cv::projectPoints(keep_in_view_mm, pose.rvec, pose.tvec, k, dist, image);
      double lo_x = 1e9, hi_x = -1e9, lo_y = 1e9, hi_y = -1e9;
      for (const auto& p : image) {
        lo_x = std::min(lo_x, static_cast<double>(p.x));
        hi_x = std::max(hi_x, static_cast<double>(p.x));
        lo_y = std::min(lo_y, static_cast<double>(p.y));
        hi_y = std::max(hi_y, static_cast<double>(p.y));
      }
      double dx = std::max(0.0, margin_px - lo_x) - std::max(0.0, hi_x - (camera.image_size.width - 1 - margin_px));
      double dy = std::max(0.0, margin_px - lo_y) - std::max(0.0, hi_y - (camera.image_size.height - 1 - margin_px));
      inside = dx == 0 && dy == 0;
      pose.tvec[0] += dx * pose.tvec[2] / camera.fx();
      pose.tvec[1] += dy * pose.tvec[2] / camera.fy();
    }
    if (inside) out.push_back(pose);
  }
  return out;
}

// `count` views of the whole board (see spread_board_poses), its corners projected with Gaussian
// noise of `noise_px` on each coordinate.
inline std::vector<ProjectedView> projected_views(const calib::CameraModel& camera, const calib::BoardSpec& board,
                                                  int count, double noise_px, uint64_t seed, double fill_min = 0.3,
                                                  double fill_max = 0.6) {
  std::vector<cv::Point3f> corners = calib::board_corners_mm(board);
  cv::RNG rng(seed ^ 0x5eedull);
  std::vector<ProjectedView> out;
  for (const auto& pose : spread_board_poses(camera, corners, count, seed, fill_min, fill_max)) {
    std::vector<cv::Point2f> image;
    cv::projectPoints(corners, pose.rvec, pose.tvec, cv::Mat(camera.camera_matrix), camera.dist_mat(), image);
    ProjectedView v;
    v.view.name = "view " + std::to_string(out.size());
    v.view.image_size = camera.image_size;
    for (std::size_t i = 0; i < corners.size(); ++i) {
      v.view.corner_ids.push_back(static_cast<int>(i));
      v.view.object_points.push_back(corners[i]);
      v.view.image_points.emplace_back(image[i].x + static_cast<float>(rng.gaussian(noise_px)),
                                       image[i].y + static_cast<float>(rng.gaussian(noise_px)));
    }
    v.rvec = pose.rvec;
    v.tvec = pose.tvec;
    out.push_back(v);
  }
  return out;
}

inline std::vector<calib::BoardView> views_only(const std::vector<ProjectedView>& projected) {
  std::vector<calib::BoardView> out;
  for (const auto& p : projected) out.push_back(p.view);
  return out;
}

}  // namespace diskref::testing
