#pragma once
// Placing ChArUco chessboard corners precisely (internal to calibration_board.cpp).
//
// OpenCV 4.6's interpolateCornersCharuco leaves its corners about half a pixel off in x and y
// (measured on rendered boards: +0.50, +0.48 px on average): it extrapolates each marker alone,
// aruco's marker quads are shrunk by about half a pixel on every side, and its cornerSubPix then
// stops at 0.1 px steps or has no room to move between the markers. So every corner it returns is
// placed again here:
//  1. a homography fitted to all the corners of the corner's nearest markers (one on each side,
//     so their shrinking cancels) gives the first estimate;
//  2. the corner is refined as the point that the image gradients around it point away from
//     (Förstner's estimator, as cornerSubPix), but only from the pixels of the two white margins
//     along the chessboard edges through the corner: a square window would take in the markers,
//     and the margins alone are too narrow for one.

#include <vector>

#include <opencv2/aruco/charuco.hpp>
#include <opencv2/core.hpp>

namespace diskref::calib {

// `ids`/`corners` as interpolateCornersCharuco returned them; corners are replaced in place.
// `marker_mm` is the side of the board's markers, in the board's units like its squares.
void place_charuco_corners(const cv::Mat& gray, const cv::aruco::CharucoBoard& board, double marker_mm,
                           const std::vector<std::vector<cv::Point2f>>& marker_corners,
                           const std::vector<int>& marker_ids, const std::vector<int>& ids,
                           std::vector<cv::Point2f>& corners);

}  // namespace diskref::calib
