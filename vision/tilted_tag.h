#pragma once
// Where a tag seen tilted lies in space: a counter leaning against a disk, or standing on its
// edge, shows its tag off the table plane, and the tracker's flat measurement (tag_measurement.h)
// refuses it. Its four corners and its printed size still fix it in space (a planar
// perspective-n-point problem), well enough to say where on the table it stands and how far from
// flat it is.

#include <array>
#include <optional>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"

namespace diskref::vision {

struct TiltedTagPose {
  cv::Point3d centre_mm;  // the middle of the tag, table frame (z: height above the table)
  double tilt_deg = 0;    // between the tag face's normal (toward the camera) and the table's up
};

// From the tag's corners (raw pixels, OpenCV convention, apriltag order) and its size (the side of
// the detector's corner square, mm). nullopt for corners that fix no pose (degenerate, or a pose
// behind the camera).
std::optional<TiltedTagPose> tilted_tag_pose(const calib::CameraPose& pose,
                                             const std::array<cv::Point2d, 4>& corners_px, double size_mm);

}  // namespace diskref::vision
