#pragma once
// Cross-validation of a lens calibration, as mrcal does it: two calibrations of the same camera
// (two halves of one set of views, or two recordings) should map the image alike, within their
// predicted projection uncertainty. The difference between them, over the central 80 % of the
// image, is the honest check a user can run on their own camera (docs/design/calibration.md).

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/lens_calibration.h"

namespace diskref::calib {

struct CalibrationComparison {
  // Per point of a grid over the central 80 % of the image: how far apart the two lenses map it
  // (px, after aligning the camera frames), and the predicted one sigma of that difference
  // (sqrt(sigma_a^2 + sigma_b^2), worst directions).
  std::vector<double> difference_px, predicted_sigma_px;
  Spread difference, predicted;
  double within_2_sigma = 0;  // share of the points where the difference is within 2 predicted sigma
};

// Compares two calibrations of one camera mode (same image size).
CalibrationComparison compare_calibrations(const LensCalibration& a, const LensCalibration& b);

struct SplitCrossValidation {
  LensCalibration first, second;  // from the even and the odd views
  CalibrationComparison comparison;
};

// Splits `views` into two halves (alternate views, so each half spans the recording) and
// calibrates each with `options` (the model is usually forced to the full set's choice so that
// both halves measure the same model).
SplitCrossValidation cross_validate_halves(const std::vector<BoardView>& views, cv::Size image_size,
                                           const LensCalibrationOptions& options);

}  // namespace diskref::calib
