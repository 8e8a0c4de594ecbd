#include "vision/tag_search.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

namespace diskref::vision {

TagSearch::TagSearch(const DetectorOptions& options) : parallel_(options) {
  DetectorOptions single = options;
  single.threads = 1;
  const int count = std::max(1, options.threads);
  detectors_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) detectors_.emplace_back(single);
}

std::vector<TagDetection> TagSearch::detect(const cv::Mat& gray, std::span<const SearchRegion> regions) {
  if (regions.size() == 1 && detectors_.size() > 1) {
    parallel_.set_quad_decimate(regions.front().quad_decimate);
    return merge_duplicate_detections(parallel_.detect(gray, regions.front().roi), 2.0);
  }
  // Largest regions first, each to the least loaded detector.
  std::vector<std::size_t> order(regions.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return regions[a].roi.area() > regions[b].roi.area(); });
  const std::size_t workers = std::min(detectors_.size(), std::max<std::size_t>(regions.size(), 1));
  std::vector<std::vector<std::size_t>> share(workers);
  std::vector<double> load(workers, 0.0);
  for (std::size_t r : order) {
    const std::size_t w = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    share[w].push_back(r);
    load[w] += static_cast<double>(regions[r].roi.area()) / (regions[r].quad_decimate * regions[r].quad_decimate);
  }

  std::vector<std::vector<TagDetection>> found(workers);
  auto run = [&](std::size_t w) {
    AprilTagDetector& detector = detectors_[w];
    for (std::size_t r : share[w]) {
      detector.set_quad_decimate(regions[r].quad_decimate);
      auto d = detector.detect(gray, regions[r].roi);
      found[w].insert(found[w].end(), d.begin(), d.end());
    }
  };
  if (workers <= 1) {
    if (workers == 1) run(0);
  } else {
    cv::parallel_for_(cv::Range(0, static_cast<int>(workers)), [&](const cv::Range& range) {
      for (int w = range.start; w < range.end; ++w) run(static_cast<std::size_t>(w));
    }, static_cast<double>(workers));
  }

  std::vector<TagDetection> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  return merge_duplicate_detections(std::move(all), 2.0);
}

std::vector<TagDetection> merge_duplicate_detections(std::vector<TagDetection> detections, double tolerance_px) {
  std::sort(detections.begin(), detections.end(), [](const TagDetection& a, const TagDetection& b) {
    if (a.id != b.id) return a.id < b.id;
    return a.decision_margin > b.decision_margin;
  });
  std::vector<TagDetection> out;
  for (const auto& d : detections) {
    bool duplicate = false;
    for (auto it = out.rbegin(); it != out.rend() && it->id == d.id; ++it)
      if (cv::norm(it->center - d.center) <= tolerance_px) duplicate = true;
    if (!duplicate) out.push_back(d);
  }
  return out;
}

std::vector<TagDetection> TagSearch::detect_enlarged(const cv::Mat& gray, cv::Rect roi, int factor) {
  if (factor < 1) throw std::invalid_argument("TagSearch::detect_enlarged: factor must be >= 1");
  roi &= cv::Rect(0, 0, gray.cols, gray.rows);
  if (roi.area() == 0) return {};
  cv::Mat big;
  cv::resize(gray(roi), big, cv::Size(), factor, factor, cv::INTER_CUBIC);
  const double before = parallel_.options().quad_decimate;
  parallel_.set_quad_decimate(1.0);
  std::vector<TagDetection> tags = parallel_.detect(big);
  parallel_.set_quad_decimate(before);
  // The enlarged picture's pixel centre i lies at (i + 0.5) / factor - 0.5 in the region (OpenCV's
  // resize keeps pixel areas aligned).
  const auto back = [&](const cv::Point2d& p) {
    return cv::Point2d((p.x + 0.5) / factor - 0.5 + roi.x, (p.y + 0.5) / factor - 0.5 + roi.y);
  };
  for (TagDetection& t : tags) {
    for (cv::Point2d& c : t.corners) c = back(c);
    t.center = back(t.center);
  }
  return tags;
}

}  // namespace diskref::vision
