#include "print/disk_appearance.h"

#include <cmath>
#include <functional>

#include "engine/geometry/shape.h"
#include "print/board_pattern.h"

namespace diskref::print {

cv::Vec3f color_from_rgb(unsigned rgb) {
  auto channel = [&](int shift) { return static_cast<float>((rgb >> shift) & 0xFFu) / 255.0f; };
  return {channel(0), channel(8), channel(16)};
}

cv::Vec3f default_disk_color(const model::DiskSpec& disk) {
  if (disk.color_rgb) return color_from_rgb(*disk.color_rgb);
  switch (disk.kind) {
    case model::DiskKind::torpedo:
      return {0.10f, 0.12f, 0.62f};  // red
    case model::DiskKind::planet:
      return {0.55f, 0.40f, 0.15f};  // blue-green
    case model::DiskKind::terrain:
      return {0.30f, 0.35f, 0.38f};  // stone
    case model::DiskKind::obstruction:
      return {0.15f, 0.45f, 0.55f};  // amber
    case model::DiskKind::template_:
      return {0.55f, 0.75f, 0.80f};  // pale yellow card
    case model::DiskKind::counter:
      return {0.50f, 0.40f, 0.30f};  // slate blue
    case model::DiskKind::ship:
      break;
  }
  // Ships: a saturated hue chosen by name, so each ship keeps its colour between renders.
  const cv::Vec3f palette[] = {{0.60f, 0.25f, 0.10f}, {0.12f, 0.45f, 0.12f}, {0.55f, 0.15f, 0.45f},
                               {0.10f, 0.40f, 0.60f}, {0.50f, 0.45f, 0.10f}, {0.20f, 0.20f, 0.50f}};
  std::size_t h = std::hash<std::string>{}(disk.name);
  return palette[h % std::size(palette)];
}

DiskAppearance::DiskAppearance(const model::DiskSpec& disk) : disk_(disk), body_(default_disk_color(disk)) {
  rim_ = body_ * 0.55f;
  mark_ = body_ * 0.45f + cv::Vec3f(0.4f, 0.4f, 0.4f) * 0.55f;
  for (const model::TagSpec& t : disk_.tags) {
    FaceTag& f = t.face == model::Face::up ? up_ : down_;
    f.spec = t;
    f.cells = &tag_bitmaps().cells(t.id);
    double offset = t.heading_offset_deg * std::numbers::pi / 180;
    f.cos_offset = std::cos(offset);
    f.sin_offset = std::sin(offset);
  }
}

const model::TagSpec* DiskAppearance::tag(model::Face face) const {
  const FaceTag& f = face == model::Face::up ? up_ : down_;
  return f.spec ? &*f.spec : nullptr;
}

bool DiskAppearance::contains(double x, double y) const {
  return geom::contains(geom::PlacedShape{disk_.shape, geom::Pose{}}, geom::Vec2{x, y});
}

cv::Vec3f DiskAppearance::face_color(model::Face face, double x, double y) const {
  const FaceTag& f = face == model::Face::up ? up_ : down_;
  if (f.spec) {
    // Into the tag frame: rotate by +offset (the tag's +x is the heading turned by -offset).
    double tx = f.cos_offset * x - f.sin_offset * y;
    double ty = f.sin_offset * x + f.cos_offset * y;
    double cell = f.spec->size_mm / kTagBorderCells;
    double half_white = (kTagCells / 2.0 + kTagQuietCells) * cell;
    if (std::fabs(tx) <= half_white && std::fabs(ty) <= half_white) {
      int bit = tag_cell_at(*f.cells, f.spec->size_mm, tx, ty);
      float v = bit == 0 ? kInkBlack : kPaperWhite;
      return {v, v, v};
    }
  }
  if (disk_.kind == model::DiskKind::template_) {
    // A ruler-like tick every 10 mm along the template's length.
    double along = x + 1000.0;
    if (std::fmod(along, 10.0) < 0.6 && std::fabs(y) > 0.25 * std::fabs(geom::bounding_radius(disk_.shape)))
      return rim_;
  }
  if (disk_.kind == model::DiskKind::ship) {
    // An arrow at the front, towards the heading, so that people see which way a ship faces.
    double r = geom::bounding_radius(disk_.shape);
    double front = x - 0.72 * r;
    if (front > 0 && std::fabs(y) < 0.5 * (0.28 * r - front)) return mark_;
  }
  return body_;
}

}  // namespace diskref::print
