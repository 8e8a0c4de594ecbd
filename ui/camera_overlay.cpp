#include "ui/camera_overlay.h"

namespace diskref::ui {

std::vector<Vec2> screen_from_table(const calib::CameraPose& pose, const ImageViewTransform& view,
                                    const std::vector<Vec2>& table_mm, double height_mm) {
  std::vector<cv::Point3d> pts;
  pts.reserve(table_mm.size());
  for (Vec2 p : table_mm) pts.emplace_back(p.x, p.y, height_mm);
  std::vector<Vec2> out;
  out.reserve(pts.size());
  for (const cv::Point2d& px : calib::image_from_table(pose, pts)) out.push_back(view.screen_from_image({px.x, px.y}));
  return out;
}

std::vector<Vec2> play_area_edge_mm(Vec2 size, int per_side) {
  per_side = std::max(1, per_side);
  const Vec2 corners[4] = {{0, 0}, {size.x, 0}, {size.x, size.y}, {0, size.y}};
  std::vector<Vec2> out;
  for (int side = 0; side < 4; ++side) {
    Vec2 a = corners[side];
    Vec2 b = corners[(side + 1) % 4];
    for (int i = 0; i < per_side; ++i) out.push_back(a + (b - a) * (static_cast<double>(i) / per_side));
  }
  return out;
}

}  // namespace diskref::ui
