#pragma once
// The camera planner (engine/model/camera_plan.h) on a calibrated camera: the lens as calibrated
// (distortion included), where the table pose puts it, or straight above the table before the
// pose is known.

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "engine/model/camera_plan.h"

namespace diskref::calib {

// The camera where the table pose puts it, with its lens.
model::CameraView camera_view(const CameraPose& pose);

// The calibrated lens straight above `over_mm` at `height_mm`, looking down, the image's long side
// along the table's x when `long_side_along_x` (as model::straight_above).
model::CameraView camera_view_straight_above(const CameraModel& lens, double height_mm, geom::Vec2 over_mm,
                                             bool long_side_along_x);

// The pinhole the planner's advice speaks of for this lens: its image size and horizontal field of
// view (from fx), at `height_mm`.
model::PinholeCamera planning_pinhole(const CameraModel& lens, double height_mm);

}  // namespace diskref::calib
