#include "vision/foreign_shapes.h"

#include <algorithm>
#include <stdexcept>

#include <opencv2/imgproc.hpp>

#include "vision/change_detector.h"

namespace diskref::vision {

namespace {

// The 3 x 3 mean absolute difference from the background after the brightness shift (CV_32F):
// single noisy pixels fall below the threshold, while a counter's rim of two pixels keeps most of
// its contrast.
cv::Mat difference_magnitude(const cv::Mat& now, const cv::Mat& background, int shift) {
  cv::Mat diff16;
  cv::subtract(now, background, diff16, cv::noArray(), CV_16S);
  return mean_abs_difference(diff16, shift);
}

// The values of `magnitude` where `where` is set.
std::vector<float> values_where(const cv::Mat& magnitude, const cv::Mat& where) {
  std::vector<float> levels;
  levels.reserve(static_cast<std::size_t>(magnitude.total()));
  for (int y = 0; y < magnitude.rows; ++y) {
    const float* m = magnitude.ptr<float>(y);
    const uchar* o = where.ptr<uchar>(y);
    for (int x = 0; x < magnitude.cols; ++x)
      if (o[x] != 0) levels.push_back(m[x]);
  }
  return levels;
}

void check_regions(const cv::Mat& now, const cv::Mat& background, const cv::Mat& explained) {
  if (now.type() != CV_8UC1 || background.type() != CV_8UC1 || now.size() != background.size())
    throw std::invalid_argument("foreign_shapes: needs two 8-bit grey regions of one size");
  if (!explained.empty() && (explained.type() != CV_8UC1 || explained.size() != now.size()))
    throw std::invalid_argument("foreign_shapes: the explained mask must be 8-bit and the regions' size");
}

}  // namespace

std::vector<ForeignShape> foreign_shapes(const cv::Mat& now, const cv::Mat& background, const cv::Mat& explained,
                                         int shift, const ForeignShapeOptions& options) {
  check_regions(now, background, explained);
  std::vector<ForeignShape> shapes;
  if (now.empty()) return shapes;

  const cv::Mat magnitude = difference_magnitude(now, background, shift);
  cv::Mat open;  // the pixels no known disk explains
  if (explained.empty())
    open = cv::Mat(now.size(), CV_8U, cv::Scalar(255));
  else
    cv::bitwise_not(explained, open);
  std::vector<float> levels = values_where(magnitude, open);
  if (levels.empty()) return shapes;
  const auto quartile = levels.begin() + static_cast<std::ptrdiff_t>(levels.size() / 4);
  std::nth_element(levels.begin(), quartile, levels.end());
  const double threshold = std::max(options.min_levels, options.noise_factor * static_cast<double>(*quartile));

  cv::Mat differing;
  cv::compare(magnitude, cv::Scalar(threshold), differing, cv::CMP_GT);
  cv::bitwise_and(differing, open, differing);

  cv::Mat labels, stats, centroids;
  const int n = cv::connectedComponentsWithStats(differing, labels, stats, centroids, 8, CV_32S);
  for (int k = 1; k < n; ++k) {
    if (stats.at<int>(k, cv::CC_STAT_AREA) < options.min_pixels) continue;
    ForeignShape shape;
    cv::compare(labels, cv::Scalar(k), shape.pixels, cv::CMP_EQ);
    std::vector<std::vector<cv::Point>> contours;
    cv::findContours(shape.pixels, contours, cv::RETR_EXTERNAL, cv::CHAIN_APPROX_NONE);
    if (contours.empty()) continue;
    // One part, one outer boundary (8-connected); the longest should there be more.
    shape.outline = *std::max_element(contours.begin(), contours.end(),
                                      [](const auto& a, const auto& b) { return a.size() < b.size(); });
    shapes.push_back(std::move(shape));
  }
  return shapes;
}

}  // namespace diskref::vision
