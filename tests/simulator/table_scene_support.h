#pragma once
// A small table scene for the render tests: a 400 x 300 mm play area, ships, a torpedo, a ship
// half outside the image and a hand over one ship, seen by a 1280x720 camera. Variants switch
// the lens, the camera's effects and the events.

#include <string>

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "simulator/scenario.h"

namespace diskref::simulator::testing {

inline nlohmann::json small_table_scenario(bool distorted, bool effects) {
  nlohmann::json disks = nlohmann::json::array();
  auto ship = [&](const std::string& name, int up, int down) {
    disks.push_back({{"name", name}, {"kind", "ship"},
                     {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}}},
                     {"tags", {{{"id", up}, {"face", "up"}, {"size_mm", 24}, {"heading_offset_deg", 0}},
                               {{"id", down}, {"face", "down"}, {"size_mm", 24}, {"heading_offset_deg", 90}}}}});
  };
  ship("enterprise", 10, 11);
  ship("defiant", 12, 13);
  ship("reliant", 14, 15);
  ship("edge", 16, 17);
  disks.push_back({{"name", "torpedo"}, {"kind", "torpedo"}, {"shape", {{"type", "circle"}, {"diameter_mm", 44.45}}},
                   {"tags", {{{"id", 40}, {"face", "up"}, {"size_mm", 17}, {"heading_offset_deg", 0}}}}});
  nlohmann::json scenario = {
      {"duration_s", 2.0},
      {"fps", 10},
      {"seed", 5},
      {"camera",
       {{"resolution", {1280, 720}},
        {"horizontal_fov_deg", 60},
        {"pose", {{"height_mm", 700}, {"tilt_deg", distorted ? 20 : 0}, {"yaw_deg", 90}, {"look_at_mm", {200, 150}}}}}},
      {"table",
       {{"play_area_mm", {400, 300}},
        {"corner_markers",
         {{{"id", 0}, {"center_mm", {-30, -30}}, {"size_mm", 30}},
          {{"id", 1}, {"center_mm", {430, -30}}, {"size_mm", 30}},
          {{"id", 2}, {"center_mm", {430, 330}}, {"size_mm", 30}},
          {{"id", 3}, {"center_mm", {-30, 330}}, {"size_mm", 30}}}}}},
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
    scenario["effects"] = {{"noise_sigma", 2.0}, {"blur_sigma_px", 0.5}, {"vignetting", 0.3}, {"light_gradient", 0.25},
                           {"supersample", 3},   {"shutter", 0.5}};
  return scenario;
}

inline Scenario parse_test_scenario(const nlohmann::json& doc) {
  return parse_scenario(io::JsonCursor(doc, "test-scenario.json"), ".");
}

}  // namespace diskref::simulator::testing
