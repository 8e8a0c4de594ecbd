#pragma once
// Running the AprilTag detector over a list of image regions, on several threads.
//
// apriltag's cost grows with the pixels it looks at, so diskref looks only where tags can be: small
// windows around the disks it already knows, regions that changed, and a slow sweep over the rest
// (search_planner.h). Each region has its own quad decimation, chosen from the size its tags have
// in the image. Regions are shared out between `threads` detectors (one each: an apriltag detector
// is not thread-safe) by area; detections of one tag found in two overlapping regions are merged.
// Each detector is single-threaded (apriltag_detector.h, library_threads): a lone region is
// searched on one thread.
//
// Not thread-safe itself (it owns the detectors); one per pipeline.

#include <functional>
#include <span>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/apriltag_detector.h"

namespace diskref::vision {

struct SearchRegion {
  cv::Rect roi;              // full-resolution pixels
  double quad_decimate = 1;  // >= 1
  // Why it is searched (for the bench's split): a known tag's window, or a place where any tag
  // may be (a change, the sweep, the whole table); a merge of both counts as the second.
  enum class Purpose { expected, anything };
  Purpose purpose = Purpose::anything;
};

class TagSearch {
 public:
  // `options.threads` is the number of detectors run side by side (each on
  // `options.library_threads` threads: leave it at 1, see apriltag_detector.h).
  explicit TagSearch(const DetectorOptions& options);

  // Detections in full-image coordinates (OpenCV pixel convention, apriltag corner order), one per
  // tag (the duplicates from overlapping regions merged), sorted by id.
  std::vector<TagDetection> detect(const cv::Mat& gray, std::span<const SearchRegion> regions);

  // Detections in regions looked at enlarged `factor` times (bicubic), quads found at full
  // resolution, corners in full-image coordinates: a tag of under about 3 pixels a cell, or a
  // softly focused one, that the detector misses at the camera's own resolution is often found so.
  // Costs factor^2 times the regions' pixels: for a few small regions, not the table. Regions are
  // shared out as detect() shares its own; one tag found in two overlapping regions is merged.
  std::vector<TagDetection> detect_enlarged(const cv::Mat& gray, std::span<const cv::Rect> rois, int factor);

  int threads() const { return static_cast<int>(detectors_.size()); }
  int cells_across_corners() const { return detectors_.front().cells_across_corners(); }
  int cells_across_tag() const { return detectors_.front().cells_across_tag(); }

 private:
  // Runs look(detector, i) for every i < costs.size(), shared out between the detectors by cost
  // (largest first, each to the least loaded), and merges what they found.
  using Look = std::function<std::vector<TagDetection>(AprilTagDetector&, std::size_t)>;
  std::vector<TagDetection> share_out(std::span<const double> costs, const Look& look);

  std::vector<AprilTagDetector> detectors_;  // one per worker
};

// Detections of the same id whose centres are within `tolerance_px` are one tag seen twice (from
// overlapping regions); keeps the one with the larger decision margin.
std::vector<TagDetection> merge_duplicate_detections(std::vector<TagDetection> detections, double tolerance_px);

}  // namespace diskref::vision
