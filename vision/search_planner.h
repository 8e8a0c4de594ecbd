#pragma once
// Where to look for tags in a frame, and how coarsely (see tag_search.h).
//
// Each frame the planner lists:
//   - a window around every tag it expects (known disks at their predicted place, the corner
//     markers), with a margin for motion;
//   - the regions where the image changed (a hand placing or flipping a disk, a disk sliding out of
//     its window), grown by a whole tag so that a tag half inside is searched whole;
//   - a tile of a slow sweep over the table (every `sweep_every_frames` frames), so that anything
//     the rest missed is found within `sweep_frames` frames;
//   - or, on request (the first frame, after a reset), the whole table in tiles;
//   - and when the table is not known at all, the whole image in one piece at full resolution.
// Overlapping windows are merged when that does not add pixels; big ones are cut into overlapping
// tiles (overlap = a whole tag) so that both threads get work. Each region's quad decimation is the
// largest that keeps `min_decimated_pixels_per_cell` for the smallest tag that can be in it.
//
// Not thread-safe (it keeps the sweep's position).

#include <vector>

#include <opencv2/core.hpp>

#include "vision/tag_search.h"

namespace diskref::vision {

struct ExpectedTag {
  cv::Rect2d box_px;           // where the whole printed tag should be (already including motion)
  double pixels_per_cell = 0;  // of this tag, in the image
};

// The smallest tag of the registry as it would look anywhere in the image: its pixels per cell
// where it is smallest within each `cell_px` x `cell_px` block of the image (CV_64F; blocks that
// see no table hold +infinity). Empty = unknown (min_pixels_per_cell everywhere).
struct TagScaleMap {
  cv::Mat min_pixels_per_cell;
  int cell_px = 32;
  // The smallest over the blocks `roi` touches; `fallback` when the map is empty or sees none.
  double min_in(const cv::Rect& roi, double fallback) const;
};

struct SearchScene {
  cv::Size image_size;
  cv::Rect table_px;  // the table with its markers in the image; empty = unknown (whole image)
  std::vector<ExpectedTag> expected;
  std::vector<cv::Rect> changed;
  double min_pixels_per_cell = 1;  // the smallest tag the registry has, where it is smallest on the table
  TagScaleMap tag_scale;           // the same, place by place: changes and the sweep are decimated by it
  double max_tag_px = 64;          // the largest printed tag's side (corner markers too), turned, where largest
  double max_disk_tag_px = 64;     // the same for the disks' tags only
};

struct SearchPlannerOptions {
  // apriltag decodes down to about 2.5 px per cell at full resolution; quad finding on a
  // decimated image keeps working down to about 1.6 px per cell there (measured: decimation 2
  // loses tags below 3.2 px per cell at full resolution). 2.0 keeps a margin.
  double min_decimated_pixels_per_cell = 2.0;
  // Margin around an expected tag, as a fraction of its box's larger side (plus min_margin_px).
  double expected_margin = 0.2;
  int min_margin_px = 6;
  // The sweep covers the table once every this many frames...
  int sweep_frames = 90;
  // ...one tile every this many frames. A tile is grown by a whole tag on every side (so that a
  // tag across its edge is found whole), which costs less on few big tiles than on many small
  // ones: every third frame, a tile three times the size is 30 % cheaper than one each frame.
  int sweep_every_frames = 3;
  // A changed region is grown by this fraction of the largest disk tag on every side: a disk put
  // down or uncovered changes the picture all over itself, so its tag lies (nearly) whole inside
  // the change; the margin takes what the shrunk change mask leaves out. (Known disks have their
  // own windows wherever the change is.)
  double changed_margin_tags = 0.5;
  // Regions larger than this (pixels) are cut into tiles so that the work spreads over threads.
  int max_region_area = 300 * 300;
};

class SearchPlanner {
 public:
  explicit SearchPlanner(SearchPlannerOptions options = {});

  std::vector<SearchRegion> plan(const SearchScene& scene, bool search_everything);

  // Restart the sweep from its first tile.
  void reset() {
    sweep_index_ = 0;
    frame_index_ = 0;
  }
  const SearchPlannerOptions& options() const { return options_; }

 private:
  SearchPlannerOptions options_;
  long long sweep_index_ = 0;
  long long frame_index_ = 0;
};

// The coarsest quad decimation (1, 1.5, 2, 3 or 4) that leaves a tag of `pixels_per_cell` at least
// `min_decimated` pixels per cell.
double quad_decimate_for(double pixels_per_cell, double min_decimated);

// `r` with `by` pixels more on every side (not clipped to any image).
cv::Rect grown(cv::Rect r, int by);

// Cuts `region` into the fewest tiles of at most `max_area` pixels, neighbours overlapping by
// `overlap` pixels (so that anything up to `overlap` across lies whole in some tile). Tiles are not
// made narrower than twice the overlap, so a region may stay above `max_area`.
std::vector<cv::Rect> split_region(cv::Rect region, int max_area, int overlap);

}  // namespace diskref::vision
