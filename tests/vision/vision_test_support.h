#pragma once
// Shared fixtures for the vision tests: a camera above the table with a known pose, and tags
// drawn into images exactly where that camera would see them.

#include <array>
#include <cmath>

#include <opencv2/calib3d.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgproc.hpp>

extern "C" {
#include <apriltag/apriltag.h>
}

#include "calibration/camera_pose.h"
#include "engine/geometry/pose.h"

namespace diskref::vision::test {

// A camera looking at the table point `target` from `distance_mm` away, its view turned from
// straight down by `tilt_deg` about its own x axis, with OpenCV distortion k1 (k2..k3 zero).
inline calib::CameraPose camera_looking_at(cv::Size image, double focal_px, geom::Vec2 target, double distance_mm,
                                           double tilt_deg, double k1 = 0.0) {
  calib::CameraPose pose;
  pose.camera.image_size = image;
  pose.camera.camera_matrix =
      cv::Matx33d(focal_px, 0, (image.width - 1) / 2.0, 0, focal_px, (image.height - 1) / 2.0, 0, 0, 1);
  pose.camera.dist_coeffs = {k1, 0, 0, 0, 0};
  pose.lens_calibrated = true;
  const double a = geom::deg_to_rad(tilt_deg);
  const cv::Matx33d down(1, 0, 0, 0, -1, 0, 0, 0, -1);  // camera x = table x, y = -table y, z = -table z
  const cv::Matx33d tilt(1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a));
  pose.rotation = tilt * down;
  const cv::Vec3d axis_table = pose.rotation.t() * cv::Vec3d(0, 0, 1);
  const cv::Vec3d centre = cv::Vec3d(target.x, target.y, 0) - distance_mm * axis_table;
  pose.translation = -(pose.rotation * centre);
  return pose;
}

// A camera `height_mm` straight above the table point `above`, then tilted by `tilt_deg` about its
// own x axis (its centre stays put), with OpenCV distortion k1.
inline calib::CameraPose camera_above(cv::Size image, double focal_px, geom::Vec2 above, double height_mm,
                                      double tilt_deg, double k1 = 0.0) {
  calib::CameraPose pose = camera_looking_at(image, focal_px, above, height_mm, 0.0, k1);
  const double a = geom::deg_to_rad(tilt_deg);
  const cv::Matx33d tilt(1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a));
  pose.rotation = tilt * pose.rotation;
  pose.translation = -(pose.rotation * cv::Vec3d(above.x, above.y, height_mm));
  return pose;
}

// A tag's detector corners on the table (apriltag order: bottom-left, bottom-right, top-right,
// top-left of the upright bitmap, seen from above) for a tag of `size_mm` at `table_from_tag`.
inline std::array<cv::Point3d, 4> tag_corners_table(const geom::Pose& table_from_tag, double size_mm,
                                                    double height_mm) {
  const double h = size_mm / 2;
  const geom::Vec2 local[4] = {{-h, -h}, {h, -h}, {h, h}, {-h, h}};
  std::array<cv::Point3d, 4> out;
  for (std::size_t i = 0; i < 4; ++i) {
    const geom::Vec2 p = geom::to_table(table_from_tag, local[i]);
    out[i] = {p.x, p.y, height_mm};
  }
  return out;
}

inline std::array<cv::Point2d, 4> tag_corners_image(const calib::CameraPose& pose, const geom::Pose& table_from_tag,
                                                    double size_mm, double height_mm) {
  auto table = tag_corners_table(table_from_tag, size_mm, height_mm);
  auto image = calib::image_from_table(pose, std::vector<cv::Point3d>(table.begin(), table.end()));
  return {image[0], image[1], image[2], image[3]};
}

