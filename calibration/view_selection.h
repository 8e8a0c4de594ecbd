#pragma once
// Choosing the views a lens calibration is made from: sharp, still, and not near-duplicates of
// each other (spec §7: "from images or from a video"). Every view left out is named with its
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
  std::string kind;    // "moving", "blurred", "near-duplicate", "too many views", "outlier"
  std::string reason;  // "blurred: edges 5.20 px wide (limit 3.00 px)"
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
                                          const std::string& name,
                                          DetectionEffort effort = DetectionEffort::thorough);

struct ViewSelectionOptions {
  // Blurred: edges wider than max(max_edge_width_px, relative_edge_width x the sharpest quarter's
  // width). The relative rule adapts to a soft lens; the absolute one keeps sharp sets strict.
  double max_edge_width_px = 3.0;
  double relative_edge_width = 1.5;
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
  std::vector<BoardView> kept;          // in the candidates' order
  std::vector<DroppedView> dropped;
  double edge_width_limit_px = 0;       // the blur limit that was applied
};

ViewSelection select_views(std::vector<ViewCandidate> candidates, cv::Size image_size,
                           const ViewSelectionOptions& options = {});

}  // namespace diskref::calib
