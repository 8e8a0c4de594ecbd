#pragma once
// What a disk looks like: its outline (engine/geometry), a body colour, a white square around the
// tag of each face, the tag turned as the registry says, and for ships an arrow at the front.
//
// Disk-local frame (mm): centred, +x along the heading, +y to its left, seen from above with the
// face in question up. The tag's +x axis is the heading turned by -heading_offset_deg (spec §4:
// heading = tag +x direction + offset).

#include <optional>

#include <opencv2/core.hpp>

#include "engine/model/disk_registry.h"
#include "print/tag_bitmaps.h"

namespace diskref::print {

// White paper around a tag: this many cells beyond the printed 9 x 9 cells, each side.
inline constexpr double kTagQuietCells = 1.0;

// A disk's default body colour (linear BGR reflectance) when the registry gives none: by kind,
// with a hue that differs between ships by name.
cv::Vec3f default_disk_color(const model::DiskSpec& disk);
// The registry's 0xRRGGBB as a linear BGR reflectance.
cv::Vec3f color_from_rgb(unsigned rgb);

class DiskAppearance {
 public:
  explicit DiskAppearance(const model::DiskSpec& disk);

  const model::DiskSpec& spec() const { return disk_; }
  cv::Vec3f body_color() const { return body_; }
  cv::Vec3f rim_color() const { return rim_; }
  // Whether a disk-local point lies on the disk (engine geometry's outline).
  bool contains(double x_mm, double y_mm) const;
  // Colour of the face `face` at a disk-local point inside the outline.
  cv::Vec3f face_color(model::Face face, double x_mm, double y_mm) const;
  // The tag on a face, if any.
  const model::TagSpec* tag(model::Face face) const;

 private:
  model::DiskSpec disk_;
  cv::Vec3f body_;
  cv::Vec3f rim_;
  cv::Vec3f mark_;
  struct FaceTag {
    std::optional<model::TagSpec> spec;  // a copy: appearances are moved around in vectors
    const TagCells* cells = nullptr;
    double cos_offset = 1, sin_offset = 0;
  };
  FaceTag up_, down_;
};

}  // namespace diskref::print
