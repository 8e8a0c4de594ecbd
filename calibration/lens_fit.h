#pragma once
// One lens fit from board views with one of OpenCV's distortion models, and how well a fit
// predicts views it was not made from (k-fold cross-validation over views). The RMS of a fit on
// its own views always falls as parameters are added; the held-out error does not, which is why
// the model and the views are chosen by it (docs/design/calibration.md).
//
// Why OpenCV's calibrateCamera and not libmrcal (measured, docs/development/mrcal.md; figures by
// scripts/mrcal_comparison.py in docs/figures/mrcal_comparison.md): fed the corners diskref finds,
// mrcal's OpenCV models predict about the same projection uncertainty as ours and miss the real
// LifeCam halves by similar factors, and its splined model misses the chessboard sets' halves too,
// whose views each move the lens far beyond their corners' noise: the gap is in those photographs,
// not in the optimiser. Adopting libmrcal would mean a new camera-file form and readers for its
// splined model and a C++ rewrite of its (Python-only) uncertainty; worth it only if, on a set
// taken to mrcal's recipe, its splined model's halves agree within their uncertainty where ours do not.

#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/camera_model.h"

namespace diskref::calib {

// OpenCV's distortion models, by their number of coefficients (spec §7).
enum class LensModel { k1k2p1p2 = 4, k3 = 5, rational = 8, thin_prism = 12, tilted = 14 };
inline constexpr LensModel kLensModels[] = {LensModel::k1k2p1p2, LensModel::k3, LensModel::rational,
                                            LensModel::thin_prism, LensModel::tilted};
// "k1 k2 p1 p2", "k3", "rational (8)", ...
std::string lens_model_name(LensModel model);
int coefficient_count(LensModel model);

struct LensFit {
  CameraModel camera;  // rms_px set; dist_coeffs has coefficient_count(model) entries
  double rms_px = 0;
  std::vector<double> view_rms_px;
  std::vector<cv::Vec3d> rvecs, tvecs;  // each view's board pose
};

// Thrown (with OpenCV's reason) when the views are degenerate for this model.
struct LensFitFailed : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// calibrateCamera with `model`, run to convergence: OpenCV's default 30-iteration run (started from
// `start` when given, else from OpenCV's own guess), then a refinement from that result with a
// tight stopping rule; the better of the two.
LensFit fit_lens(const std::vector<BoardView>& views, cv::Size image_size, LensModel model,
                 const CameraModel* start = nullptr);
// One OpenCV default run (30 iterations) started from `start` (a fit of the same model on more
// views): the many fits of a cross-validation, where each training set differs from the whole
// by a fold and starts near its optimum.
LensFit fit_lens_from(const std::vector<BoardView>& views, cv::Size image_size, LensModel model,
                      const CameraModel& start);

// Squared reprojection error summed over `views` and the number of corners, `camera` fixed and
// each view's board pose fitted to it: how well the lens predicts views it was not made from.
struct HeldOutError {
  double sum_sq_px = 0;
  std::size_t corners = 0;
  std::vector<double> view_sum_sq_px;  // each view's share, in the order the views were predicted
  double rms_px() const;
  HeldOutError& operator+=(const HeldOutError& other);
};
HeldOutError held_out_error(const CameraModel& camera, const std::vector<BoardView>& views);

// The folds of a k-fold split of n views: view i in fold i % folds (interleaved, so that views
// recorded one after another fall into different folds). folds = min(n, requested).
std::vector<int> fold_of_views(std::size_t n, int folds);

// k-fold cross-validation of `model` on `views`: each fold's views predicted by a fit on the others
// (started from `start`, a fit of the model on all the views, when given).
HeldOutError cross_validated_error(const std::vector<BoardView>& views, cv::Size image_size, LensModel model,
                                   int folds = 5, const CameraModel* start = nullptr);

}  // namespace diskref::calib
