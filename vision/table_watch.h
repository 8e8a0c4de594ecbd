#pragma once
// Is anything but the disks over the play area — a hand or an arm, moving or held still, a board,
// something put down that is no known disk?
//
// The change detector compares each frame with the previous one, so a hand held still over the
// table disappears from it. The watch keeps the picture of the play area as it was when the table
// was last settled (the background, at the change detector's shrunk scale) and compares every
// frame with that: what differs from it (after bringing it to the frame's light row by row, and
// the brightness shift that remains: change_detector.h) where no known disk lies now and where
// none lay then is foreign, and the table is not quiet while there is any.
// A disk that moved leaves a difference at both places, and both are a disk's; a disk that landed
// where the tracker did not see it land (a face without a tag up) leaves one the tracker cannot
// explain, and the table stays unsettled: that is the safe error.
//
// A difference that has not changed at all for `absorb_after_s` becomes part of the table (a
// counter dropped on it, a card): otherwise the table would never settle again. A hand held that
// still for that long would be taken for the table too; real hands are never so still, the
// renderer's can be. What was taken in so and then goes again leaves the table as it was when it
// settled: that is no more foreign than before (a pixel is foreign only when it differs from both
// the background and the settled table's picture).
//
// Pure image arithmetic on small images: no table geometry (the caller says where the play area
// and the disks are, in shrunk pixels). Not thread-safe; one per pipeline.

#include <vector>

#include <opencv2/core.hpp>

namespace diskref::vision {

struct TableWatchOptions {
  // A shrunk pixel differs from the background when it is further than this from it (grey levels,
  // after the frame's median shift; as the change detector's threshold: noise of two frames).
  double threshold_levels = 8.0;
  // ... or this share of the brighter of its grey levels, where that is more (change_detector.h).
  double relative_threshold = 0.06;
  // Foreign once at least this many shrunk pixels of the play area differ unexplained.
  int min_foreign_pixels = 3;
  // An unexplained difference unchanged for this long becomes part of the background (s).
  double absorb_after_s = 5.0;
  // Bring the background to the frame's light row by row before comparing (change_detector.h's
  // row_light); false: a global brightness shift only (the benches' comparison).
  bool match_row_light = true;
};

struct TableWatchResult {
  bool foreign = false;    // something that is no known disk lies or hangs over the play area
  int foreign_pixels = 0;  // shrunk pixels of it
  cv::Rect foreign_box;    // where (shrunk pixels); empty when none
  // Its parts, each a connected group of differing pixels (shrunk pixels): a hand is one large
  // part, a counter on its edge a small one. Filled when `foreign`.
  std::vector<cv::Rect> foreign_parts;
  // The frame's brightness shift from the background (grey levels, the median difference over the
  // play area), for looking at a part again at full resolution (foreign_shapes.h).
  int shift_levels = 0;
};

class TableWatch {
 public:
  explicit TableWatch(TableWatchOptions options = {});

  // One frame. `small` and `changed_small`: the change detector's shrunk frame and change mask;
  // `play_area_small`: 255 over the play area (same size). `disks_small` is asked for only when
  // something differs from the background: it must then return a mask (same size) that is 255
  // wherever a known disk lies now or lay when the background was taken. A frame of another size
  // than the background restarts the watch (the frame becomes the background).
  template <typename DiskMask>
  TableWatchResult update(double t, const cv::Mat& small, const cv::Mat& changed_small, const cv::Mat& play_area_small,
                          DiskMask&& disks_small) {
    cv::Mat differing;
    if (!differs(t, small, changed_small, play_area_small, differing)) return {};
    return explain(t, small, differing, disks_small());
  }

  // The table is settled: this frame becomes the background.
  void adopt(const cv::Mat& small);
  bool has_background() const { return !background_.empty(); }
  void reset();

 private:
  // The pixels of the play area that differ from the background (false when none do).
  bool differs(double t, const cv::Mat& small, const cv::Mat& changed_small, const cv::Mat& play_area_small,
               cv::Mat& differing);
  TableWatchResult explain(double t, const cv::Mat& small, const cv::Mat& differing, const cv::Mat& disks_small);

  TableWatchOptions options_;
  // The magnitude of the difference from `reference` (after the frame's median shift), > threshold.
  // `shift`, if given, receives the median shift.
  cv::Mat differing_from(const cv::Mat& small, const cv::Mat& reference, const cv::Mat& play_area_small,
                         int* shift = nullptr) const;

  cv::Mat background_;     // CV_8U, shrunk
  cv::Mat settled_;        // the picture when the table last settled (background_ before anything was taken in)
  bool absorbed_ = false;  // something was taken into background_ since
  cv::Mat last_change_t_;  // CV_64F: when each shrunk pixel last changed from one frame to the next
  int shift_ = 0;          // the last frame's brightness shift from background_
};

}  // namespace diskref::vision
