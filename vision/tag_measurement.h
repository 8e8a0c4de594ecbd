#pragma once
// From a detected tag's four image corners to the tag's pose on the table, with its uncertainty.
//
// The corners (raw pixels, OpenCV convention, apriltag order) are lens-corrected and intersected
// with the plane `height_mm` above the table through the table pose (points only, never whole
// images), then a square of the registry's size is fitted to them (tag_square_fit.h).
//
// Uncertainty: the corner noise (pixels, per coordinate) is estimated from the fit's residuals,
// pooled with a prior for the detector's corner precision (4 corners leave only 5 degrees of
// freedom, so the residuals alone are a noisy estimate); it is propagated to the centre and the
// heading through the local Jacobian of the image-to-table map at the tag.

#include <array>
#include <optional>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "vision/tag_square_fit.h"

namespace diskref::vision {

struct TagMeasurementOptions {
  // Prior for the detector's corner noise, pixels per coordinate (apriltag refines edges to about
  // 0.05-0.1 px on sharp images), and its weight in degrees of freedom.
  double prior_corner_sigma_px = 0.1;
  double prior_dof = 5;
  // The detector's bias for the centre of a tag lying still, per image axis (pixels): the same
  // pixels every frame give the same error, which averaging frames does not remove. It comes
  // from where the tag's edges fall on the pixel grid (their sub-pixel phase), so it differs
  // from tag to tag and place to place: a spread, not an offset. Along an edge that crosses many
  // pixel rows (or columns) the phase runs through many cycles and its error averages out down to
  // `still_bias_px`; an edge lying along the grid sees one phase over its whole length, and keeps
  // up to `grid_locked_bias_px` more. Averaging a periodic error over c cycles leaves at most
  // 1/(pi c) of it, so the locked share is weighted by min(1, 1/(pi c)^2) per edge, c the pixel
  // rows the edge crosses. Both measured by `bench/track_error_parts --fit` — the detected
  // corners' mean against the exact projection of the true corners — over 170 rests of still
  // disks and corner markers (10 frames or more) in 15 rendered sessions (the 12 cameras of
  // simulator/session_variety.h and the duel, crowded and small-tags-4k scenarios: 720p to 4K,
  // sharp to soft, straight down to 30 degrees), each axis of each rest's bias a normal draw of
  // variance still² + locked² x share: the likeliest pair (0.013, 0.066 px) covers 93 % of the
  // biases at 2 sigma (they are heavy-tailed: RMS of bias over sigma 1.01, 74 % within 1), so both
  // are taken 1.18 times larger, which covers 95 % (81 % within 1). The renders place edges as a
  // pixel's integral does (simulator/supersample_pattern.h), so these are the detector's own.
  double still_bias_px = 0.0153;
  double grid_locked_bias_px = 0.0776;
};

// The detector's bias for the centre of a tag lying still whose corners are seen at
// `corners_px`, per image axis (pixels): still_bias_px, and grid_locked_bias_px weighted by how
// much of the tag's edges lie along the pixel grid (grid_locked_share).
double still_bias_px(const std::array<cv::Point2d, 4>& corners_px, const TagMeasurementOptions& options);

struct TagMeasurement {
  TagSquareFit fit;                       // table frame, mm, at the tag's height
  cv::Matx22d table_from_image_jacobian;  // mm per pixel at the tag: d(table xy) / d(pixel xy)
  double pixels_per_mm = 0;               // the tag's mean scale in the image
  double corner_sigma_px = 0;             // estimated corner noise, per coordinate
  // RMS per coordinate (pixels) of the corners' departure from a square of free size: how far the
  // tag is from lying flat on its plane (tilted in a flip, lifted, smeared by motion).
  double shape_residual_px = 0;
  double side_px = 0;               // the tag's mean side in the image
  double center_sigma_mm = 0;       // 1-sigma of the centre along any direction (RMS over directions)
  double center_bias_sigma_mm = 0;  // the detector's still bias at the centre, the same way
  double center_bias_px = 0;        // that bias in pixels (still_bias_px and the grid-locked share)
  double heading_sigma_deg = 0;
};

// How much of the grid-locked bias a tag with these image corners keeps (0..1): the mean over its
// edges of min(1, 1/(pi c)^2), c the pixel rows or columns the edge crosses (TagMeasurementOptions).
double grid_locked_share(const std::array<cv::Point2d, 4>& corners_px);

// nullopt when a corner's ray misses the plane (behind the camera) or the quad is degenerate.
std::optional<TagMeasurement> measure_tag(const calib::CameraPose& pose, const std::array<cv::Point2d, 4>& corners_px,
                                          double size_mm, double height_mm, const TagMeasurementOptions& options = {});

}  // namespace diskref::vision
