#pragma once
// The annotated photograph: every disk's outline projected back where the fit put it, its name,
// the range templates where the answers lay them, and each decisive margin drawn and labelled.

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry/shape.h"
#include "photo/table_from_tags.h"

namespace diskref::photo {

struct DrawnDisk {
  std::string name;
  geom::PlacedShape placed;  // plane frame
  double height_mm = 0;
  bool is_template = false;
  bool is_landing = false;  // where a move lands the disk (drawn as an outline only)
};

struct DrawnMargin {
  std::string label;    // "q1 range +22.8 +- 0.4 mm: yes"
  geom::Vec2 from, to;  // plane frame, at table height
  bool too_close = false;
};

struct DrawnTemplate {
  geom::PlacedShape placed;  // the rules' template where the range answer lays it
};

cv::Mat annotate_photo(const cv::Mat& photo, const TablePlacement& placement, const std::vector<DrawnDisk>& disks,
                       const std::vector<DrawnTemplate>& templates, const std::vector<DrawnMargin>& margins);

}  // namespace diskref::photo
