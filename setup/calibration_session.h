#pragma once
// The lens calibration of a setup, fed frame by frame (a live camera, or a video): every frame is
// searched for the board and the view found is judged at once, by the rules `diskref calibrate`
// applies to a whole set (calibration/view_selection.h: moving, near-duplicate), so that
// the person holding the board sees what counts while holding it. A map of the image shows where
// corners have been seen; the advice says where the board is still needed, how many views are
// tilted, and when the board has not been found for a while. Then the lens is calibrated from the
// views kept (calibration/lens_calibration.h) and its projection uncertainty explained.

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/lens_calibration.h"
#include "calibration/uncertainty_map.h"
#include "calibration/view_selection.h"
#include "print/board_pattern.h"
#include "setup/advice.h"

namespace diskref::setup {

// The calibration library's board for a printed one (print/board_pattern.h; ChArUco boards use
// the dictionary print draws, DICT_5X5_100).
calib::BoardSpec calibration_board(const print::BoardSpec& board);

// The coverage map's grid over the image (columns x rows), for drawing.
inline constexpr int kCoverageColumns = 8;
inline constexpr int kCoverageRows = 6;
// What it takes: at least this many views kept, this many of them tilted (a board seen only
// face-on leaves the focal length to guesswork), and the library's coverage (LensCalibrationOptions).
inline constexpr int kWantedViews = 12;
inline constexpr int kWantedTiltedViews = 4;
// No board for this long (seconds of the source) is said, with what to check.
inline constexpr double kNoBoardSayAfterS = 5;
// From this many views kept, the lens is fitted as views come and its worst-known region said.
inline constexpr int kWorstRegionViews = 6;

struct FrameVerdict {
  double t = 0;
  bool found = false;
  bool accepted = false;
  std::vector<cv::Point2f> corners;  // the board's corners as found (raw pixels), for drawing
  std::string text;                  // "kept: view 7", "not kept: near-duplicate of 1.50 s (...)", "no board found"
  std::string brief;  // the same in a few words, to write over the picture: "kept", "not kept: near-duplicate"
};

class CalibrationSession {
 public:
  CalibrationSession(const print::BoardSpec& board, cv::Size image_size);

  // One frame (8-bit grey) at source time `t`; `previous` is the frame just before it (empty for a
  // still image), to tell a moving board.
  FrameVerdict add_frame(const cv::Mat& gray, const cv::Mat& previous, double t);

  cv::Size image_size() const { return image_size_; }
  int views_kept() const { return static_cast<int>(kept_.size()); }
  int tilted_views() const;
  // Corners kept per cell of a kCoverageColumns x kCoverageRows grid over the image (CV_32S).
  cv::Mat coverage() const;
  // As calibrate_lens measures them: boards' outlines over the image, corners over a 4 x 4 grid.
  double area_coverage() const;
  double cell_coverage() const;
  // Enough views, tilted ones and coverage to calibrate.
  bool ready() const;
  // What to do next (where the board is still needed, how to hold it), or what is wrong.
  // `with_worst_region` false leaves out where the lens is known worst so far: once calibrated, the
  // calibration's own region (explain_calibration, and the rectangle drawn) says it instead.
  std::vector<Advice> advice(double now_t, bool with_worst_region = true) const;
  // The last verdicts, newest last (at most 12).
  const std::vector<FrameVerdict>& recent() const { return recent_; }
  double last_found_t() const { return last_found_t_; }
  // Where the lens is known worst so far (a quick fit of the views kept, refreshed as views are
  // kept, from kWorstRegionViews views on), and its projection uncertainty there (px, the worst
  // node of that region, so that the words and the rectangle drawn agree): "show the board here".
  // Empty before.
  const std::string& worst_known_region() const { return worst_region_; }
  double worst_known_sigma_px() const { return worst_sigma_px_; }
  // The same region as a ninth of the picture with its uncertainty, to draw ("show the board here").
  const std::optional<calib::WorstKnownRegion>& worst_known() const { return worst_; }

  // Calibrates from the views kept. Throws calib::CalibrationRefused (its message says why).
  calib::LensCalibration calibrate() const;

 private:
  calib::BoardSpec board_;
  cv::Size image_size_;
  std::vector<calib::ViewCandidate> kept_;
  std::vector<FrameVerdict> recent_;
  double first_t_ = -1;
  double last_found_t_ = -1;
  int frames_ = 0;
  int views_found_ = 0;
  std::string worst_region_;
  double worst_sigma_px_ = 0;
  std::optional<calib::WorstKnownRegion> worst_;

  void update_worst_region();
};

// What a calibration means for the referee, in a sentence, judged by its projection uncertainty
// over the central 80 % of the picture (90th percentile: ok below 0.5 px, a note below 1 px, else
// a problem), with the region known worst (where to show the board again). The RMS is mentioned,
// not judged.
Advice explain_calibration(const calib::LensCalibration& calibration);

}  // namespace diskref::setup
