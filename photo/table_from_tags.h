#pragma once
// The table and the camera fitted from the tags of one photograph (spec §14).
//
// Every tag is a square of its registry size lying flat at its disk's thickness above one table
// plane. Unknowns: the camera's pose relative to the plane, its focal length (unless EXIF or a
// calibration gives it; principal point at the image centre, square pixels; radial k1 only when
// three or more tags pin it), and each tag's
// (x, y, theta) on the plane. Initialised from the largest tag's IPPE pose, refined by
// Levenberg-Marquardt (cv::LMSolver) on the corners' reprojection; the covariance of every
// parameter follows from the Jacobian with the corner noise measured from the residuals.
//
// The plane frame is the photo's own (there are no corner markers): z up towards the camera, the
// origin under the reference tag (the largest in the image), +x along that tag's +x. Distances and
// angles between disks do not depend on that choice; positions are relative to the reference disk.

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "vision/apriltag_detector.h"

namespace diskref::photo {

// A tag found in the photo that the registry knows: where it is in the image, how big it is and how
// far above the table it lies.
// The diagonal of a 35 mm frame (36 x 24 mm): a focal length "in 35 mm film" over it is the
// focal length over the image's diagonal.
inline constexpr double kFullFrameDiagonalMm = 43.27;

struct SeenTag {
  vision::TagDetection detection;
  double size_mm = 0;
  double height_mm = 0;  // its disk's thickness
};

struct TagsFitOptions {
  std::optional<calib::CameraModel> lens;  // fixes the lens (focal length, principal point, distortion)
  // The focal length EXIF gives (when there is no lens): not fixed but a prior of relative sigma
  // `focal_prior_sigma`. Phones write the 35 mm equivalent in whole millimetres (up to 2 % off at
  // 26 mm) and compute it on crops that differ by maker; held as exact, it made sigma too small:
  // the bench over rendered phone photos covered 79 % of the margins' errors within 2 sigma with
  // EXIF and 99 % without (docs/figures/photo_disputes.md).
  std::optional<double> focal_px;
  double focal_prior_sigma = 0.03;
  double corner_sigma_floor_px = 0.1;  // the corner noise is never taken as less than this
};

enum class FocalSource { calibration, exif, fitted };

struct TablePlacement {
  std::vector<cv::Vec3d> tag_poses;  // per SeenTag: x, y (mm), theta (radians, counter-clockwise)
  cv::Mat pose_covariance;           // 3n x 3n (CV_64F), same order; the reference's rows are zero
  std::size_t reference = 0;         // the tag whose pose fixes the frame
  cv::Matx33d camera_matrix = cv::Matx33d::eye();
  std::vector<double> dist_coeffs;         // empty: none
  std::optional<double> radial_k1;         // fitted radial distortion, when the data pinned it
  cv::Vec3d rvec{0, 0, 0}, tvec{0, 0, 0};  // camera_from_plane
  FocalSource focal_source = FocalSource::fitted;
  double focal_sigma_px = 0;   // 0 when a calibration gives the focal length
  double corner_sigma_px = 0;  // measured from the residuals (floored)
  double rms_px = 0;           // corner reprojection error
  double tilt_deg = 0;         // between the optical axis and the plane's normal
  double distance_mm = 0;      // camera centre to the reference tag
};

// Throws std::invalid_argument when `tags` is empty.
TablePlacement fit_table(const std::vector<SeenTag>& tags, cv::Size image_size, const TagsFitOptions& options);

// A point of the plane frame (z up, mm) in the photo's pixels.
cv::Point2d project_to_photo(const TablePlacement& placement, const cv::Point3d& plane_point);

// The tag's four corners on the plane frame in the detector's corner order, for a tag at `pose`
// (x, y, theta) of side `size_mm`, `height_mm` above the plane.
std::array<cv::Point3d, 4> tag_corners_on_plane(const cv::Vec3d& pose, double size_mm, double height_mm);

}  // namespace diskref::photo
