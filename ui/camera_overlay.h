#pragma once
// From the table frame to the camera view on the screen: table millimetres (at a height above
// the table) -> raw image pixels (through the calibration's table pose, lens distortion included)
// -> window pixels (through the view's fit).

#include <vector>

#include "calibration/camera_pose.h"
#include "ui/view_transform.h"

namespace diskref::ui {

std::vector<Vec2> screen_from_table(const calib::CameraPose& pose, const ImageViewTransform& view,
                                    const std::vector<Vec2>& table_mm, double height_mm);

// The play area's edge as a closed polygon, each side cut into `per_side` pieces so that lens
// distortion can bend it as the camera sees it. Table frame, mm, counter-clockwise from (0, 0).
std::vector<Vec2> play_area_edge_mm(Vec2 play_area_mm, int per_side);

}  // namespace diskref::ui
