#pragma once
// How far off the table pose may put a point on the table: the calibration's share of a disk's
// sigma_mm (per axis, mm).
//
// With a calibrated lens the pinhole model is right and the markers' own fit (RMS distance of their
// corners mapped back onto the table) measures the noise of the pose. Without one (spec §5: no lens
// correction), the model itself is wrong by the lens's distortion, and the fit's residuals at the
// very points it was fitted to understate that: each corner marker is then left out in turn, the
// pose fitted to the others, and the left-out marker's corners mapped onto the table with it. The
// RMS of those prediction errors is the error at a place the fit did not see, which is what a
// disk is.

#include <optional>
#include <vector>

#include "calibration/camera_pose.h"

namespace diskref::vision {

// `markers`: the observations the pose was fitted to (or recent ones); `lens` as for
// estimate_camera_pose. Leave-one-out needs 3 markers; with fewer, the fit's own RMS is used.
double table_pose_sigma_mm(const model::TableSpec& table, const calib::CameraPose& pose, const std::vector<calib::MarkerObservation>& markers,
                           const std::optional<calib::CameraModel>& lens, cv::Size image_size);

}  // namespace diskref::vision
