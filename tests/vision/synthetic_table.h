#pragma once
// A small synthetic table for pipeline tests: a camera (vision_test_support.h), the corner markers
// and disks drawn as white discs carrying their tags, optional dark "hands". Exact ground truth,
// no lens blur or noise beyond anti-aliasing (the renderer's sessions test the rest).

#include <optional>
#include <vector>

#include <opencv2/imgproc.hpp>

extern "C" {
#include <apriltag/tagStandard41h12.h>
}

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "vision_test_support.h"

namespace diskref::vision::test {

// A 600 mm table with 30 mm markers 25 mm outside its corners.
inline model::TableSpec small_table() {
  model::TableSpec t;
  t.play_area_mm = {600, 600};
  const geom::Vec2 centres[4] = {{-25, -25}, {625, -25}, {625, 625}, {-25, 625}};
  for (int i = 0; i < 4; ++i) t.corner_markers[static_cast<std::size_t>(i)] = {i, centres[i], 30};
  return t;
}

struct PlacedTag {
  int id = 0;
  double size_mm = 0;
  double height_mm = 0;
  geom::Pose table_from_tag;
  double disk_radius_mm = 0;  // white disc under the tag; 0 = a white square 2.2 x the tag
};

class SyntheticTable {
 public:
  SyntheticTable() : family_(tagStandard41h12_create()) {}
  ~SyntheticTable() { tagStandard41h12_destroy(family_); }
  SyntheticTable(const SyntheticTable&) = delete;
  SyntheticTable& operator=(const SyntheticTable&) = delete;

  apriltag_family_t* family() const { return family_; }

  // Grey image of the table as `pose` sees it: felt, corner markers, the tags, then hands (discs
  // in the table frame, drawn last, dark).
  cv::Mat draw(const calib::CameraPose& pose, const model::TableSpec& table, const std::vector<PlacedTag>& tags,
               const std::vector<std::pair<geom::Vec2, double>>& hands = {}) const {
    cv::Mat grey(pose.camera.image_size, CV_8U, cv::Scalar(60));
    std::vector<PlacedTag> all = tags;
    for (const auto& m : table.corner_markers) all.push_back({m.id, m.size_mm, 0.0, {m.center_mm, {}}, 0.0});
    for (const auto& t : all) {
      // The white base: a disc (or a square paper) as a polygon in the table frame.
      std::vector<cv::Point3d> outline;
      const int n = 48;
      for (int k = 0; k < n; ++k) {
        const double a = 2 * 3.141592653589793 * k / n;
        geom::Vec2 local =
            t.disk_radius_mm > 0
                ? geom::Vec2{t.disk_radius_mm * std::cos(a), t.disk_radius_mm * std::sin(a)}
                : geom::Vec2{
                      1.1 * t.size_mm * (std::cos(a) > 0 ? 1 : -1) * std::min(1.0, std::fabs(std::cos(a)) * 1.5),
                      1.1 * t.size_mm * (std::sin(a) > 0 ? 1 : -1) * std::min(1.0, std::fabs(std::sin(a)) * 1.5)};
        const geom::Vec2 p = geom::to_table(t.table_from_tag, local);
        outline.emplace_back(p.x, p.y, t.height_mm);
      }
      fill(grey, calib::image_from_table(pose, outline), 235);
      draw_tag(grey, family_, t.id, tag_corners_image(pose, t.table_from_tag, t.size_mm, t.height_mm));
    }
    for (const auto& [centre, radius] : hands) {
      std::vector<cv::Point3d> outline;
      for (int k = 0; k < 48; ++k) {
        const double a = 2 * 3.141592653589793 * k / 48;
        outline.emplace_back(centre.x + radius * std::cos(a), centre.y + radius * std::sin(a), 60.0);
      }
      fill(grey, calib::image_from_table(pose, outline), 140);
    }
    return grey;
  }

 private:
  static void fill(cv::Mat& grey, const std::vector<cv::Point2d>& polygon, int value) {
    std::vector<cv::Point> p;
    for (const auto& q : polygon)
      p.emplace_back(static_cast<int>(std::lround(q.x * 16)), static_cast<int>(std::lround(q.y * 16)));
    cv::fillPoly(grey, std::vector<std::vector<cv::Point>>{p}, cv::Scalar(value), cv::LINE_AA, 4);
  }

  apriltag_family_t* family_;
};

}  // namespace diskref::vision::test
