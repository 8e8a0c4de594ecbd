#include "vision/vacated_place.h"

#include <algorithm>
#include <stdexcept>
#include <vector>

#include <opencv2/imgproc.hpp>

#include "vision/foreign_shapes.h"

namespace diskref::vision {

VacatedPlace place_vacated(const cv::Mat& now, const cv::Mat& then, const cv::Mat& table, const cv::Mat& own, const cv::Mat& hidden,
                           int shift_now, int shift_then, const VacatedOptions& options) {
  for (const cv::Mat* m : {&now, &then, &table, &own, &hidden})
    if (m->type() != CV_8UC1 || m->size() != now.size())
      throw std::invalid_argument("place_vacated: needs 8-bit grey pictures and masks of one size");
  VacatedPlace out;
  out.own = cv::countNonZero(own);
  if (out.own == 0) return out;
  cv::Mat visible_now;
  cv::bitwise_not(hidden, visible_now);
  cv::Mat open = own & visible_now;
  out.open = cv::countNonZero(open);
  if (out.open < options.min_open_fraction * out.own) return out;

  const cv::Mat moved_now = difference_magnitude(now, table, shift_now);
  const cv::Mat moved_then = difference_magnitude(then, table, shift_then);
  cv::Mat around;  // the region's pixels that show the table now: its noise
  cv::bitwise_not(own, around);
  around &= visible_now;
  const double threshold = std::max(options.min_levels, options.noise_factor * lower_quartile_where(moved_now, around).value_or(0.0));
  if (threshold > options.max_levels) return out;

  cv::Mat shown, differing;
  cv::compare(moved_then, cv::Scalar(threshold), shown, cv::CMP_GT);
  shown &= open;
  out.shown = cv::countNonZero(shown);
  if (out.shown < options.min_shown_pixels || out.shown < options.min_shown_fraction * out.open) return out;
  cv::compare(moved_now, cv::Scalar(threshold), differing, cv::CMP_GT);
  differing &= shown;
  out.still_differing = cv::countNonZero(differing);
  out.vacated = out.still_differing <= options.max_still_differing * out.shown;
  return out;
}

}  // namespace diskref::vision
