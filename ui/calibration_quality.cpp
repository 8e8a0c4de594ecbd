#include "ui/calibration_quality.h"

#include <fmt/format.h>

namespace diskref::ui {

std::vector<std::string> calibration_warnings(const std::optional<calib::CameraPose>& pose, std::optional<double> lens_rms_px,
                                              bool camera_moved) {
  std::vector<std::string> out;
  if (camera_moved) out.emplace_back("camera moved: the table pose is being re-measured");
  if (lens_rms_px && *lens_rms_px > kPoorLensRmsPx) {
    out.emplace_back(
        fmt::format("lens calibration poor (RMS {:.2f} px > {:.1f}): recalibrate", *lens_rms_px, kPoorLensRmsPx));
  }
  if (!pose) {
    out.emplace_back("table not found: corner markers not seen");
    return out;
  }
  if (!pose->lens_calibrated) out.emplace_back("no lens calibration: positions near the edges are less accurate");
  if (pose->reprojection_rms_px > kPoorTableRmsPx || pose->reprojection_rms_mm > kPoorTableRmsMm) {
    out.emplace_back(
        fmt::format("table pose poor ({:.2f} px, {:.2f} mm)", pose->reprojection_rms_px, pose->reprojection_rms_mm));
  }
  return out;
}

}  // namespace diskref::ui
