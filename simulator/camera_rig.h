#pragma once
// A camera over the table: its lens (spec §7 model) and where it is (camera_from_table:
// x_cam = R * x_table + t, mm; camera frame as OpenCV's, table frame as spec §1).

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "engine/geometry/vec2.h"

namespace diskref::simulator {

struct CameraRig {
  calib::CameraModel camera;
  cv::Matx33d rotation = cv::Matx33d::eye();  // camera_from_table
  cv::Vec3d translation{0, 0, 0};             // camera_from_table, mm

  cv::Vec3d center_table() const { return -(rotation.t() * translation); }
};

// A pinhole with square pixels, the principal point in the image's middle and the given
// horizontal field of view.
cv::Matx33d camera_matrix_for_fov(cv::Size image_size, double horizontal_fov_deg);

// camera_from_table for a camera `height_mm` above the table looking at `look_at_mm` (a table
// point), its optical axis `tilt_deg` from straight down, and the image's "up" pointing along
// table direction `yaw_deg` (degrees counter-clockwise from +x; 90 puts the table's +y at the top
// of the image, +x to the right). The camera stands back from the look-at point, opposite its
// image's up: a camera on a boom at the near edge, looking across the table.
void look_at_table(double height_mm, double tilt_deg, double yaw_deg, geom::Vec2 look_at_mm, cv::Matx33d& rotation,
                   cv::Vec3d& translation);

// Where the camera sees a point given in the table frame (mm), in pixels (OpenCV's convention:
// pixel centres at integers), through its lens.
cv::Point2d pixel_of(const CameraRig& rig, const cv::Point3d& table_point);

// Pixels per millimetre on the table plane around the image centre (for tag readability).
double pixels_per_mm_at_center(const CameraRig& rig);

}  // namespace diskref::simulator
