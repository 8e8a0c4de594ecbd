#pragma once
// Whether a disk out of sight has left the place it was last seen at.
//
// A disk the camera stops seeing is kept where it was last seen (`stale`, spec §5): covered, most
// likely, by a hand or by another disk. But a counter of a drop is often last seen sliding, and
// then goes out of sight somewhere else — under a counter that lands on it, or on its edge — while
// the place it was last seen at lies bare. Its last place then says nothing about what lies where,
// and a counter lying flat beside that place is not lying on it (referee/counter_reading.h).
//
// The evidence is the picture at that place, pixel by pixel, against two others of the same place:
// the table's picture when it last settled (before the disk came there) and the disk's own picture
// when it was last seen there. Where the disk's picture differed from the table's, the disk showed;
// if the picture now is the table's at nearly all of those pixels, the disk is no longer there.
// Pixels hidden now (under a disk seen now, or where a disk lay when the table settled, which the
// table's picture shows instead of the table) are no evidence either way, and too few left over
// say nothing.
//
// Pure image arithmetic on one region: the caller cuts the three pictures and the masks from the
// frames (vision/tracker_vacated.cpp).

#include <opencv2/core.hpp>

namespace diskref::vision {

struct VacatedOptions {
  // A pixel differs as in foreign_shapes.h: its 3 x 3 mean absolute difference (after the frames'
  // brightness shifts) exceeds `min_levels` and `noise_factor` times the lower quartile of that
  // mean over the region's pixels outside the disk and the hidden ones (a noisy camera's table).
  double min_levels = 10.0;
  double noise_factor = 2.5;
  // A region whose surroundings differ from the table's picture by more than this (that threshold,
  // grey levels) does not show the table as it was — a hand, its shadow, the light changed — and
  // nothing is said of it.
  double max_levels = 30.0;
  // At least this share of the disk's pixels must be open to view now...
  double min_open_fraction = 0.3;
  // ...and at least this share of them must have shown the disk (differed from the table) when it
  // was last seen, and this many pixels: a disk the colour of the table leaves no evidence.
  double min_shown_fraction = 0.25;
  int min_shown_pixels = 40;
  // Of the pixels that showed the disk, at most this share may differ from the table now.
  double max_still_differing = 0.1;
};

struct VacatedPlace {
  bool vacated = false;
  int own = 0;         // pixels of the disk at its last place
  int open = 0;        // of them, not hidden now
  int shown = 0;       // of those, differing from the table's picture when the disk was last seen
  int still_differing = 0;  // of those, differing from it now
};

// `now`, `then`, `table`: 8-bit grey, one size (the region now, when the disk was last seen there,
// and when the table last settled); `own`: 255 on the disk's pixels at its last place; `hidden`:
// 255 where the picture now says nothing of it (same size, 8-bit); `shift_now`, `shift_then`: each
// picture's brightness shift from the table's (grey levels, table_watch.h).
VacatedPlace place_vacated(const cv::Mat& now, const cv::Mat& then, const cv::Mat& table, const cv::Mat& own,
                           const cv::Mat& hidden, int shift_now, int shift_then, const VacatedOptions& options = {});

}  // namespace diskref::vision
