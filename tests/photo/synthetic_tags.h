#pragma once
// Tags projected by a known pinhole camera with Gaussian corner noise: the fit's ground truth.

#include <cmath>
#include <numbers>
#include <random>
#include <vector>

#include <opencv2/calib3d.hpp>

#include "photo/table_from_tags.h"

namespace diskref::photo {

struct SyntheticTable {
  std::vector<SeenTag> tags;
  std::vector<cv::Vec3d> truth;  // x, y (mm), theta (radians) on the table
  cv::Size image_size{4000, 3000};
  double focal_px = 0;
  cv::Vec3d rvec, tvec;  // camera_from_table
};

// `tag_count` tags (24 mm on 2 mm ships, every third a 9.5 mm torpedo tag on 1 mm) scattered over
// 400 x 300 mm, seen from `distance_mm` at `tilt_deg` from straight above, from a random side,
// through a lens with radial distortion `k1` (OpenCV's model).
inline SyntheticTable synthetic_table(unsigned seed, double tilt_deg, double noise_px, int tag_count = 6,
                                      double distance_mm = 600, double focal_35mm = 26, double k1 = 0) {
  std::mt19937 random(seed);
  std::uniform_real_distribution<double> uniform(0, 1);
  std::normal_distribution<double> noise(0, noise_px);
  SyntheticTable table;
  table.focal_px = focal_35mm * std::hypot(table.image_size.width, table.image_size.height) / 43.27;
  for (int i = 0; i < tag_count; ++i) {
    const bool torpedo = i % 3 == 2;
    SeenTag tag;
    tag.size_mm = torpedo ? 9.5 : 24;
    tag.height_mm = torpedo ? 1 : 2;
    tag.detection.id = 10 + i;
    tag.detection.decision_margin = 80;
    table.tags.push_back(tag);
    table.truth.push_back(
        {400 * (uniform(random) - 0.5), 300 * (uniform(random) - 0.5), 2 * std::numbers::pi * uniform(random)});
  }
  const double tilt = tilt_deg * std::numbers::pi / 180, azimuth = 2 * std::numbers::pi * uniform(random);
  const cv::Vec3d centre(distance_mm * std::sin(tilt) * std::cos(azimuth),
                         distance_mm * std::sin(tilt) * std::sin(azimuth), distance_mm * std::cos(tilt));
  const cv::Vec3d forward = -centre / cv::norm(centre);
  // The camera's image x is horizontal (a phone held level), its image y goes down the view.
  cv::Vec3d right = forward.cross(cv::Vec3d(0, 0, 1));
  if (cv::norm(right) < 1e-9) right = cv::Vec3d(1, 0, 0);
  right /= cv::norm(right);
  const cv::Vec3d down = forward.cross(right);
  const cv::Matx33d r(right[0], right[1], right[2], down[0], down[1], down[2], forward[0], forward[1], forward[2]);
  cv::Rodrigues(r, table.rvec);
  table.tvec = -(r * centre);
  const cv::Matx33d k(table.focal_px, 0, (table.image_size.width - 1) / 2.0, 0, table.focal_px,
                      (table.image_size.height - 1) / 2.0, 0, 0, 1);
  for (std::size_t i = 0; i < table.tags.size(); ++i) {
    const auto corners = tag_corners_on_plane(table.truth[i], table.tags[i].size_mm, table.tags[i].height_mm);
    std::vector<cv::Point3d> object(corners.begin(), corners.end());
    std::vector<cv::Point2d> image;
    cv::projectPoints(object, table.rvec, table.tvec, k, std::vector<double>{k1, 0, 0, 0}, image);
    for (std::size_t c = 0; c < 4; ++c)
      table.tags[i].detection.corners[c] = image[c] + cv::Point2d(noise(random), noise(random));
    table.tags[i].detection.center = (image[0] + image[1] + image[2] + image[3]) * 0.25;
  }
  return table;
}

// Tag `i`'s true pose in the frame of tag `reference` (as the fit reports it).
inline cv::Vec3d relative_pose(const SyntheticTable& table, std::size_t i, std::size_t reference) {
  const cv::Vec3d& r = table.truth[reference];
  const cv::Vec3d& p = table.truth[i];
  const double c = std::cos(r[2]), s = std::sin(r[2]);
  const double dx = p[0] - r[0], dy = p[1] - r[1];
  return {c * dx + s * dy, -s * dx + c * dy, std::remainder(p[2] - r[2], 2 * std::numbers::pi)};
}

}  // namespace diskref::photo
