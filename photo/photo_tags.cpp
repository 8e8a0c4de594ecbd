#include "photo/photo_tags.h"

#include <algorithm>
#include <cmath>

#include <fmt/format.h>
#include <fmt/ranges.h>
#include <opencv2/imgproc.hpp>

namespace diskref::photo {

double quad_decimate_for(cv::Size image_size) {
  const double megapixels = static_cast<double>(image_size.area()) / 1e6;
  if (megapixels <= 12.5) return 1;
  return std::floor(std::sqrt(megapixels / 12.0) * 2) / 2;  // in halves: 1.5 for 27 Mpx, 2 for 48
}

double tag_side_px(const vision::TagDetection& detection) {
  const auto& c = detection.corners;
  return (cv::norm(c[0] - c[1]) + cv::norm(c[1] - c[2]) + cv::norm(c[2] - c[3]) + cv::norm(c[3] - c[0])) / 4;
}

FoundTags find_registry_tags(const cv::Mat& bgr, const model::DiskRegistry& registry, const std::string& family) {
  FoundTags found;
  cv::Mat gray;
  if (bgr.channels() == 1) {
    gray = bgr;
  } else {
    cv::cvtColor(bgr, gray, cv::COLOR_BGR2GRAY);
  }
  vision::DetectorOptions options;
  options.family = family;
  found.quad_decimate = quad_decimate_for(gray.size());
  options.quad_decimate = found.quad_decimate;
  vision::AprilTagDetector detector(options);
  std::vector<vision::TagDetection> detections = detector.detect(gray);
  // The largest first: when a disk is seen twice (both faces' tags in view is impossible on the
  // table; a second copy of a tag is not), the largest in the image is kept.
  std::sort(detections.begin(), detections.end(),
            [](const auto& a, const auto& b) { return tag_side_px(a) > tag_side_px(b); });
  std::vector<int> foreign;
  for (const vision::TagDetection& detection : detections) {
    const std::optional<model::TagRef> ref = registry.find_tag(detection.id);
    if (!ref) {
      foreign.push_back(detection.id);
      continue;
    }
    const model::DiskSpec& disk = registry.disks()[ref->disk_index];
    const bool seen = std::any_of(found.refs.begin(), found.refs.end(),
                                  [&](const model::TagRef& r) { return r.disk_index == ref->disk_index; });
    if (seen) {
      found.notes.push_back(fmt::format("{} is seen twice (tag {} again at {:.0f}, {:.0f} px): the larger is used",
                                        disk.name, detection.id, detection.center.x, detection.center.y));
      continue;
    }
    SeenTag tag;
    tag.detection = detection;
    tag.size_mm = registry.tag(*ref).size_mm;
    tag.height_mm = disk.thickness_mm;
    found.tags.push_back(tag);
    found.refs.push_back(*ref);
  }
  if (!foreign.empty()) {
    std::sort(foreign.begin(), foreign.end());
    found.notes.push_back(fmt::format("tag{} {} on no disk of the registry: ignored", foreign.size() > 1 ? "s" : "",
                                      fmt::join(foreign, ", ")));
  }
  return found;
}

}  // namespace diskref::photo
