#pragma once
// Calibrating a lens from board views (spec §7): OpenCV's pinhole model with the distortion model
// (4, 5, 8, 12 or 14 coefficients) that best predicts views held out of the fit, keeping every view
// unless it makes the lens worse on the others, with the fit's projection uncertainty over the
// image (docs/design/calibration.md).

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/camera_model.h"
#include "calibration/lens_fit.h"
#include "calibration/projection_uncertainty.h"
#include "calibration/view_selection.h"

namespace diskref::calib {

// The views cannot give a trustworthy calibration (too few, or they leave the image uncovered).
class CalibrationRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LensCalibrationOptions {
  // A view is suspect when its RMS error exceeds both outlier_factor x the median view's and the
  // median + outlier_margin_px. A suspect is dropped only when the other views, held out in turn,
  // are predicted worse with it in the fit than without it: a misdetected corner or a moving board
  // hurts the others; a soft view that only has noisier corners does not.
  double outlier_factor = 3.0;
  double outlier_margin_px = 0.25;
  // ... worse by more than this fraction: a view of noisier but unbiased corners changes the
  // others' held-out error by less (noise), a misdetected one by much more.
  double suspect_harm = 0.01;
  int max_suspects = 8;  // the worst this many suspects are tried (each costs 2 x folds fits)
  int min_views = 3;
  // Folds of the cross-validation over views (fewer when there are fewer views).
  int folds = 5;
  // A richer lens model is chosen only when it predicts the held-out views better than the simpler
  // choice, view by view, beyond chance: the paired differences of each view's held-out squared
  // error have a mean above this many standard errors. (A fixed margin either threw away the true
  // k3 of the sample chessboard clip, 0.7 % better but on every view, or let rich models in on
  // noise-level gains that extrapolate wildly at the image's corners.)
  double richer_model_t = 2.0;
  // The model to use instead of choosing one (still cross-validated and reported).
  std::optional<LensModel> model;
  // The views must reach over the image: their board outlines must cover at least this fraction
  // of it, and their corners at least this fraction of the cells of a 4 x 4 grid over it (the
  // distortion model is only measured where corners were seen).
  double min_area_coverage = 0.25;
  double min_cell_coverage = 0.5;
  // The camera file's uncertainty grid (nodes across, down).
  int grid_cols = 16, grid_rows = 9;
};

struct ViewError {
  std::string name;
  int corners = 0;
  double rms_px = 0;    // this view's RMS reprojection error in the final fit
  std::string verdict;  // why it is kept ("typical error", or the cross-validation's figures)
};

// One lens model's figures: its fit's RMS on all kept views, and its k-fold held-out RMS.
struct ModelScore {
  LensModel model = LensModel::k3;
  double fit_rms_px = 0;
  double held_out_rms_px = 0;
};

struct LensCalibration {
  CameraModel camera;  // rms_px and uncertainty set
  LensModel model = LensModel::k3;
  double rms_px = 0;               // RMS over every corner of every kept view (printed; not the figure of merit)
  std::vector<ModelScore> models;  // every model tried, simplest first
  std::vector<ViewError> views;    // the kept views
  std::vector<DroppedView> outliers;
  LensCovariance covariance;
  // One standard deviation of fx, fy, cx, cy (px) and each distortion coefficient.
  std::vector<double> intrinsic_std;
  double area_coverage = 0;
  double cell_coverage = 0;
  Spread uncertainty_central;  // projection uncertainty over the central 80 % of the image (px)
  Spread uncertainty_whole;    // and over the whole image
};

// Names of the intrinsics in LensCalibration::intrinsic_std order ("fx", ..., "k1", ...).
std::vector<std::string> intrinsic_names(const CameraModel& camera);

// Calibrates from the views (all of `image_size`). Throws CalibrationRefused (the message says
// why) when fewer than min_views views remain or they do not cover the image.
LensCalibration calibrate_lens(const std::vector<BoardView>& views, cv::Size image_size,
                               const LensCalibrationOptions& options = {});

// RMS reprojection error (px) of `camera` on `views`, each view's board pose fitted to it.
double reprojection_rms_px(const CameraModel& camera, const std::vector<BoardView>& views);

}  // namespace diskref::calib
