#pragma once
// A pinhole camera (no distortion) and its pose, estimated from points on one plane when the lens
// is not calibrated (spec §5: "without --calib, the table plane is found from the corner markers
// alone").
//
// A homography alone maps the plane, but not points above it: the height of a disk's tag needs
// the camera's distance, hence its focal length. The pinhole is fitted to the points with weak
// priors (focal length of a typical webcam, square pixels, principal point near the image centre):
// it has 10 degrees of freedom and a plane's homography 8, so the plane itself is mapped as exactly
// as a homography maps it, and the priors only choose among the pinholes that fit equally well.
// The focal length follows from the plane's perspective foreshortening; seen straight from above
// there is none and the prior decides it.

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::calib {

struct PlanarPinholeFit {
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  cv::Vec3d rvec{0, 0, 0};  // camera_from_plane, Rodrigues vector
  cv::Vec3d tvec{0, 0, 0};  // camera_from_plane, plane units
  // How many times tighter the data alone pin the focal length than the prior does (>> 1: the
  // data decide; < 1: near fronto-parallel, the prior decides).
  double focal_information_ratio = 0;
};

// The prior's focal length for an image of this size: 0.75 x its longer side (a horizontal field
// of view of about 67 degrees for 16:9, a common webcam's).
double prior_focal_px(cv::Size image_size);

// `plane_points` have z = 0; `image_points` are pixels of an undistorted camera (OpenCV
// convention); at least 4 points, not all on one line. nullopt when no pose puts the plane in
// front of the camera.
std::optional<PlanarPinholeFit> fit_pinhole_to_plane(const std::vector<cv::Point3d>& plane_points,
                                                     const std::vector<cv::Point2d>& image_points, cv::Size image_size);

}  // namespace diskref::calib
