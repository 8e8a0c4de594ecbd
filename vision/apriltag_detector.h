#pragma once
// AprilTag detection (AprilRobotics apriltag 3.3) with detections as plain values.
//
// Pixel convention: every point this file returns is in OpenCV's convention (pixel centres at
// integer coordinates); apriltag's own corners (centres at i + 0.5) are shifted by -0.5 px here
// and nowhere else.
//
// Corner order is apriltag's: corners[0..3] are the tag's own (-1,1), (1,1), (1,-1), (-1,-1),
// i.e. bottom-left, bottom-right, top-right, top-left of the upright bitmap.
//
// Ownership and threads: a detector owns its apriltag detector and family; it is not safe to call
// detect() on one detector from two threads at once (make one per thread). Two detectors never
// share a family (a trap of the library: one apriltag_family_t must never serve two live
// detectors).

#include <array>
#include <memory>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::vision {

struct TagDetection {
  int id = 0;
  int hamming = 0;                     // bits corrected; higher means more likely a false detection
  double decision_margin = 0;          // average contrast of the decoded bits; low means doubtful
  std::array<cv::Point2d, 4> corners;  // OpenCV pixel convention, apriltag corner order
  cv::Point2d center;
};

struct DetectorOptions {
  // Tag family name as the library spells it: tagStandard41h12 (diskref's tags), tag36h11,
  // tag25h9, tag16h5, tagCircle21h7, tagCircle49h12, tagCustom48h12, tagStandard52h13, tag36h10.
  std::string family = "tagStandard41h12";
  // Detectors run side by side over separate regions by TagSearch (tag_search.h). One
  // AprilTagDetector runs on `library_threads` threads.
  int threads = 2;
  // apriltag's own worker pool inside one detector. apriltag 3.3.0 (Debian 12's) can crash in it:
  // it adds tasks to a growing list with no lock while a worker thread that has just started, or
  // woke spuriously, may be reading that list (fixed upstream in 3.4.0). Seen here as an
  // intermittent SEGV in a worker thread on a detector's first call. So diskref runs every
  // apriltag detector on one thread and shares regions out between detectors itself; only the
  // bench's baseline ("apriltag on the whole frame, as others run it") asks for more.
  int library_threads = 1;
  // Decimate the image by this factor for quad finding (corners are still refined at full
  // resolution). 2 is 3-4x faster than 1 but loses tags below about 3.2 px per cell.
  double quad_decimate = 2.0;
  double quad_sigma = 0.0;  // Gaussian blur before quad finding, in pixels; 0 = none
  bool refine_edges = true;
  double decode_sharpening = 0.25;
  // Small families with 2 corrected bits give false detections: accept at most this many.
  int max_hamming = 1;
  // Detections with a lower decision margin are dropped (0 keeps all).
  double min_decision_margin = 0.0;
  // Candidate regions whose light and dark sides differ by less than this many grey levels are no
  // tag (apriltag's own default: 5).
  int min_white_black_diff = 5;
};

// Names of the families the detector knows.
std::vector<std::string> known_tag_families();

class AprilTagDetector {
 public:
  // Throws std::invalid_argument for an unknown family or bad options.
  explicit AprilTagDetector(const DetectorOptions& options = {});
  ~AprilTagDetector();
  AprilTagDetector(const AprilTagDetector&) = delete;
  AprilTagDetector& operator=(const AprilTagDetector&) = delete;
  AprilTagDetector(AprilTagDetector&&) noexcept;
  AprilTagDetector& operator=(AprilTagDetector&&) noexcept;

  const DetectorOptions& options() const { return options_; }
  // Tag cells between the detector's corners (the square a tag's size_mm measures): 5 for
  // tagStandard41h12, 8 for tag36h11. Pixels per cell = tag side in pixels / this.
  int cells_across_corners() const;
  // Cells across the whole printed tag (9 for tagStandard41h12, 10 for tag36h11 with its white
  // border): the printed tag is cells_across_tag / cells_across_corners times size_mm wide.
  int cells_across_tag() const;
  // Changes decimation/blur/sharpening between calls (the family stays).
  void set_quad_decimate(double decimate);

  // Detects tags in an 8-bit single-channel image (any stride; no copy is made).
  std::vector<TagDetection> detect(const cv::Mat& gray);
  // Detects tags inside `roi` only; the returned points are in full-image coordinates.
  std::vector<TagDetection> detect(const cv::Mat& gray, cv::Rect roi);

 private:
  struct Impl;
  DetectorOptions options_;
  std::unique_ptr<Impl> impl_;
};

}  // namespace diskref::vision
