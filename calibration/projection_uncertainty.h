#pragma once
// How well a calibration knows where each part of the image looks: the projection uncertainty
// (after mrcal, "projection uncertainty"), and how far apart two calibrations of one camera map the
// image, which cross-validation compares with it (docs/design/calibration.md).
//
// Why our own covariance rather than libmrcal: the fit is OpenCV's calibrateCamera (its models are
// the ones the camera file and every reader carry), and calibrateCamera's stdDeviations are only
// the diagonal of the covariance; the projection uncertainty needs the whole intrinsic block with
// the board poses marginalised out. That is a few lines of normal equations over projectPoints'
// own Jacobian (below), whereas libmrcal would mean a second optimiser with its own lens models
// (and a C/Python API without OpenCV's rational/thin-prism/tilted models in the same form), whose
// result the camera file could not carry. Measured on the same corners (docs/development/mrcal.md),
// mrcal's own uncertainty for the same models is about this one, and misses the same real halves.
//
// Definition (mrcal's, simplified): the corners' noise sigma is measured from the fit's residuals
// (sum of squares over 2 x corners - parameters); the intrinsics' covariance is sigma^2 times the
// inverse of the normal matrix with the views' board poses marginalised out (Schur complement). A
// point seen at a pixel is projected again through the perturbed intrinsics; a common rotation of
// the camera frame is removed (a table pose, fitted later, absorbs it; mrcal removes the same
// through the boards' frames), fitted over the central 80 % of the image. The uncertainty at a
// pixel is one standard deviation of that projection in its worst direction. Only rays matter: for
// a point at any distance, the table's included, the pixel it projects to depends on its ray alone
// once the frame is aligned.

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/calibration_board.h"
#include "calibration/camera_model.h"
#include "calibration/lens_fit.h"

namespace diskref::calib {

struct LensCovariance {
  double corner_sigma_px = 0;  // per coordinate, from the residuals
  cv::Mat intrinsics;          // covariance of fx fy cx cy d1..dn (CV_64F, (4+n) x (4+n))
  int degrees_of_freedom = 0;  // 2 x corners - parameters
};

// The covariance of `fit` on `views` (those it was made from, in the same order).
LensCovariance lens_covariance(const LensFit& fit, const std::vector<BoardView>& views);

// The projection uncertainty (px, one sigma, worst direction) at each pixel of `pixels`.
std::vector<double> projection_sigma_px(const CameraModel& camera, const LensCovariance& covariance,
                                        const std::vector<cv::Point2d>& pixels);

// Pixels of a cols x rows grid whose outer nodes are the image's corner pixels (UncertaintyGrid's).
std::vector<cv::Point2d> grid_nodes(cv::Size image_size, int cols, int rows);
// The same grid over the central `fraction` of the image (each side: the middle fraction).
std::vector<cv::Point2d> central_grid(cv::Size image_size, int cols, int rows, double fraction);

// The uncertainty grid a camera file carries (spec §7).
UncertaintyGrid uncertainty_grid(const CameraModel& camera, const LensCovariance& covariance, int cols = 16,
                                 int rows = 9);

// How far apart (px, in `b`'s image) two lenses map each of `pixels`, after the rotation of one
// camera frame onto the other that best aligns their rays over the central 80 % of the image.
std::vector<double> lens_difference_px(const CameraModel& a, const CameraModel& b,
                                       const std::vector<cv::Point2d>& pixels);

// Unit rays (camera frame) of raw pixels, undistorted to convergence.
std::vector<cv::Vec3d> unit_rays(const CameraModel& camera, const std::vector<cv::Point2d>& pixels);
// Kabsch: the rotation taking the unit vectors `from` onto `to` best (least squares).
cv::Matx33d best_rotation(const std::vector<cv::Vec3d>& from, const std::vector<cv::Vec3d>& to);

// Summary of a set of per-pixel figures.
struct Spread {
  double median = 0, p90 = 0, max = 0;
};
Spread spread_of(std::vector<double> values);

}  // namespace diskref::calib
