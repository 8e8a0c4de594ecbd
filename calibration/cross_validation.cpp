#include "calibration/cross_validation.h"

#include <cmath>

namespace diskref::calib {

CalibrationComparison compare_calibrations(const LensCalibration& a, const LensCalibration& b) {
  CalibrationComparison out;
  const std::vector<cv::Point2d> grid = central_grid(b.camera.image_size, 32, 18, 0.8);
  out.difference_px = lens_difference_px(a.camera, b.camera, grid);
  const std::vector<double> sa = projection_sigma_px(a.camera, a.covariance, grid);
  const std::vector<double> sb = projection_sigma_px(b.camera, b.covariance, grid);
  int within = 0;
  for (std::size_t i = 0; i < grid.size(); ++i) {
    out.predicted_sigma_px.push_back(std::hypot(sa[i], sb[i]));
    within += out.difference_px[i] <= 2 * out.predicted_sigma_px[i];
  }
  out.difference = spread_of(out.difference_px);
  out.predicted = spread_of(out.predicted_sigma_px);
  out.within_2_sigma = grid.empty() ? 0 : static_cast<double>(within) / static_cast<double>(grid.size());
  return out;
}

SplitCrossValidation cross_validate_halves(const std::vector<BoardView>& views, cv::Size image_size,
                                           const LensCalibrationOptions& options) {
  std::vector<BoardView> even, odd;
  for (std::size_t i = 0; i < views.size(); ++i) (i % 2 ? odd : even).push_back(views[i]);
  SplitCrossValidation out;
  out.first = calibrate_lens(even, image_size, options);
  out.second = calibrate_lens(odd, image_size, options);
  out.comparison = compare_calibrations(out.first, out.second);
  return out;
}

}  // namespace diskref::calib
