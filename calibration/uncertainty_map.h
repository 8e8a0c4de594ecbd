#pragma once
// The projection uncertainty over the image as a picture (`diskref calibrate --uncertainty-map`),
// and the region of the image that is known worst ("show the board here").

#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/camera_model.h"
#include "calibration/projection_uncertainty.h"

namespace diskref::calib {

// A colour picture of the image's size: the uncertainty (px, one sigma) as colour on a logarithmic
// scale, contours at 0.1, 0.2, 0.5, 1, 2 and 5 px labelled, and the corners of the views as dots.
cv::Mat draw_uncertainty_map(const CameraModel& camera, const LensCovariance& covariance,
                             const std::vector<BoardView>& views);

// Where a cell of a columns x rows grid over the image lies, in words, in a 3 x 3 split of the
// image: "top-left corner", "right edge", "middle".
std::string image_region_name(int column, int row, int columns, int rows);

// The ninth of the image (a 3 x 3 split) where the lens is known worst: the one whose grid nodes'
// mean uncertainty is highest (a mean, so that one node at an image corner does not outweigh a
// whole edge known poorly). "Show the board here" on the setup screen draws `rect_px`.
struct WorstKnownRegion {
  std::string name;          // "top-left corner", "right edge", "middle"
  cv::Rect2d rect_px;        // that ninth of the image, raw pixels
  double mean_sigma_px = 0;  // over the grid nodes in it (px, one sigma)
  double max_sigma_px = 0;
};
// From the camera file's grid; nullopt without one.
std::optional<WorstKnownRegion> worst_known_ninth(const CameraModel& camera);

// Where the uncertainty is worst, in a 3 x 3 split of the image: "top-left corner", "right edge",
// "middle" (worst_known_ninth's name). Empty without a grid.
std::string worst_known_region(const CameraModel& camera);

}  // namespace diskref::calib
