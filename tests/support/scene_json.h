#pragma once
// Test support: the pieces of a rendered table's scenario (docs/spec.md §13) that the simulator's,
// the tracker's and the setup's tests all build: disks with their tags, the corner markers round
// a play area, an overhead camera. One definition, so that a scene reads as what differs.

#include <array>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

namespace diskref::testing {

nlohmann::json tag_json(int id, const std::string& face, double size_mm, double heading_offset_deg = 0);

// The Red Alert ship's flatted circle (63.5 mm across, 57.2 mm flat to flat).
nlohmann::json flatted_ship_shape();
nlohmann::json circle_shape(double diameter_mm);

nlohmann::json disk_json(const std::string& name, const std::string& kind, const nlohmann::json& shape,
                         std::vector<nlohmann::json> tags, std::optional<double> thickness_mm = std::nullopt);
// A ship with tag `up` on its top face and `down` under it, both `tag_mm` wide.
nlohmann::json ship_json(const std::string& name, int up, int down, double down_heading_offset_deg = 0,
                         double tag_mm = 24);

// Four markers (ids 0..3) of `size_mm`, their centres `out_mm` outside the play area's corners,
// counter-clockwise from the origin.
nlohmann::json corner_markers_json(double width_mm, double height_mm, double out_mm, double size_mm);
nlohmann::json table_json(double width_mm, double height_mm, const nlohmann::json& corner_markers);

struct OverheadCamera {
  std::array<int, 2> resolution{1280, 720};
  double horizontal_fov_deg = 60;
  double height_mm = 700;
  double tilt_deg = 0;
  double yaw_deg = 90;
  std::array<double, 2> look_at_mm{200, 150};
};
nlohmann::json camera_json(const OverheadCamera& camera);

}  // namespace diskref::testing
