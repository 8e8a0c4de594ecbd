#pragma once
// Calibrating a lens from board views (spec §7): OpenCV's pinhole model with five distortion
// coefficients k1 k2 p1 p2 k3, with outlier views removed and the fit's uncertainty reported.

#include <array>
#include <stdexcept>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/camera_model.h"
#include "calibration/view_selection.h"

namespace diskref::calib {

// The views cannot give a trustworthy calibration (too few, or they leave the image uncovered).
class CalibrationRefused : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

struct LensCalibrationOptions {
  // A view is an outlier when its RMS error exceeds both outlier_factor x the median view's and
  // the median + outlier_margin_px: a misdetected corner or a moving board, not just noise.
  double outlier_factor = 3.0;
  double outlier_margin_px = 0.25;
  int min_views = 3;
  // The views must reach over the image: their board outlines must cover at least this fraction
  // of it, and their corners at least this fraction of the cells of a 4 x 4 grid over it (the
  // distortion model is only measured where corners were seen).
  double min_area_coverage = 0.25;
  double min_cell_coverage = 0.5;
};

struct ViewError {
  std::string name;
  int corners = 0;
  double rms_px = 0;  // this view's RMS reprojection error
};

struct LensCalibration {
  CameraModel camera;           // rms_px is set
  double rms_px = 0;            // RMS over every corner of every kept view
  std::vector<ViewError> views; // the kept views
  std::vector<DroppedView> outliers;
  // One standard deviation of fx, fy, cx, cy (px) and k1, k2, p1, p2, k3, from the fit's
  // covariance (calibrateCamera's extended form).
  std::array<double, 9> intrinsic_std{};
  double area_coverage = 0;
  double cell_coverage = 0;
};

// Names of the intrinsics in LensCalibration::intrinsic_std order.
inline constexpr std::array<const char*, 9> kIntrinsicNames{"fx", "fy", "cx", "cy", "k1", "k2", "p1", "p2", "k3"};

// Calibrates from the views (all of `image_size`). Throws CalibrationRefused (the message says
// why) when fewer than min_views views remain or they do not cover the image.
//
// The fit is OpenCV's calibrateCamera on the views' corners, run to convergence: its default
// 30-iteration run, then a refinement started from that result with a tighter stopping rule,
// keeping whichever has the lower RMS; so the result is never worse than calibrateCamera's own on
// the same corners. Views whose error marks them as outliers are then dropped and the fit
// repeated, as long as that lowers the RMS.
LensCalibration calibrate_lens(const std::vector<BoardView>& views, cv::Size image_size,
                               const LensCalibrationOptions& options = {});

// RMS reprojection error (px) of `camera` on `views`, each view's board pose fitted to it: how well
// a given model explains a set of views (used to compare models on the same corners).
double reprojection_rms_px(const CameraModel& camera, const std::vector<BoardView>& views);

}  // namespace diskref::calib
