#pragma once
// Measures of board views used to choose the views a lens calibration is made from: how sharp a
// view is, how much the board moved between video frames, how alike two views are, and how much
// of the image the views cover. Pixels in OpenCV's convention.

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"

namespace diskref::calib {

// Blur of a view: the 10 %–90 % rise width (pixels) of the board's black/white edges, measured
// across each edge midway between two neighbouring corners. The edges along the grid's rows and
// those along its columns are summarised separately (median) and the larger is returned, so that
// motion blur in one direction is not hidden by the sharp edges along it. A perfectly sharp edge
// measures about 1 px; a Gaussian blur of sigma s adds about 2.6 s. nullopt when no edge could be
// measured (squares too small in the image, no contrast).
std::optional<double> edge_width_px(const cv::Mat& gray, const BoardView& view, const BoardSpec& board);

// Motion of the board between two consecutive video frames: the median displacement (pixels) of
// the view's corners, tracked from `gray` (where the view was found) into `previous_gray` with
// pyramidal Lucas–Kanade. nullopt when no corner could be tracked.
std::optional<double> board_motion_px(const cv::Mat& previous_gray, const cv::Mat& gray, const BoardView& view);

// How alike two views are: the mean image distance (pixels) between the corners they share;
// nullopt when they share fewer than 4 corners (then they show different parts of the board).
std::optional<double> view_distance_px(const BoardView& a, const BoardView& b);

// Fraction of the image (0..1) inside at least one view's board outline (the convex hull of its
// corners).
double image_coverage(const std::vector<BoardView>& views, cv::Size image_size);

// Fraction (0..1) of the cells of a `cells` x `cells` grid over the image that hold at least one
// corner of some view. Distortion is only measured where corners were seen.
double corner_cell_coverage(const std::vector<BoardView>& views, cv::Size image_size, int cells);

}  // namespace diskref::calib
