#include "vision/tilted_tag.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>  // cv::contourArea

namespace diskref::vision {

std::optional<TiltedTagPose> tilted_tag_pose(const calib::CameraPose& pose,
                                             const std::array<cv::Point2d, 4>& corners_px, double size_mm) {
  if (!(size_mm > 0)) return std::nullopt;
  // The tag's own frame as a flat one's, seen from above: x along its bottom edge, z out of its face.
  const double h = size_mm / 2;
  const std::vector<cv::Point3d> model = {{-h, -h, 0}, {h, -h, 0}, {h, h, 0}, {-h, h, 0}};
  const std::vector<cv::Point2d> image(corners_px.begin(), corners_px.end());
  const double area = std::fabs(cv::contourArea(std::vector<cv::Point2f>(image.begin(), image.end())));
  if (!(area > 1.0)) return std::nullopt;
  cv::Vec3d rvec, tvec;
  if (!cv::solvePnP(model, image, cv::Mat(pose.camera.camera_matrix), pose.camera.dist_mat(), rvec, tvec, false,
                    cv::SOLVEPNP_IPPE))
    return std::nullopt;
  if (!(tvec[2] > 0) || !std::isfinite(tvec[2])) return std::nullopt;
  cv::Matx33d camera_from_tag;
  cv::Rodrigues(rvec, camera_from_tag);
  // table = R^T (camera - t), with camera_from_table's R and t.
  const cv::Matx33d table_from_camera = pose.rotation.t();
  const cv::Vec3d centre = table_from_camera * (tvec - pose.translation);
  const cv::Vec3d normal = table_from_camera * (camera_from_tag * cv::Vec3d(0, 0, 1));
  TiltedTagPose out;
  out.centre_mm = {centre[0], centre[1], centre[2]};
  out.tilt_deg = std::acos(std::clamp(normal[2] / cv::norm(normal), -1.0, 1.0)) * 180.0 / CV_PI;
  return out;
}

}  // namespace diskref::vision
