#pragma once
// Where the camera is relative to the table, and the maps between image pixels and table
// millimetres at any height above the table (disks' tags lie thickness_mm above it).
//
// Vision, render and the UI call these declarations: extend them, keep their meaning.
//
// Frames: table frame as spec §1 (mm, z up out of the table). Camera frame as OpenCV's (x right,
// y down, z forward). camera_from_table: x_cam = R * x_table + t. Pixels in OpenCV's convention
// (centres at integers), raw (distorted) image coordinates unless a name says "undistorted".

#include <array>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>
#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "engine/geometry/vec2.h"
#include "engine/model/table_spec.h"

namespace diskref::calib {

// A corner marker as the detector saw it: four corners in apriltag's order (bottom-left,
// bottom-right, top-right, top-left of the upright bitmap), raw pixels, OpenCV convention.
struct MarkerObservation {
  int id = 0;
  std::array<cv::Point2d, 4> corners_px;
};

struct MarkerDistanceCheck {
  int id_a = 0;
  int id_b = 0;
  double expected_mm = 0;  // from the table file
  double measured_mm = 0;  // marker centres mapped through the estimated pose
};

// How far a marker's observed corners, mapped onto the table, lie from where the table file puts
// them (RMS over its four corners, mm). A marker that was knocked out of place stands out here.
// Also in the image (px): with the lens fixed, the markers near the image's edges check the lens
// where the calibration board may never have gone.
struct MarkerResidual {
  int id = 0;
  double rms_mm = 0;
  double rms_px = 0;      // the marker's corners reprojected through the pose and lens (RMS, px)
  cv::Point2d centre_px;  // where the marker was seen (mean of its corners)
};

struct CameraPose {
  // The lens: calibrated (from --calib), or, without one, a pinhole estimated from the markers
  // with zero distortion (lens_calibrated = false).
  CameraModel camera;
  bool lens_calibrated = false;
  cv::Matx33d rotation = cv::Matx33d::eye();  // camera_from_table
  cv::Vec3d translation{0, 0, 0};             // camera_from_table, mm

  // Quality of the fit.
  double reprojection_rms_px = 0;  // marker corners, image
  double reprojection_rms_mm = 0;  // marker corners, mapped back onto the table (markers used)
  std::vector<int> markers_used;
  std::vector<int> markers_missing;
  // Over every corner marker seen, including one left out of the fit for disagreeing.
  std::vector<MarkerDistanceCheck> distance_checks;
  std::vector<MarkerResidual> marker_residuals;

  // Camera centre in the table frame (mm).
  cv::Vec3d camera_center_table() const;
};

// Projects a table-frame point (mm; z = height above the table) into the raw image.
cv::Point2d image_from_table(const CameraPose& pose, const cv::Point3d& table_mm);
// Batch form of the above.
std::vector<cv::Point2d> image_from_table(const CameraPose& pose, const std::vector<cv::Point3d>& table_mm);
// Maps a raw image pixel to the table-frame point at `height_mm` above the table that it sees;
// nullopt when the ray does not meet that plane in front of the camera.
std::optional<geom::Vec2> table_from_image(const CameraPose& pose, const cv::Point2d& pixel, double height_mm);
// Batch form: undistorts once for all points (much faster for many points).
std::vector<std::optional<geom::Vec2>> table_from_image(const CameraPose& pose, const std::vector<cv::Point2d>& pixels,
                                                        double height_mm);

struct CameraPoseEstimate {
  std::optional<CameraPose> pose;  // absent when it could not be estimated
  std::string problem;             // why not (e.g. "only 1 corner marker visible (need 2)")
  std::vector<std::string> notes;  // e.g. "corner marker 2 hidden; pose from markers 0, 1, 3"
};

// Estimates the camera's pose relative to the table from the corner markers seen in one image
// (or several images' observations averaged). `lens` absent: no lens correction, the pinhole is
// estimated from the markers. Markers with unknown ids are ignored.
//
// Needs 2 corner markers (8 corners); works with any one hidden (the notes say which). With the
// lens: planar PnP (IPPE, then Levenberg-Marquardt). Without: a pinhole with no distortion that
// maps the table as a homography would, its focal length from the markers' perspective (see
// pinhole_from_plane.h). A lens calibrated at another resolution of the same
// aspect ratio is scaled to `image_size`. When one of 3 or 4 markers disagrees with the others
// (it was moved), the pose is taken from the others and a note says so. A corner marker id seen
// twice is ignored (noted).
CameraPoseEstimate estimate_camera_pose(const model::TableSpec& table, const std::vector<MarkerObservation>& markers,
                                        const std::optional<CameraModel>& lens, cv::Size image_size);

// How well `pose` explains the corner markers seen: the RMS image distance (px) between their
// observed corners and the corners of the table file's markers projected through the pose. 0 when
// no corner marker is given.
double marker_fit_rms_px(const CameraPose& pose, const model::TableSpec& table,
                         const std::vector<MarkerObservation>& markers);

// The observations of corner markers 0..3 that are each seen exactly once: an id seen twice in one
// image is ambiguous (a false detection or a second copy of the tag) and left out, its id added to
// `seen_twice` when given. Other ids are dropped.
std::vector<MarkerObservation> corner_markers_seen_once(const std::vector<MarkerObservation>& markers,
                                                        std::vector<int>* seen_twice = nullptr);

// Several frames' observations of the corner markers combined into one: for each marker id, the
// median of each corner coordinate over the frames that saw it once (noise down, one bad
// detection out). Markers seen in fewer than half of the frames that saw the most-seen marker are
// left out.
std::vector<MarkerObservation> median_observations(const std::vector<std::vector<MarkerObservation>>& frames);

// The table pose file (extension to the spec, docs/reference/commands/table.md): the camera model (spec
// §7 members), the pose and its quality. Saving is atomic.
nlohmann::json camera_pose_to_json(const CameraPose& pose);
CameraPose parse_camera_pose(const io::JsonCursor& root);
CameraPose load_camera_pose(const std::filesystem::path& file);
void save_camera_pose(const CameraPose& pose, const std::filesystem::path& file);

// Why `pose` cannot be the camera over `table`, or empty: the camera more than 20 m from the play
// area, or no part of the play area in the image (a pose found for another table). The table pose
// file is then the problem, not the table: check_camera_pose_fits_table throws InputError naming
// `file` (its camera_from_table).
std::string camera_pose_fits_table_problem(const CameraPose& pose, const model::TableSpec& table);
void check_camera_pose_fits_table(const CameraPose& pose, const model::TableSpec& table, const std::string& file);

}  // namespace diskref::calib
