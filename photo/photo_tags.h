#pragma once
// The registry's tags found in a photograph of any size (12-48 Mpx phone photos included).

#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/disk_registry.h"
#include "photo/table_from_tags.h"

namespace diskref::photo {

struct FoundTags {
  std::vector<SeenTag> tags;        // one per disk seen
  std::vector<model::TagRef> refs;  // the registry's disk and tag of each
  std::vector<std::string> notes;   // tags no disk carries, a disk seen twice
  double quad_decimate = 1;
};

// The decimation for quad finding: 1 up to 12 Mpx, then growing with the image's side so that the
// decimated image keeps about 12 Mpx (a 48 Mpx photo: 2). Corners are refined at full resolution
// either way; a tag must still span about 3 px per cell after decimation to be found.
double quad_decimate_for(cv::Size image_size);

// Detects the tags of `family` in the BGR photo; keeps those the registry knows.
FoundTags find_registry_tags(const cv::Mat& bgr, const model::DiskRegistry& registry, const std::string& family);

// The mean side of a detected tag, in pixels.
double tag_side_px(const vision::TagDetection& detection);

}  // namespace diskref::photo
