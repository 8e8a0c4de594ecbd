#pragma once
// When to warn about the calibration: a lens that reprojects poorly, a table pose that fits its
// corner markers poorly, a camera without a lens calibration, or a camera that moved; and, while
// calibrating, where to show the board next.

#include <optional>
#include <string>
#include <vector>

#include "calibration/camera_pose.h"
#include "calibration/uncertainty_map.h"

namespace diskref::ui {

// A good lens calibration reprojects to well under a pixel; the table pose's marker corners
// should fit to about a pixel, or about a millimetre on the table (a disk-sized error would make
// every call doubtful).
inline constexpr double kPoorLensRmsPx = 1.0;
inline constexpr double kPoorTableRmsPx = 2.0;
inline constexpr double kPoorTableRmsMm = 1.0;

// Short warnings for the screen, empty when all is well. `lens_rms_px`: the lens calibration's
// RMS when known; `camera_moved`: the table monitor's verdict.
std::vector<std::string> calibration_warnings(const std::optional<calib::CameraPose>& pose,
                                              std::optional<double> lens_rms_px, bool camera_moved);

// "Show the board here": the ninth of the picture where the lens is known worst, drawn over the
// camera picture while calibrating, with the words. Only when its uncertainty is worth another view:
// at least kShowBoardHereSigmaPx at its worst node (the threshold of the calibration advice, "known
// worst at the picture's ... so far", setup/calibration_session.cpp); below it every region is known
// well enough and the picture is left clear.
inline constexpr double kShowBoardHereSigmaPx = 0.5;
struct ShowBoardHere {
  cv::Rect2d rect_px;  // raw pixels, drawn inset by kShowBoardHereInsetPx so that its line stays in the picture
  std::string words;   // "show the board here\n(top-left corner: known to 1.4 px)"
};
inline constexpr double kShowBoardHereInsetPx = 6;
std::optional<ShowBoardHere> show_board_here(const std::optional<calib::WorstKnownRegion>& worst);

}  // namespace diskref::ui
