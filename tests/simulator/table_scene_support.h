#pragma once
// A small table scene for the render tests: a 400 x 300 mm play area, ships, a torpedo, a ship
// half outside the image and a hand over one ship, seen by a 1280x720 camera. Variants switch
// the lens, the camera's effects and the events.

#include <string>

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "simulator/scenario.h"
#include "tests/support/scene_json.h"

namespace diskref::simulator::testing {

inline nlohmann::json small_table_scenario(bool distorted, bool effects) {
  using namespace diskref::testing;
  nlohmann::json disks = {ship_json("enterprise", 10, 11, 90), ship_json("defiant", 12, 13, 90),
                          ship_json("reliant", 14, 15, 90), ship_json("edge", 16, 17, 90),
                          disk_json("torpedo", "torpedo", circle_shape(44.45), {tag_json(40, "up", 17)})};
  nlohmann::json scenario = {
      {"duration_s", 2.0},
      {"fps", 10},
      {"seed", 5},
      {"camera", overhead_camera_json({.height_mm = 700, .tilt_deg = distorted ? 20.0 : 0.0})},
      {"table", table_json(400, 300, corner_markers_json(400, 300, 30, 30))},
      {"disks", {{"disks", disks}}},
      {"surface", {{"mat", "cloth"}, {"table", "wood"}, {"mat_margin_mm", 60}, {"table_margin_mm", 400}}},
      {"start",
       {{{"disk", "enterprise"}, {"x", 80}, {"y", 90}, {"heading", 30}},
        {{"disk", "defiant"}, {"x", 300}, {"y", 200}, {"heading", 200}},
        {{"disk", "reliant"}, {"x", 110}, {"y", 225}, {"heading", 95}, {"face", "down"}},
        {{"disk", "edge"}, {"x", distorted ? 660 : 612}, {"y", 150}, {"heading", 0}},
        {{"disk", "torpedo"}, {"x", 190}, {"y", 80}, {"heading", 270}}}},
      {"events", {{{"t", 0.0}, {"hand", {{"over", {"defiant"}}, {"enter_s", 0.3}, {"hold_s", 5}, {"from", "east"}}}}}},
      {"effects", {{"supersample", 3}, {"shutter", 0}}}};
  if (distorted) scenario["camera"]["dist_coeffs"] = {-0.25, 0.08, 0.001, -0.0012, -0.01};
  if (effects)
    scenario["effects"] = {{"noise_sigma", 2.0},     {"blur_sigma_px", 0.5}, {"vignetting", 0.3},
                           {"light_gradient", 0.25}, {"supersample", 3},     {"shutter", 0.5}};
  return scenario;
}

inline Scenario parse_test_scenario(const nlohmann::json& doc) {
  return parse_scenario(io::JsonCursor(doc, "test-scenario.json"), ".");
}

}  // namespace diskref::simulator::testing
