// The table pose file: the camera model's spec §7 members at the top level (so a table pose file
// is also a camera file), then the pose and its quality. Format documented in
// docs/reference/commands/table.md.
#include <cmath>
#include <filesystem>

#include <nlohmann/json.hpp>

#include <algorithm>
#include "calibration/camera_pose.h"

#include <fmt/format.h>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"

namespace diskref::calib {

nlohmann::json camera_pose_to_json(const CameraPose& pose) {
  nlohmann::json out = camera_model_to_json(pose.camera);
  out["lens_calibrated"] = pose.lens_calibrated;
  nlohmann::json rotation = nlohmann::json::array();
  for (int r = 0; r < 3; ++r) rotation.push_back({pose.rotation(r, 0), pose.rotation(r, 1), pose.rotation(r, 2)});
  out["camera_from_table"] = {{"rotation", rotation},
                              {"translation_mm", {pose.translation[0], pose.translation[1], pose.translation[2]}}};
  cv::Vec3d centre = pose.camera_center_table();
  out["camera_center_mm"] = {centre[0], centre[1], centre[2]};
  nlohmann::json checks = nlohmann::json::array();
  for (const auto& c : pose.distance_checks)
    checks.push_back({{"a", c.id_a}, {"b", c.id_b}, {"expected_mm", c.expected_mm}, {"measured_mm", c.measured_mm}});
  nlohmann::json residuals = nlohmann::json::array();
  for (const auto& r : pose.marker_residuals) residuals.push_back({{"id", r.id}, {"rms_mm", r.rms_mm}});
  out["quality"] = {{"reprojection_rms_px", pose.reprojection_rms_px},
                    {"reprojection_rms_mm", pose.reprojection_rms_mm},
                    {"markers_used", pose.markers_used},
                    {"markers_missing", pose.markers_missing},
                    {"distance_checks", checks},
                    {"marker_residuals", residuals}};
  return out;
}

namespace {

std::vector<int> marker_ids(const io::JsonCursor& list) {
  std::vector<int> ids;
  for (std::size_t i = 0; i < list.size(); ++i) ids.push_back(list.at(i).int_in(0, 3));
  return ids;
}

// A distance between two places on the table.
double distance_mm(const io::JsonCursor& c) {
  return c.number_in(0, 2 * model::bounds::kMaxCoordinateMm);
}

}  // namespace

CameraPose parse_camera_pose(const io::JsonCursor& root) {
  root.allow_only({"image_size", "camera_matrix", "dist_coeffs", "rms_px", "uncertainty", "lens_calibrated",
                   "camera_from_table", "camera_center_mm", "quality"});
  CameraPose pose;
  pose.camera = parse_camera_model(root);
  pose.lens_calibrated = root.at("lens_calibrated").boolean();

  auto extrinsics = root.at("camera_from_table");
  extrinsics.allow_only({"rotation", "translation_mm"});
  auto rotation = extrinsics.at("rotation");
  if (rotation.size() != 3) rotation.fail("must be a 3x3 matrix (3 rows of 3 numbers)");
  for (int r = 0; r < 3; ++r) {
    auto row = rotation.at(static_cast<std::size_t>(r)).numbers(3);
    for (int c = 0; c < 3; ++c) pose.rotation(r, c) = row[static_cast<std::size_t>(c)];
  }
  // A rotation: orthonormal with determinant +1 (a mirror would put the camera under the table).
  cv::Matx33d should_be_identity = pose.rotation.t() * pose.rotation;
  if (cv::norm(should_be_identity - cv::Matx33d::eye()) > 1e-6 || std::abs(cv::determinant(pose.rotation) - 1) > 1e-6)
    rotation.fail("is not a rotation matrix (orthonormal, determinant +1)");
  auto translation = extrinsics.at("translation_mm");
  translation.numbers(3);
  for (std::size_t i = 0; i < 3; ++i)
    pose.translation[static_cast<int>(i)] = model::bounds::coordinate_mm(translation.at(i));
  const cv::Vec3d centre = pose.camera_center_table();
  if (!(centre[2] > 0)) extrinsics.fail("puts the camera at or below the table plane");
  if (!(centre[2] >= model::bounds::kMinCameraHeightMm && cv::norm(centre) <= model::bounds::kMaxCoordinateMm))
    extrinsics.fail(
        fmt::format("puts the camera at ({:.0f}, {:.0f}, {:.0f}) mm in the table frame: a camera over a "
                    "table is {:g} mm to {:g} m above it",
                    centre[0], centre[1], centre[2], model::bounds::kMinCameraHeightMm,
                    model::bounds::kMaxCameraDistanceMm / 1000));

  if (auto quality = root.find("quality")) {
    quality->allow_only({"reprojection_rms_px", "reprojection_rms_mm", "markers_used", "markers_missing",
                         "distance_checks", "marker_residuals"});
    pose.reprojection_rms_px = model::bounds::quality_figure(quality->at("reprojection_rms_px"));
    pose.reprojection_rms_mm = model::bounds::quality_figure(quality->at("reprojection_rms_mm"));
    pose.markers_used = marker_ids(quality->at("markers_used"));
    pose.markers_missing = marker_ids(quality->at("markers_missing"));
    if (auto checks = quality->find("distance_checks"))
      for (std::size_t i = 0; i < checks->size(); ++i) {
        auto c = checks->at(i);
        pose.distance_checks.push_back({c.at("a").int_in(0, 3), c.at("b").int_in(0, 3),
                                        distance_mm(c.at("expected_mm")), distance_mm(c.at("measured_mm"))});
      }
    if (auto residuals = quality->find("marker_residuals"))
      for (std::size_t i = 0; i < residuals->size(); ++i) {
        auto r = residuals->at(i);
        MarkerResidual residual;  // the image figures are the table command's report, not the file's
        residual.id = r.at("id").int_in(0, 3);
        residual.rms_mm = model::bounds::quality_figure(r.at("rms_mm"));
        pose.marker_residuals.push_back(residual);
      }
  }
  return pose;
}

CameraPose load_camera_pose(const std::filesystem::path& file) {
  nlohmann::json doc = io::read_json_file(file);
  return parse_camera_pose(io::JsonCursor(doc, file.string()));
}

std::string camera_pose_fits_table_problem(const CameraPose& pose, const model::TableSpec& table) {
  const cv::Vec3d centre = pose.camera_center_table();
  const geom::Vec2 area = table.play_area_mm;
  // The camera's distance from the play area (its nearest point).
  const double dx = std::max({0.0, -centre[0], centre[0] - area.x});
  const double dy = std::max({0.0, -centre[1], centre[1] - area.y});
  const double away = std::sqrt(dx * dx + dy * dy + centre[2] * centre[2]);
  if (away > model::bounds::kMaxCameraDistanceMm)
    return fmt::format(
        "puts the camera {:.0f} m from the play area of the table file ({:g} x {:g} mm): a camera "
        "watching a table is within {:g} m of it",
        away / 1000, area.x, area.y, model::bounds::kMaxCameraDistanceMm / 1000);
  // Some of the play area is in the image (a 9 x 9 grid of its points, in front of the camera).
  const cv::Size size = pose.camera.image_size;
  for (int i = 0; i <= 8; ++i)
    for (int j = 0; j <= 8; ++j) {
      const cv::Vec3d p(area.x * i / 8, area.y * j / 8, 0);
      const cv::Vec3d in_camera = pose.rotation * p + pose.translation;
      if (!(in_camera[2] > 0)) continue;
      const cv::Point2d px = image_from_table(pose, cv::Point3d(p[0], p[1], p[2]));
      if (px.x >= 0 && px.y >= 0 && px.x <= size.width - 1 && px.y <= size.height - 1) return "";
    }
  return fmt::format(
      "does not fit the table file: through this pose no part of its {:g} x {:g} mm play area is in the "
      "{}x{} image (a pose found for another table, or another camera place)",
      area.x, area.y, size.width, size.height);
}

void check_camera_pose_fits_table(const CameraPose& pose, const model::TableSpec& table, const std::string& file) {
  if (std::string problem = camera_pose_fits_table_problem(pose, table); !problem.empty())
    throw io::InputError(file, "camera_from_table", problem);
}

void save_camera_pose(const CameraPose& pose, const std::filesystem::path& file) {
  io::write_file_atomically(file, camera_pose_to_json(pose).dump(2) + "\n");
}

}  // namespace diskref::calib
