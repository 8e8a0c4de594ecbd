#pragma once
// Choosing the views a lens calibration is made from: still, and not near-duplicates of each
// other (spec §7: "from images or from a video"). Every view left out is named with its
// reason, so that the calibrate command can say what it did.

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"

namespace diskref::calib {

// A view that was left out, and why.
struct DroppedView {
  std::string name;
  std::string kind;    // "moving", "near-duplicate", "too many views", "outlier"
  std::string reason;  // "moving: board moved 2.10 px since the previous frame (limit 1.00 px)"
};

// A view found in an image or video frame, with the measures selection needs.
struct ViewCandidate {
  BoardView view;
  std::optional<double> edge_width_px;  // see edge_width_px() in view_quality.h
  std::optional<double> motion_px;      // videos: board motion since the previous frame
};

// Finds the board in `gray` and measures it. `previous_gray` (the video frame before, or an empty
// Mat for still images) gives the board's motion. nullopt when the board is not found.
std::optional<ViewCandidate> examine_view(const cv::Mat& gray, const cv::Mat& previous_gray, const BoardSpec& board,
                                          const std::string& name, DetectionEffort effort = DetectionEffort::thorough);

struct ViewSelectionOptions {
  // Blur alone drops no view: a soft view still carries good corners (the sub-pixel corner search
  // does not need a sharp edge), and the soft views are often the far ones that reach the image's
  // corners. The edge width only decides which of two near-duplicates is kept (the sharper), and
  // the calibration judges each view by what it does to the others (lens_calibration.h).
  // Moving (videos): board corners moved more than this between consecutive frames. Motion blurs
  // and, with a rolling shutter, skews the board.
  double max_motion_px = 1.0;
  // Near-duplicate: mean corner distance to a sharper kept view below this fraction of the image
  // diagonal. Duplicates add no information but weight one pose more than the others.
  double duplicate_fraction = 0.01;
  // At most this many views are kept; beyond it the most alike are thinned out.
  int max_views = 40;
};

struct ViewSelection {
  std::vector<BoardView> kept;  // in the candidates' order
  std::vector<DroppedView> dropped;
};

ViewSelection select_views(std::vector<ViewCandidate> candidates, cv::Size image_size,
                           const ViewSelectionOptions& options = {});

}  // namespace diskref::calib
