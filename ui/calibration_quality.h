#pragma once
// When to warn about the calibration: a lens that reprojects poorly, a table pose that fits its
// corner markers poorly, a camera without a lens calibration, or a camera that moved.

#include <optional>
#include <string>
#include <vector>

#include "calibration/camera_pose.h"

namespace diskref::ui {

// A good lens calibration reprojects to well under a pixel; the table pose's marker corners
// should fit to about a pixel, or about a millimetre on the table (a disk-sized error would make
// every call doubtful).
inline constexpr double kPoorLensRmsPx = 1.0;
inline constexpr double kPoorTableRmsPx = 2.0;
inline constexpr double kPoorTableRmsMm = 1.0;

// Short warnings for the screen, empty when all is well. `lens_rms_px`: the lens calibration's
// RMS when known; `camera_moved`: the table monitor's verdict.
std::vector<std::string> calibration_warnings(const std::optional<calib::CameraPose>& pose, std::optional<double> lens_rms_px,
                                              bool camera_moved);

}  // namespace diskref::ui
