#include "simulator/camera_rig.h"

#include <cmath>

#include "simulator/lens_rays.h"

namespace diskref::simulator {

cv::Matx33d camera_matrix_for_fov(cv::Size size, double horizontal_fov_deg) {
  double f = (size.width / 2.0) / std::tan(horizontal_fov_deg * std::numbers::pi / 360.0);
  return {f, 0, (size.width - 1) / 2.0, 0, f, (size.height - 1) / 2.0, 0, 0, 1};
}

void look_at_table(double height_mm, double tilt_deg, double yaw_deg, geom::Vec2 look_at_mm, cv::Matx33d& rotation,
                   cv::Vec3d& translation) {
  double yaw = yaw_deg * std::numbers::pi / 180, tilt = tilt_deg * std::numbers::pi / 180;
  cv::Vec3d up_on_table(std::cos(yaw), std::sin(yaw), 0);
  cv::Vec3d target(look_at_mm.x, look_at_mm.y, 0);
  cv::Vec3d center = target - height_mm * std::tan(tilt) * up_on_table + cv::Vec3d(0, 0, height_mm);
  cv::Vec3d z = cv::normalize(target - center);
  // Image down (camera +y) is the opposite of the table's "up" direction, made orthogonal to z.
  cv::Vec3d y = -(up_on_table - up_on_table.dot(z) * z);
  y = cv::normalize(y);
  cv::Vec3d x = y.cross(z);
  rotation = cv::Matx33d(x[0], x[1], x[2], y[0], y[1], y[2], z[0], z[1], z[2]);
  translation = -(rotation * center);
}

cv::Point2d pixel_of(const CameraRig& rig, const cv::Point3d& table_point) {
  const cv::Vec3d q = rig.rotation * cv::Vec3d(table_point.x, table_point.y, table_point.z) + rig.translation;
  return pixel_from_ray(rig.camera, {q[0] / q[2], q[1] / q[2]});
}

double pixels_per_mm_at_center(const CameraRig& rig) {
  // Two table points 1 mm apart where the optical axis meets the table.
  cv::Vec3d c = rig.center_table();
  cv::Vec3d axis(rig.rotation(2, 0), rig.rotation(2, 1), rig.rotation(2, 2));
  if (axis[2] >= 0) return 0;
  cv::Vec3d hit = c + (-c[2] / axis[2]) * axis;
  auto project = [&](const cv::Vec3d& p) { return pixel_of(rig, {p[0], p[1], p[2]}); };
  cv::Point2d a = project(hit), bx = project(hit + cv::Vec3d(1, 0, 0)), by = project(hit + cv::Vec3d(0, 1, 0));
  return std::sqrt(cv::norm(bx - a) * cv::norm(by - a));
}

}  // namespace diskref::simulator
