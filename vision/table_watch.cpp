#include "vision/table_watch.h"

#include <opencv2/imgproc.hpp>

#include "vision/change_detector.h"

namespace diskref::vision {

TableWatch::TableWatch(TableWatchOptions options) : options_(options) {}

void TableWatch::adopt(const cv::Mat& small) {
  small.copyTo(background_);
  small.copyTo(settled_);
  absorbed_ = false;
  if (last_change_t_.size() != small.size()) last_change_t_ = cv::Mat(small.size(), CV_64F, cv::Scalar(0.0));
}

void TableWatch::reset() {
  background_.release();
  settled_.release();
  absorbed_ = false;
  last_change_t_.release();
}

bool TableWatch::differs(double t, const cv::Mat& small, const cv::Mat& changed_small, const cv::Mat& play_area_small,
                         cv::Mat& differing) {
  if (background_.size() != small.size() || play_area_small.size() != small.size()) {
    adopt(small);
    last_change_t_.setTo(cv::Scalar(t));
    return false;
  }
  if (changed_small.size() == small.size()) last_change_t_.setTo(cv::Scalar(t), changed_small);

  differing = differing_from(small, background_, play_area_small, &shift_);
  // Something taken in since the settle and gone again: the table as it settled is no news.
  if (absorbed_ && cv::countNonZero(differing) > 0)
    cv::bitwise_and(differing, differing_from(small, settled_, play_area_small), differing);
  return cv::countNonZero(differing) > 0;
}

cv::Mat TableWatch::differing_from(const cv::Mat& small, const cv::Mat& reference, const cv::Mat& play_area_small,
                                   int* shift_out) const {
  // The reference brought to this frame's light row by row first: flicker's ripple and an
  // auto-exposure step since the table settled are no difference (change_detector.h).
  const cv::Mat diff16 = relit_difference(small, reference, options_.match_row_light);
  const int shift = median_difference(diff16, play_area_small);
  if (shift_out != nullptr) *shift_out = shift;
  // Averaged over 3 x 3 shrunk pixels: a hand or an arm differs over many of them, while sensor
  // noise and the faint trail a video codec leaves where something passed are single pixels.
  const cv::Mat magnitude = mean_abs_difference(diff16, shift);
  cv::Mat differing;
  cv::compare(magnitude,
              difference_thresholds(small, reference, options_.threshold_levels, options_.relative_threshold),
              differing, cv::CMP_GT);
  cv::bitwise_and(differing, play_area_small, differing);
  return differing;
}

TableWatchResult TableWatch::explain(double t, const cv::Mat& small, const cv::Mat& differing,
                                     const cv::Mat& disks_small) {
  cv::Mat unexplained = differing.clone();
  if (disks_small.size() == differing.size()) unexplained.setTo(cv::Scalar(0), disks_small);

  // What has stood unchanged for long enough is part of the table now.
  cv::Mat still_long;
  cv::compare(last_change_t_, cv::Scalar(t - options_.absorb_after_s), still_long, cv::CMP_LE);
  cv::bitwise_and(still_long, unexplained, still_long);
  if (cv::countNonZero(still_long) > 0) {
    small.copyTo(background_, still_long);
    unexplained.setTo(cv::Scalar(0), still_long);
    absorbed_ = true;
  }

  TableWatchResult result;
  result.shift_levels = shift_;
  result.foreign_pixels = cv::countNonZero(unexplained);
  result.foreign = result.foreign_pixels >= options_.min_foreign_pixels;
  if (result.foreign_pixels > 0) result.foreign_box = cv::boundingRect(unexplained);
  if (result.foreign) {
    cv::Mat labels, stats, centroids;
    const int n = cv::connectedComponentsWithStats(unexplained, labels, stats, centroids, 8, CV_32S);
    for (int k = 1; k < n; ++k)
      result.foreign_parts.emplace_back(stats.at<int>(k, cv::CC_STAT_LEFT), stats.at<int>(k, cv::CC_STAT_TOP),
                                        stats.at<int>(k, cv::CC_STAT_WIDTH), stats.at<int>(k, cv::CC_STAT_HEIGHT));
  }
  return result;
}

}  // namespace diskref::vision
