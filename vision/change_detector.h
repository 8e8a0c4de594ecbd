#pragma once
// Cheap image-change detection: where did the picture change since the previous frame?
//
// Frames are shrunk by an integer factor (averaging, which also averages sensor noise away: area
// averaging for grey frames; for colour frames a cheap bilinear shrink to twice the target size,
// grey conversion of that small image, then area averaging), and compared with the previous one.
// The light is matched first: the previous frame is brought to this one's light row by row (a
// webcam's light changes smoothly across the rows and from frame to frame — mains flicker through a
// rolling shutter, auto-exposure — multiplying a row's pixels alike: row_light), and what global
// brightness shift remains is removed (the median difference); then differences above
// `threshold_levels` grey levels mark a small pixel as changed. Changed pixels are grown by one small pixel and
// grouped; each group's bounding box, scaled back to full-resolution pixels, is a changed region.
//
// Used twice: to search only where something changed (a hand placing a disk, a disk sliding out
// of its search window), and to tell whether the table is quiet (nothing moving over it).
// Not thread-safe (it keeps the previous frame); one per pipeline.

#include <vector>

#include <opencv2/core.hpp>

namespace diskref::vision {

struct ChangeDetectorOptions {
  // The shrunk image is about this many pixels wide (the factor is an integer >= 1).
  int target_width = 240;
  double threshold_levels = 8.0;
  // ... or this share of the brighter of the pixel's two grey levels, where that is more: light that
  // changed by a few per cent where the rows' matching does not reach (a video codec keeps a block
  // of an earlier frame through a flicker's ripple; a bright part of a row lit a little unlike the
  // rest). A disk or a hand differs by far more than this from what it covers.
  double relative_threshold = 0.06;
  // Groups smaller than this many small pixels are noise.
  int min_region_pixels = 2;
  // A region changed in any of this many previous frames and quiet now has "just ended" changing.
  int ended_frames = 2;
  // Bring the previous frame to this one's light row by row before comparing (row_light); false:
  // a global brightness shift only (the benches' comparison).
  bool match_row_light = true;
};

struct ChangeResult {
  bool first_frame = true;              // nothing to compare with yet
  std::vector<cv::Rect> regions;        // changed since the previous frame, full-resolution pixels
  std::vector<cv::Rect> ended_regions;  // changed in the last ended_frames frames, quiet now
  cv::Mat changed_small;                // CV_8U mask (255 = changed) at the shrunk scale
  cv::Mat small;                        // the frame itself, shrunk and grey (CV_8U)
  int scale = 1;                        // full-resolution pixels per shrunk pixel
};

// The median of a CV_16S difference image's values (within [-255, 255]), over the pixels where
// `mask` (CV_8U, same size) is non-zero, or over all of them without a mask; 0 when none count.
// A global brightness shift (auto-exposure, flicker) shows as this median.
int median_difference(const cv::Mat& diff16, const cv::Mat& mask = {});
// |diff16 - shift| averaged over 3 x 3 (CV_32F): a CV_16S difference image with the frame's
// brightness shift taken out, in which one noisy pixel falls low and a part a few pixels wide keeps
// most of its contrast (table_watch.h at the shrunk scale, foreign_shapes.h at full resolution).
cv::Mat mean_abs_difference(const cv::Mat& diff16, int shift);

// The light of each row of `now` relative to `before` (two CV_8U images of one size; CV_32F, one
// value a row): the median ratio over the row's brightest pixels it has enough of (grey level 96
// and up, else 48, else 16: dark pixels tell a ratio in coarse 8-bit steps; a row with too few
// takes its nearest neighbour's, 1 when none has enough), then the median over 5 rows. A moving
// disk or a hand covers too little of a row to move its median; where a hand covers most of a
// row, the rest of the row is what differs (changed either way).
cv::Mat row_light(const cv::Mat& now, const cv::Mat& before);
// now - before (CV_16S), with `before` first brought to `now`'s light row by row (row_light).
// With `match_row_light` false, the plain difference.
cv::Mat relit_difference(const cv::Mat& now, const cv::Mat& before, bool match_row_light = true);
// Clears the groups of changed pixels (CV_8U, 255 = changed; 8-connected) of at most
// `max_pixels` whose differences stay within twice their thresholds (`magnitude` and `thresholds`
// CV_32F, one size): a speck the size of a video codec's block just over its threshold is the
// codec's (JPEG or H.264 quantizing noise, or a ripple of light, differently from one frame to
// the next), not a disk or a hand — those change more pixels, or differ by far more.
void drop_codec_specks(cv::Mat& changed, const cv::Mat& magnitude, const cv::Mat& thresholds, int max_pixels);
// The least difference that counts at each pixel (CV_32F): `levels`, or `relative` of the brighter
// of `now` and `before` (CV_8U, one size) where that is more.
cv::Mat difference_thresholds(const cv::Mat& now, const cv::Mat& before, double levels, double relative);

class ChangeDetector {
 public:
  explicit ChangeDetector(ChangeDetectorOptions options = {});

  // `image`: 8-bit grey or BGR frame. Restarts (first_frame) when the frame size changes.
  ChangeResult update(const cv::Mat& image);

  // Fraction of the shrunk pixels inside `mask_small` (same size as the shrunk image, 255 = counts)
  // that changed in `result`; 0 without a previous frame.
  static double changed_fraction(const ChangeResult& result, const cv::Mat& mask_small);
  // The shrinking factor for a frame of this width.
  int scale_for(int width) const;

 private:
  std::vector<cv::Rect> regions_of(const cv::Mat& mask_small, int scale, cv::Size image_size) const;

  ChangeDetectorOptions options_;
  cv::Mat previous_small_;
  std::vector<cv::Mat> history_;  // the last ended_frames changed masks
};

}  // namespace diskref::vision