// Draws the tag `id` of `family` into an 8-bit grey image so that its detector corners (OpenCV
// pixel convention, apriltag order) land on `corners_px`. The whole printed tag (white quiet zone
// included when the family has one) is drawn; a projective map, so straight lens-free edges.
inline void draw_tag(cv::Mat& grey, apriltag_family_t* family, int id, const std::array<cv::Point2d, 4>& corners_px) {
  image_u8_t* bitmap = apriltag_to_image(family, static_cast<uint32_t>(id));
  const int cells = bitmap->width;
  const int per_cell = 24;
  cv::Mat big(cells * per_cell, cells * per_cell, CV_8U);
  for (int y = 0; y < big.rows; ++y)
    for (int x = 0; x < big.cols; ++x)
      big.at<uint8_t>(y, x) = bitmap->buf[(y / per_cell) * bitmap->stride + x / per_cell];
  image_u8_destroy(bitmap);
  // Cell coordinates of the detector's corners: the border square, centred in the bitmap.
  const double lo = (cells - family->width_at_border) / 2.0;
  const double hi = lo + family->width_at_border;
  std::vector<cv::Point2f> cell = {
      {float(lo), float(hi)}, {float(hi), float(hi)}, {float(hi), float(lo)}, {float(lo), float(lo)}};
  std::vector<cv::Point2f> image;
  for (const auto& c : corners_px) image.emplace_back(static_cast<float>(c.x), static_cast<float>(c.y));
  const cv::Matx33d image_from_cell = cv::getPerspectiveTransform(cell, image);
  // Source pixel (OpenCV centre convention) -> cell coordinate: u = (x + 0.5) / per_cell.
  const cv::Matx33d cell_from_big(1.0 / per_cell, 0, 0.5 / per_cell, 0, 1.0 / per_cell, 0.5 / per_cell, 0, 0, 1);
  const cv::Matx33d image_from_big = image_from_cell * cell_from_big;
  // Supersampled 4x in the tag's bounding box, then area-averaged: anti-aliased edges.
  std::vector<cv::Point2d> outline = {{0, 0}, {double(cells), 0}, {double(cells), double(cells)}, {0, double(cells)}};
  cv::perspectiveTransform(outline, outline, cv::Mat(image_from_cell));
  cv::Rect box = cv::boundingRect(std::vector<cv::Point2f>(outline.begin(), outline.end()));
  box = cv::Rect(box.x - 2, box.y - 2, box.width + 4, box.height + 4) & cv::Rect(0, 0, grey.cols, grey.rows);
  if (box.area() == 0) return;
  const int s = 4;
  // Image pixel (OpenCV convention) -> canvas pixel: X = s * (x - box.x) + (s - 1) / 2.
  const cv::Matx33d canvas_from_image(s, 0, -s * box.x + (s - 1) / 2.0, 0, s, -s * box.y + (s - 1) / 2.0, 0, 0, 1);
  const cv::Mat canvas_from_big(canvas_from_image * image_from_big);
  cv::Mat warped, mask;
  const cv::Size canvas(box.width * s, box.height * s);
  cv::warpPerspective(big, warped, canvas_from_big, canvas, cv::INTER_LINEAR);
  cv::warpPerspective(cv::Mat(big.size(), CV_8U, cv::Scalar(255)), mask, canvas_from_big, canvas, cv::INTER_LINEAR);
  cv::Mat small_tag, small_mask;
  cv::resize(warped, small_tag, box.size(), 0, 0, cv::INTER_AREA);
  cv::resize(mask, small_mask, box.size(), 0, 0, cv::INTER_AREA);
  cv::Mat region = grey(box);
  for (int y = 0; y < box.height; ++y)
    for (int x = 0; x < box.width; ++x) {
      const double m = small_mask.at<uint8_t>(y, x) / 255.0;
      // The warped tag is already weighted by its coverage (black outside it).
      const double v = region.at<uint8_t>(y, x) * (1 - m) + small_tag.at<uint8_t>(y, x);
      region.at<uint8_t>(y, x) = cv::saturate_cast<uint8_t>(v);
    }
}

}  // namespace diskref::vision::test
