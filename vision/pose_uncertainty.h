#pragma once
// How far off the table pose may put a point of the table: the pose's share of a disk's
// sigma_mm, at that disk's place (per axis, mm), and how far a point moves per millimetre that its
// tag lies higher or lower than assumed (the thickness lift).
//
// The pose is fitted to the corner markers' corners. Their errors are of two kinds: what differs
// from corner to corner (noise, much reduced by taking the median over frames), and what the four
// corners of one marker share — the detector's bias for a tag lying still (tag_measurement.h), a
// fraction of a pixel that no averaging over frames removes and the residuals cannot show (a fit
// absorbs most of it), larger for a marker whose edges lie along the pixel grid.
// Both go into the covariance of the pose's parameters (rotation, translation and, without a calibrated
// lens, the focal length of the estimated pinhole), which is carried to each table point through
// the map from a fixed pixel to the table: a point between the markers is known better than one
// beyond them.
//
// Without a calibrated lens the pinhole is also wrong by the lens's distortion, which no
// covariance shows: each marker is then left out in turn, the pose fitted to the others, and the
// left-out marker's corners mapped onto the table with it; the RMS of those prediction errors is a
// floor for every point (a place the fit did not see, as a disk is).
//
// Built once per pose (a grid over the play area, interpolated); queries are cheap.

#include <optional>
#include <vector>

#include "calibration/camera_pose.h"
#include "engine/model/table_spec.h"
#include "vision/tag_measurement.h"

namespace diskref::vision {

struct PoseUncertaintyOptions {
  // The detector's bias for a marker lying still: what its four corners share. A marker is a tag
  // like any other (tag_measurement.h: still_bias_px), and as the table's axes usually run along
  // the camera's, its edges often lie along the pixel grid and keep the most of it. The tracker
  // gives its own TrackerOptions::measurement here.
  TagMeasurementOptions detector;
  // The corners' own noise, per coordinate (pixels), after the median over frames: at least this...
  double min_corner_noise_px = 0.03;
  // ...and what the corners' noise in one frame (per coordinate, pixels; 0: not measured, see
  // frame_corner_noise_px) leaves in the median of `median_frames` frames: pi / (2 k) of its
  // variance. Dim light and a noisy sensor move the corners more from frame to frame, and the
  // pose is fitted to a median of a few frames: its error grows with that noise.
  double frame_corner_noise_px = 0;
  double median_frames = 1;
};

// The corner markers' corner noise in one frame (pixels, per coordinate, RMS over the corners):
// from the differences between successive frames (a slow drift hardly shows in them), each of
// twice that variance. Frames that repeat the one before exactly (a webcam delivering a frame
// twice) are skipped: they are one picture. 0 when there are fewer than two frames.
double frame_corner_noise_px(const std::vector<std::vector<calib::MarkerObservation>>& frames);

class PoseUncertainty {
 public:
  // `markers`: the observations the pose was fitted to (or recent ones); `lens` as for
  // estimate_camera_pose (absent: the pose's pinhole was estimated from the markers).
  PoseUncertainty(const model::TableSpec& table, const calib::CameraPose& pose,
                  const std::vector<calib::MarkerObservation>& markers, const std::optional<calib::CameraModel>& lens,
                  cv::Size image_size, PoseUncertaintyOptions options = {});

  // Per-axis 1-sigma (RMS over directions) of the table point at `p`, `height_mm` above the table,
  // due to the pose.
  double sigma_mm(geom::Vec2 p, double height_mm) const;
  // How far (mm) the point seen at `p` moves on the table per mm of height error: its horizontal
  // distance from the camera over the camera's height above it.
  double lift_per_mm(geom::Vec2 p, double height_mm) const;
  // The lens's own share at `p` (issue 37): the calibration's projection uncertainty where `p` is
  // seen (the camera file's grid, spec §7; 0 without one), carried onto the table through the
  // local scale (mm per pixel) there. Per axis, 1 sigma, worst direction. Kept apart from sigma_mm
  // so that the tracker adds it where it adds the lift: hypot(pose, lift, lens).
  double lens_sigma_mm(geom::Vec2 p, double height_mm) const;
  // The floor from leaving markers out (0 with a calibrated lens), per axis.
  double model_floor_mm() const { return model_floor_mm_; }

 private:
  double sigma_from_covariance(geom::Vec2 p, double height_mm) const;

  calib::CameraPose pose_;
  std::vector<double> covariance_;  // parameters x parameters, row-major
  int parameters_ = 6;              // 7 when the pinhole's focal length is a parameter too
  double model_floor_mm_ = 0;
  // sigma_from_covariance on a grid over the play area (and a margin), at the grid's height.
  geom::Vec2 grid_origin_{};
  geom::Vec2 grid_step_{};
  int grid_nx_ = 0, grid_ny_ = 0;
  double grid_height_mm_ = 2.0;
  std::vector<double> grid_;
};

}  // namespace diskref::vision
