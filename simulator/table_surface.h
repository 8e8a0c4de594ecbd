#pragma once
// The table top as the camera sees it: a play mat over the play area, the table around it, the
// corner markers printed on white cards lying flat on it, and the floor beyond the table's edge.
// Colours are linear BGR reflectances (0..1). Everything is in the table frame (spec §1, mm).

#include <cstdint>
#include <optional>
#include <string>

#include <opencv2/core.hpp>

#include "engine/geometry/vec2.h"
#include "engine/model/table_spec.h"
#include "print/tag_bitmaps.h"

namespace diskref::simulator {

enum class SurfaceKind { starfield, cloth, wood };
std::optional<SurfaceKind> surface_kind_from_string(const std::string& name);

struct SurfaceSpec {
  SurfaceKind mat = SurfaceKind::starfield;  // over the play area (and mat_margin_mm around it)
  SurfaceKind table = SurfaceKind::wood;     // the rest of the table top
  double mat_margin_mm = 100;                // the mat is larger than the play area by this much
  double table_margin_mm = 300;              // the table top extends this far beyond the play area
  double floor_depth_mm = 760;               // the floor lies this far below the table top
};

class TableSurface {
 public:
  // `texels_per_mm`: resolution of the procedural textures (about twice the camera's pixels per
  // mm is plenty). Deterministic for a seed.
  TableSurface(const model::TableSpec& table, const SurfaceSpec& surface, double texels_per_mm, uint64_t seed);

  const model::TableSpec& table() const { return table_; }
  const SurfaceSpec& spec() const { return surface_; }
  // The table top's outline, table frame.
  cv::Rect2d table_top_mm() const { return top_; }
  // Reflectance at a table-top point (z = 0); false when the point is off the table.
  bool table_color(double x_mm, double y_mm, cv::Vec3f& color) const;
  // Reflectance of the floor (z = -floor_depth_mm) at a point.
  cv::Vec3f floor_color(double x_mm, double y_mm) const;

 private:
  cv::Vec3f texture_at(const cv::Mat& texture, double x_mm, double y_mm) const;
  bool marker_color(double x_mm, double y_mm, cv::Vec3f& color) const;

  model::TableSpec table_;
  SurfaceSpec surface_;
  cv::Rect2d top_;
  cv::Rect2d mat_;
  double texels_per_mm_;
  cv::Mat mat_texture_;    // CV_8UC3 over mat_, reflectance x 255
  cv::Mat table_texture_;  // CV_8UC3 over top_
  std::array<const print::TagCells*, 4> marker_cells_{};
};

}  // namespace diskref::simulator
