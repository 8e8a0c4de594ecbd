#include "ui/calibration_quality.h"

#include <algorithm>

#include <fmt/format.h>

namespace diskref::ui {

std::vector<std::string> calibration_warnings(const std::optional<calib::CameraPose>& pose,
                                              std::optional<double> lens_rms_px, bool camera_moved) {
  std::vector<std::string> out;
  if (camera_moved)
    out.emplace_back("camera moved: the table is being found again; fix the camera's mount so that it cannot move");
  if (lens_rms_px && *lens_rms_px > kPoorLensRmsPx) {
    out.emplace_back(fmt::format(
        "lens calibration poor (RMS {:.2f} px > {:.1f}): calibrate again, the board held still all over the "
        "picture (diskref ui --setup, or diskref calibrate)",
        *lens_rms_px, kPoorLensRmsPx));
  }
  if (!pose) {
    out.emplace_back("table not found: put the four corner markers in the picture, uncovered and lit");
    return out;
  }
  if (!pose->lens_calibrated)
    out.emplace_back(
        "no lens calibration: positions near the edges are less accurate; calibrate the lens and give it with --calib");
  if (pose->reprojection_rms_px > kPoorTableRmsPx || pose->reprojection_rms_mm > kPoorTableRmsMm) {
    out.emplace_back(fmt::format(
        "table pose poor ({:.2f} px, {:.2f} mm): lay the corner markers flat where the table file puts them, and "
        "calibrate the lens",
        pose->reprojection_rms_px, pose->reprojection_rms_mm));
  }
  return out;
}

std::optional<ShowBoardHere> show_board_here(const std::optional<calib::WorstKnownRegion>& worst) {
  if (!worst || !(worst->max_sigma_px >= kShowBoardHereSigmaPx)) return std::nullopt;
  const cv::Rect2d& r = worst->rect_px;
  const double inset = std::min({kShowBoardHereInsetPx, r.width / 4, r.height / 4});
  ShowBoardHere out;
  out.rect_px = cv::Rect2d(r.x + inset, r.y + inset, r.width - 2 * inset, r.height - 2 * inset);
  // Two short lines: drawn inside the region, they must fit a third of the picture's width.
  out.words = fmt::format("show the board here\n({}: known to {:.1f} px)", worst->name, worst->max_sigma_px);
  return out;
}

}  // namespace diskref::ui
