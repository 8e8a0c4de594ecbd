#pragma once
// The shape of a small thing the table watch could not explain, at the camera's full resolution.
//
// The table watch (table_watch.h) works on the change detector's shrunk picture, where one pixel
// is several millimetres and a disk is explained by its footprint grown by a shrunk pixel: it can
// say that something unexplained lies near a counter, not whether it touches it. Reading a drop
// needs that difference: the rim of a counter lying under another hugs the upper one's outline,
// while a counter standing on its edge a few millimetres away does not (referee/counter_reading.h).
// So each small part the watch reports is looked at again here, pixel by pixel, against the
// table's picture at its last settle, with the known disks masked out by their exact outlines.
//
// Pure image arithmetic on one region: the caller cuts the region from the frame and the
// background, says where known disks lie in it, and turns the shapes found into table millimetres.

#include <vector>

#include <opencv2/core.hpp>

namespace diskref::vision {

// What a known disk explains around its outline, beyond half its thickness (its shadow under a
// high light), its pose's 2 sigma and a pixel (its blurred edge; the 3 x 3 mean spreads it): mm.
inline constexpr double kForeignFootprintMarginMm = 0.5;

struct ForeignShapeOptions {
  // A pixel differs when its 3 x 3 mean absolute difference from the background (after the
  // frame's brightness shift) exceeds this many grey levels, and `noise_factor` times the region's
  // own noise level (the lower quartile of that mean over the region's unexplained pixels: a
  // noisy camera's still table differs by a few levels everywhere).
  double min_levels = 10.0;
  double noise_factor = 2.5;
  // Groups of fewer differing pixels are noise (a video codec's speck).
  int min_pixels = 6;
};

// One group of unexplained differing pixels.
struct ForeignShape {
  std::vector<cv::Point> outline;  // its outer boundary, every boundary pixel (region coordinates)
  cv::Mat pixels;                  // 255 on its pixels (CV_8U, the region's size)
};

// The groups of unexplained differing pixels in one region. `now` and `background`: 8-bit grey, the same size;
// `explained`: 255 where a known disk lies now or lay in the background (same size); `shift`: the
// frame's brightness shift from the background (grey levels, table_watch.h).
std::vector<ForeignShape> foreign_shapes(const cv::Mat& now, const cv::Mat& background, const cv::Mat& explained,
                                         int shift, const ForeignShapeOptions& options = {});

}  // namespace diskref::vision
