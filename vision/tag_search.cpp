#include "vision/tag_search.h"

#include <algorithm>
#include <numeric>
#include <stdexcept>

#include <opencv2/core/utility.hpp>
#include <opencv2/imgproc.hpp>

namespace diskref::vision {

TagSearch::TagSearch(const DetectorOptions& options) {
  const int count = std::max(1, options.threads);
  detectors_.reserve(static_cast<std::size_t>(count));
  for (int i = 0; i < count; ++i) detectors_.emplace_back(options);
}

std::vector<TagDetection> TagSearch::share_out(std::span<const double> costs, const Look& look) {
  // Largest first, each to the least loaded detector.
  std::vector<std::size_t> order(costs.size());
  std::iota(order.begin(), order.end(), std::size_t{0});
  std::sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return costs[a] > costs[b]; });
  const std::size_t workers = std::min(detectors_.size(), costs.size());
  std::vector<std::vector<std::size_t>> share(workers);
  std::vector<double> load(workers, 0.0);
  for (std::size_t i : order) {
    const std::size_t w = static_cast<std::size_t>(std::min_element(load.begin(), load.end()) - load.begin());
    share[w].push_back(i);
    load[w] += costs[i];
  }

  std::vector<std::vector<TagDetection>> found(workers);
  auto run = [&](std::size_t w) {
    for (std::size_t i : share[w]) {
      auto d = look(detectors_[w], i);
      found[w].insert(found[w].end(), d.begin(), d.end());
    }
  };
  if (workers == 1) {
    run(0);
  } else if (workers > 1) {
    cv::parallel_for_(
        cv::Range(0, static_cast<int>(workers)),
        [&](const cv::Range& range) {
          for (int w = range.start; w < range.end; ++w) run(static_cast<std::size_t>(w));
        },
        static_cast<double>(workers));
  }

  std::vector<TagDetection> all;
  for (auto& f : found) all.insert(all.end(), f.begin(), f.end());
  return merge_duplicate_detections(std::move(all), 2.0);
}

std::vector<TagDetection> TagSearch::detect(const cv::Mat& gray, std::span<const SearchRegion> regions) {
  std::vector<double> costs;
  for (const SearchRegion& r : regions)
    costs.push_back(static_cast<double>(r.roi.area()) / (r.quad_decimate * r.quad_decimate));
  return share_out(costs, [&](AprilTagDetector& detector, std::size_t i) {
    detector.set_quad_decimate(regions[i].quad_decimate);
    return detector.detect(gray, regions[i].roi);
  });
}

std::vector<TagDetection> TagSearch::detect_enlarged(const cv::Mat& gray, std::span<const cv::Rect> rois, int factor) {
  if (factor < 1) throw std::invalid_argument("TagSearch::detect_enlarged: factor must be >= 1");
  std::vector<cv::Rect> inside;
  for (const cv::Rect& roi : rois)
    if (const cv::Rect r = roi & cv::Rect(0, 0, gray.cols, gray.rows); r.area() > 0) inside.push_back(r);
  std::vector<double> costs;
  for (const cv::Rect& r : inside) costs.push_back(static_cast<double>(r.area()) * factor * factor);
  return share_out(costs, [&](AprilTagDetector& detector, std::size_t i) {
    const cv::Rect roi = inside[i];
    cv::Mat big;
    cv::resize(gray(roi), big, cv::Size(), factor, factor, cv::INTER_CUBIC);
    detector.set_quad_decimate(1.0);
    std::vector<TagDetection> tags = detector.detect(big);
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
  });
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

}  // namespace diskref::vision
