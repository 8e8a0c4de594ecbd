#include "vision/change_detector.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

#include <opencv2/imgproc.hpp>

namespace diskref::vision {
namespace {
constexpr int kCodecBlockPx = 16;  // H.264's macroblock; JPEG's blocks are 8 (16 with colour subsampled)
}  // namespace

cv::Mat mean_abs_difference(const cv::Mat& diff16, int shift) {
  cv::Mat centred, magnitude;
  cv::subtract(diff16, cv::Scalar(shift), centred);
  cv::Mat(cv::abs(centred)).convertTo(magnitude, CV_32F);
  cv::blur(magnitude, magnitude, cv::Size(3, 3));
  return magnitude;
}

int median_difference(const cv::Mat& diff16, const cv::Mat& mask) {
  // A histogram over the +-255 range.
  std::array<int, 511> histogram{};
  int counted = 0;
  for (int r = 0; r < diff16.rows; ++r) {
    const short* row = diff16.ptr<short>(r);
    const uint8_t* inside = mask.empty() ? nullptr : mask.ptr<uint8_t>(r);
    for (int c = 0; c < diff16.cols; ++c) {
      if (inside && !inside[c]) continue;
      ++histogram[static_cast<std::size_t>(std::clamp<int>(row[c], -255, 255) + 255)];
      ++counted;
    }
  }
  const int half = counted / 2;
  int seen = 0;
  for (std::size_t i = 0; i < histogram.size(); ++i) {
    seen += histogram[i];
    if (seen > half) return static_cast<int>(i) - 255;
  }
  return 0;
}

cv::Mat row_light(const cv::Mat& now, const cv::Mat& before) {
  CV_Assert(now.type() == CV_8UC1 && before.type() == CV_8UC1 && now.size() == before.size());
  // The ratio from the brightest pixels a row has enough of: a dark pixel tells it in coarse 8-bit
  // steps (1/35 at grey level 35), and a bright one is where a wrong ratio would show.
  constexpr std::array<int, 3> kLevels = {96, 48, 16};
  const std::array<int, 3> min_pixels = {std::max(8, now.cols / 4), std::max(8, now.cols / 4),
                                         std::max(8, now.cols / 8)};
  std::vector<float> ratio(static_cast<std::size_t>(now.rows), 1.0f);
  std::vector<bool> known(static_cast<std::size_t>(now.rows), false);
  std::vector<float> ratios;
  ratios.reserve(static_cast<std::size_t>(now.cols));
  for (int r = 0; r < now.rows; ++r) {
    const uint8_t* a = now.ptr<uint8_t>(r);
    const uint8_t* b = before.ptr<uint8_t>(r);
    for (std::size_t tier = 0; tier < kLevels.size(); ++tier) {
      ratios.clear();
      for (int c = 0; c < now.cols; ++c)
        if (b[c] >= kLevels[tier]) ratios.push_back(static_cast<float>(a[c]) / static_cast<float>(b[c]));
      if (static_cast<int>(ratios.size()) < min_pixels[tier]) continue;
      auto middle = ratios.begin() + static_cast<std::ptrdiff_t>(ratios.size() / 2);
      std::nth_element(ratios.begin(), middle, ratios.end());
      ratio[static_cast<std::size_t>(r)] = *middle;
      known[static_cast<std::size_t>(r)] = true;
      break;
    }
  }
  // Rows too dark to tell: the nearest row that could (a 3 % change of a dark row is below any
  // threshold anyway).
  for (int r = 0; r < now.rows; ++r) {
    if (known[static_cast<std::size_t>(r)]) continue;
    for (int d = 1; d < now.rows; ++d) {
      if (r - d >= 0 && known[static_cast<std::size_t>(r - d)]) {
        ratio[static_cast<std::size_t>(r)] = ratio[static_cast<std::size_t>(r - d)];
        break;
      }
      if (r + d < now.rows && known[static_cast<std::size_t>(r + d)]) {
        ratio[static_cast<std::size_t>(r)] = ratio[static_cast<std::size_t>(r + d)];
        break;
      }
    }
  }
  cv::Mat gains(now.rows, 1, CV_32F);
  for (int r = 0; r < now.rows; ++r) {
    std::array<float, 5> window{};
    int n = 0;
    for (int k = std::max(0, r - 2); k <= std::min(now.rows - 1, r + 2); ++k)
      window[static_cast<std::size_t>(n++)] = ratio[static_cast<std::size_t>(k)];
    std::nth_element(window.begin(), window.begin() + n / 2, window.begin() + n);
    gains.at<float>(r) = window[static_cast<std::size_t>(n / 2)];
  }
  return gains;
}

cv::Mat relit_difference(const cv::Mat& now, const cv::Mat& before, bool match_row_light) {
  if (!match_row_light) {
    cv::Mat diff16;
    cv::subtract(now, before, diff16, cv::noArray(), CV_16S);
    return diff16;
  }
  const cv::Mat gains = row_light(now, before);
  cv::Mat diff16(now.size(), CV_16S);
  for (int r = 0; r < now.rows; ++r) {
    const float g = gains.at<float>(r);
    const uint8_t* a = now.ptr<uint8_t>(r);
    const uint8_t* b = before.ptr<uint8_t>(r);
    short* d = diff16.ptr<short>(r);
    for (int c = 0; c < now.cols; ++c)
      d[c] = static_cast<short>(a[c] - static_cast<int>(std::lround(g * static_cast<float>(b[c]))));
  }
  return diff16;
}

cv::Mat difference_thresholds(const cv::Mat& now, const cv::Mat& before, double levels, double relative) {
  cv::Mat brighter, thresholds;
  cv::max(now, before, brighter);
  brighter.convertTo(thresholds, CV_32F, relative);
  cv::max(thresholds, cv::Scalar(levels), thresholds);
  return thresholds;
}

void drop_codec_specks(cv::Mat& changed, const cv::Mat& magnitude, const cv::Mat& thresholds, int max_pixels) {
  cv::Mat labels, stats, centroids;
  const int count = cv::connectedComponentsWithStats(changed, labels, stats, centroids, 8, CV_32S);
  if (count <= 1) return;
  // The largest difference of each group, over its threshold.
  std::vector<float> strongest(static_cast<std::size_t>(count), 0.0f);
  for (int r = 0; r < changed.rows; ++r) {
    const int* label = labels.ptr<int>(r);
    const float* m = magnitude.ptr<float>(r);
    const float* t = thresholds.ptr<float>(r);
    for (int c = 0; c < changed.cols; ++c)
      if (label[c] > 0)
        strongest[static_cast<std::size_t>(label[c])] =
            std::max(strongest[static_cast<std::size_t>(label[c])], m[c] / t[c]);
  }
  std::vector<bool> speck(static_cast<std::size_t>(count), false);
  for (int i = 1; i < count; ++i)
    speck[static_cast<std::size_t>(i)] =
        stats.at<int>(i, cv::CC_STAT_AREA) <= max_pixels && strongest[static_cast<std::size_t>(i)] <= 2.0f;
  for (int r = 0; r < changed.rows; ++r) {
    const int* label = labels.ptr<int>(r);
    uint8_t* out = changed.ptr<uint8_t>(r);
    for (int c = 0; c < changed.cols; ++c)
      if (speck[static_cast<std::size_t>(label[c])]) out[c] = 0;
  }
}

ChangeDetector::ChangeDetector(ChangeDetectorOptions options) : options_(options) {}

int ChangeDetector::scale_for(int width) const {
  return std::max(1, width / std::max(1, options_.target_width));
}

ChangeResult ChangeDetector::update(const cv::Mat& image) {
  ChangeResult result;
  result.scale = scale_for(image.cols);
  // Cropped to a multiple of the factor, so that area averaging takes its fast integer path.
  const cv::Size small_size(image.cols / result.scale, image.rows / result.scale);
  const cv::Mat cropped = image(cv::Rect(0, 0, small_size.width * result.scale, small_size.height * result.scale));
  cv::Mat small;
  if (image.channels() == 1) {
    cv::resize(cropped, small, small_size, 0, 0, cv::INTER_AREA);
  } else {
    // Colour: shrinking all three channels by area costs three times the grey conversion it
    // saves; a bilinear shrink to twice the size (each pixel the mean of 2 x 2) first is cheap.
    cv::Mat half, half_grey;
    if (result.scale % 2 == 0)
      cv::resize(cropped, half, small_size * 2, 0, 0, cv::INTER_LINEAR);
    else
      cv::resize(cropped, half, small_size, 0, 0, cv::INTER_AREA);
    cv::cvtColor(half, half_grey, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
    if (half_grey.size() == small_size)
      small = half_grey;
    else
      cv::resize(half_grey, small, small_size, 0, 0, cv::INTER_AREA);
  }
  result.small = small;
  if (previous_small_.size() != small.size()) {
    previous_small_ = small;
    history_.clear();
    result.changed_small = cv::Mat::zeros(small.size(), CV_8U);
    return result;
  }
  result.first_frame = false;

  const cv::Mat diff16 = relit_difference(small, previous_small_, options_.match_row_light);
  const int shift = median_difference(diff16);
  cv::Mat centred;
  cv::subtract(diff16, cv::Scalar(shift), centred);
  cv::Mat magnitude;
  cv::Mat(cv::abs(centred)).convertTo(magnitude, CV_32F);
  const cv::Mat thresholds =
      difference_thresholds(small, previous_small_, options_.threshold_levels, options_.relative_threshold);
  cv::Mat changed;
  cv::compare(magnitude, thresholds, changed, cv::CMP_GT);
  // A codec's block of 16 x 16 pixels straddles at most this many shrunk pixels.
  const int block_side = (kCodecBlockPx + result.scale - 1) / result.scale + 1;
  drop_codec_specks(changed, magnitude, thresholds, block_side * block_side);
  cv::dilate(changed, changed, cv::Mat());
  result.changed_small = changed;
  previous_small_ = small;

  // Where the change has just ended: changed in one of the last `ended_frames` frames, quiet now.
  cv::Mat recently = cv::Mat::zeros(changed.size(), CV_8U);
  for (const auto& past : history_) cv::bitwise_or(recently, past, recently);
  cv::Mat ended;
  cv::bitwise_and(recently, ~changed, ended);
  history_.push_back(changed);
  while (static_cast<int>(history_.size()) > options_.ended_frames) history_.erase(history_.begin());

  result.regions = regions_of(changed, result.scale, image.size());
  result.ended_regions = regions_of(ended, result.scale, image.size());
  return result;
}

std::vector<cv::Rect> ChangeDetector::regions_of(const cv::Mat& mask_small, int scale, cv::Size image_size) const {
  std::vector<cv::Rect> out;
  cv::Mat labels, stats, centroids;
  const int count = cv::connectedComponentsWithStats(mask_small, labels, stats, centroids, 8, CV_32S);
  const cv::Rect frame(0, 0, image_size.width, image_size.height);
  for (int i = 1; i < count; ++i) {
    if (stats.at<int>(i, cv::CC_STAT_AREA) < options_.min_region_pixels) continue;
    cv::Rect box(stats.at<int>(i, cv::CC_STAT_LEFT) * scale, stats.at<int>(i, cv::CC_STAT_TOP) * scale,
                 stats.at<int>(i, cv::CC_STAT_WIDTH) * scale, stats.at<int>(i, cv::CC_STAT_HEIGHT) * scale);
    out.push_back(box & frame);
  }
  return out;
}

double ChangeDetector::changed_fraction(const ChangeResult& result, const cv::Mat& mask_small) {
  if (result.first_frame || result.changed_small.empty() || mask_small.size() != result.changed_small.size()) return 0;
  const int total = cv::countNonZero(mask_small);
  if (total == 0) return 0;
  cv::Mat both;
  cv::bitwise_and(result.changed_small, mask_small, both);
  return static_cast<double>(cv::countNonZero(both)) / total;
}

}  // namespace diskref::vision
