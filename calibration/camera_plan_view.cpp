#include "calibration/camera_plan_view.h"

#include <cmath>

#include <fmt/format.h>

namespace diskref::calib {

model::CameraView camera_view(const CameraPose& pose) {
  model::CameraView view;
  view.width_px = pose.camera.image_size.width;
  view.height_px = pose.camera.image_size.height;
  view.image_from_table = [pose](double x, double y, double z) -> std::optional<geom::Vec2> {
    // In front of the camera only: projectPoints would mirror a point behind it into the image.
    const cv::Vec3d in_camera = pose.rotation * cv::Vec3d(x, y, z) + pose.translation;
    if (!(in_camera[2] > 0)) return std::nullopt;
    const cv::Point2d p = image_from_table(pose, cv::Point3d(x, y, z));
    return geom::Vec2{p.x, p.y};
  };
  view.table_from_image = [pose](double u, double v) { return table_from_image(pose, cv::Point2d(u, v), 0.0); };
  const cv::Vec3d c = pose.camera_center_table();
  view.description = fmt::format("{}x{} camera at ({:.0f}, {:.0f}) mm, {:.0f} mm above the table{}", view.width_px,
                                 view.height_px, c[0], c[1], c[2], pose.lens_calibrated ? ", lens calibrated" : "");
  return view;
}

model::CameraView camera_view_straight_above(const CameraModel& lens, double height_mm, geom::Vec2 over_mm,
                                             bool long_side_along_x) {
  CameraPose pose;
  pose.camera = lens;
  pose.lens_calibrated = true;
  // camera_from_table looking down, as model::straight_above: rows are the camera's axes in the table frame.
  pose.rotation =
      long_side_along_x ? cv::Matx33d(1, 0, 0, 0, -1, 0, 0, 0, -1) : cv::Matx33d(0, 1, 0, 1, 0, 0, 0, 0, -1);
  pose.translation = -(pose.rotation * cv::Vec3d(over_mm.x, over_mm.y, height_mm));
  model::CameraView view = camera_view(pose);
  view.description =
      fmt::format("{}x{} calibrated camera {:g} mm above the table", view.width_px, view.height_px, height_mm);
  return view;
}

model::PinholeCamera planning_pinhole(const CameraModel& lens, double height_mm) {
  model::PinholeCamera p;
  p.width_px = lens.image_size.width;
  p.height_px = lens.image_size.height;
  p.horizontal_fov_deg = geom::rad_to_deg(2 * std::atan(lens.image_size.width / (2 * lens.fx())));
  p.height_mm = height_mm;
  return p;
}

}  // namespace diskref::calib
