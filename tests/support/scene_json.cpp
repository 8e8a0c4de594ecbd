#include "tests/support/scene_json.h"

namespace diskref::testing {

nlohmann::json tag_json(int id, const std::string& face, double size_mm, double heading_offset_deg) {
  return {{"id", id}, {"face", face}, {"size_mm", size_mm}, {"heading_offset_deg", heading_offset_deg}};
}

nlohmann::json flatted_ship_shape() {
  return {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}};
}

nlohmann::json circle_shape(double diameter_mm) {
  return {{"type", "circle"}, {"diameter_mm", diameter_mm}};
}

nlohmann::json disk_json(const std::string& name, const std::string& kind, const nlohmann::json& shape,
                         std::vector<nlohmann::json> tags, std::optional<double> thickness_mm) {
  nlohmann::json disk = {{"name", name}, {"kind", kind}, {"shape", shape}, {"tags", std::move(tags)}};
  if (thickness_mm) disk["thickness_mm"] = *thickness_mm;
  return disk;
}

nlohmann::json ship_json(const std::string& name, int up, int down, double down_heading_offset_deg, double tag_mm) {
  return disk_json(name, "ship", flatted_ship_shape(),
                   {tag_json(up, "up", tag_mm), tag_json(down, "down", tag_mm, down_heading_offset_deg)});
}

nlohmann::json corner_markers_json(double width_mm, double height_mm, double out_mm, double size_mm) {
  const auto marker = [&](int id, double x, double y) {
    return nlohmann::json{{"id", id}, {"center_mm", {x, y}}, {"size_mm", size_mm}};
  };
  return {marker(0, -out_mm, -out_mm), marker(1, width_mm + out_mm, -out_mm),
          marker(2, width_mm + out_mm, height_mm + out_mm), marker(3, -out_mm, height_mm + out_mm)};
}

nlohmann::json table_json(double width_mm, double height_mm, const nlohmann::json& corner_markers) {
  return {{"play_area_mm", {width_mm, height_mm}}, {"corner_markers", corner_markers}};
}

nlohmann::json overhead_camera_json(const OverheadCamera& camera) {
  return {{"resolution", camera.resolution},
          {"horizontal_fov_deg", camera.horizontal_fov_deg},
          {"pose",
           {{"height_mm", camera.height_mm},
            {"tilt_deg", camera.tilt_deg},
            {"yaw_deg", camera.yaw_deg},
            {"look_at_mm", camera.look_at_mm}}}};
}

}  // namespace diskref::testing
