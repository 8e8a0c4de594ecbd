#pragma once
// A phone photo rendered for the tests: round disks with their tags (tagStandard41h12, print/'s
// bitmaps) lying on a plain table, each disk's top at its thickness, seen by a pinhole camera from
// any side at any tilt. Rendered at twice the size and shrunk by area, so that edges are smooth as
// a camera's are.

#include <cmath>
#include <numbers>
#include <random>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "print/tag_bitmaps.h"

namespace diskref::photo {

struct RenderedDisk {
  std::string name;
  double x = 0, y = 0, heading_deg = 0;  // table frame (z up), heading = the tag's +x
  double diameter_mm = 63.5;
  double tag_mm = 24;
  double height_mm = 2;
  int tag_id = 10;
  double length_mm = 0;  // > 0: a rect (a range template) length x width instead of a circle
  double width_mm = 0;
};

struct PhotoCamera {
  cv::Size size{2000, 1500};
  double focal_35mm = 26;
  double distance_mm = 450;  // to the table point it looks at
  double tilt_deg = 30;      // from straight above
  double azimuth_deg = 0;    // the side it stands on
  cv::Point2d look_at{0, 0};

  double focal_px() const { return focal_35mm * std::hypot(size.width, size.height) / 43.27; }
  cv::Matx33d camera_matrix(double scale = 1) const {
    const double f = focal_px() * scale;
    return {f, 0, (size.width * scale - 1) / 2.0, 0, f, (size.height * scale - 1) / 2.0, 0, 0, 1};
  }
  // camera_from_table.
  void pose(cv::Matx33d& r, cv::Vec3d& t) const {
    const double tilt = tilt_deg * std::numbers::pi / 180, azimuth = azimuth_deg * std::numbers::pi / 180;
    const cv::Vec3d target(look_at.x, look_at.y, 0);
    const cv::Vec3d centre = target + distance_mm * cv::Vec3d(std::sin(tilt) * std::cos(azimuth),
                                                              std::sin(tilt) * std::sin(azimuth), std::cos(tilt));
    const cv::Vec3d forward = (target - centre) / cv::norm(target - centre);
    cv::Vec3d right = forward.cross(cv::Vec3d(0, 0, 1));
    if (cv::norm(right) < 1e-9)
      right = cv::Vec3d(std::cos(azimuth + std::numbers::pi / 2), std::sin(azimuth + std::numbers::pi / 2), 0);
    right /= cv::norm(right);
    const cv::Vec3d down = forward.cross(right);
    r = cv::Matx33d(right[0], right[1], right[2], down[0], down[1], down[2], forward[0], forward[1], forward[2]);
    t = -(r * centre);
  }
};

inline cv::Mat render_photo(const std::vector<RenderedDisk>& disks, const PhotoCamera& camera, unsigned seed = 1) {
  constexpr double kOversample = 2;
  const cv::Size big(int(camera.size.width * kOversample), int(camera.size.height * kOversample));
  cv::Mat image(big, CV_8UC3, cv::Scalar(70, 95, 120));  // a brown table
  cv::Matx33d r;
  cv::Vec3d t;
  camera.pose(r, t);
  const cv::Matx33d k = camera.camera_matrix(kOversample);
  // Nearest first would hide the far ones wrongly; all disks lie flat and apart, so order is free.
  for (const RenderedDisk& disk : disks) {
    constexpr double kPxPerMm = 12;
    const double extent = disk.length_mm > 0 ? std::hypot(disk.length_mm, disk.width_mm) : disk.diameter_mm;
    const int side = int(std::ceil(extent * kPxPerMm));
    cv::Mat face(side, side, CV_8UC3, cv::Scalar(225, 225, 225)), mask(side, side, CV_8U, cv::Scalar(0));
    const auto& cells = print::tag_bitmaps().cells(disk.tag_id);
    for (int v = 0; v < side; ++v) {
      for (int u = 0; u < side; ++u) {
        const double x = (u + 0.5) / kPxPerMm - side / (2 * kPxPerMm), y = side / (2 * kPxPerMm) - (v + 0.5) / kPxPerMm;
        const bool inside = disk.length_mm > 0 ? std::abs(x) <= disk.length_mm / 2 && std::abs(y) <= disk.width_mm / 2
                                               : std::hypot(x, y) <= disk.diameter_mm / 2;
        if (!inside) continue;
        mask.at<uchar>(v, u) = 255;
        const int cell = print::tag_cell_at(cells, disk.tag_mm, x, y);
        if (cell == 0) face.at<cv::Vec3b>(v, u) = cv::Vec3b(20, 20, 20);
        if (cell == 1) face.at<cv::Vec3b>(v, u) = cv::Vec3b(245, 245, 245);
      }
    }
    // Texture pixel -> disk top on the table (mm, z = height) -> photo.
    const double a = disk.heading_deg * std::numbers::pi / 180, c = std::cos(a), s = std::sin(a);
    const double half = side / (2 * kPxPerMm);
    const cv::Matx33d texture_to_plane(c / kPxPerMm, s / kPxPerMm, disk.x + (-c * half - s * half), s / kPxPerMm,
                                       -c / kPxPerMm, disk.y + (-s * half + c * half), 0, 0, 1);
    const cv::Vec3d z_column = cv::Vec3d(r(0, 2), r(1, 2), r(2, 2)) * disk.height_mm + t;
    const cv::Matx33d plane_to_camera(r(0, 0), r(0, 1), z_column[0], r(1, 0), r(1, 1), z_column[1], r(2, 0), r(2, 1),
                                      z_column[2]);
    // Pixel centres: the texture's (u, v) is its pixel centre at (u + 0.5, v + 0.5) in the mm map above.
    const cv::Matx33d centre_shift(1, 0, 0.5, 0, 1, 0.5, 0, 0, 1);
    const cv::Matx33d h = k * plane_to_camera * texture_to_plane * centre_shift;
    cv::Mat warped, warped_mask;
    cv::warpPerspective(face, warped, cv::Mat(h), big, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
    cv::warpPerspective(mask, warped_mask, cv::Mat(h), big, cv::INTER_LINEAR, cv::BORDER_CONSTANT);
    warped.copyTo(image, warped_mask > 127);
  }
  cv::Mat photo;
  cv::resize(image, photo, camera.size, 0, 0, cv::INTER_AREA);
  cv::Mat noise(photo.size(), CV_16SC3);
  cv::randn(noise, 0, 2);
  cv::RNG(seed).fill(noise, cv::RNG::NORMAL, 0, 2);
  cv::Mat noisy;
  photo.convertTo(noisy, CV_16SC3);
  noisy += noise;
  noisy.convertTo(photo, CV_8UC3);
  return photo;
}

// The kitchen table the photo tests share: enterprise faces tderet 150 mm away (in range by
// 92.46 - 86.5 = 5.96 mm with the rules' template); the torpedo lies beside enterprise.
inline const std::vector<RenderedDisk> kKitchenTable{{"enterprise", 0, 0, 90, 63.5, 24, 2, 10},
                                                     {"tderet", 0, 150, 270, 63.5, 24, 2, 11},
                                                     {"torpedo-1", 55, 30, 10, 25.4, 9.5, 1, 40}};

// Its registry (spec §4); `with_klingon`: also a ship that stays in the box (not on the table).
inline nlohmann::json kitchen_registry_json(bool with_klingon = true) {
  const auto disk = [](const char* name, const char* kind, double diameter, int id, double tag, double thickness) {
    return nlohmann::json{{"name", name},
                          {"kind", kind},
                          {"thickness_mm", thickness},
                          {"shape", {{"type", "circle"}, {"diameter_mm", diameter}}},
                          {"tags", {{{"id", id}, {"face", "up"}, {"size_mm", tag}}}}};
  };
  nlohmann::json disks = {disk("enterprise", "ship", 63.5, 10, 24, 2), disk("tderet", "ship", 63.5, 11, 24, 2),
                          disk("torpedo-1", "torpedo", 25.4, 40, 9.5, 1)};
  if (with_klingon) disks.push_back(disk("klingon", "ship", 63.5, 12, 24, 2));
  return {{"disks", disks}};
}

}  // namespace diskref::photo
