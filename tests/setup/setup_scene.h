#pragma once
// A small rendered table for the setup's tests: a 400 x 300 mm play area with 30 mm corner markers,
// two ships (two faces) and a torpedo, seen from 700 mm by a 1280x720 camera. Tests change the
// rendered table (markers swapped or moved), the disks as made (a face glued turned, a sheet printed
// at another scale) or the camera, and check that the setup says so, with the fix.

#include <string>

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "setup/advice.h"
#include "simulator/scenario.h"
#include "simulator/session.h"

namespace diskref::setup::testing {

inline nlohmann::json setup_scene_json(double duration_s = 0.5) {
  nlohmann::json disks = nlohmann::json::array();
  auto ship = [&](const std::string& name, int up, int down) {
    disks.push_back({{"name", name}, {"kind", "ship"},
                     {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}}},
                     {"tags", {{{"id", up}, {"face", "up"}, {"size_mm", 24}, {"heading_offset_deg", 0}},
                               {{"id", down}, {"face", "down"}, {"size_mm", 24}, {"heading_offset_deg", 0}}}}});
  };
  ship("enterprise", 10, 11);
  ship("defiant", 12, 13);
  disks.push_back({{"name", "torpedo-1"}, {"kind", "torpedo"}, {"shape", {{"type", "circle"}, {"diameter_mm", 25.4}}},
                   {"tags", {{{"id", 40}, {"face", "up"}, {"size_mm", 9.5}, {"heading_offset_deg", 0}},
                             {{"id", 41}, {"face", "down"}, {"size_mm", 9.5}, {"heading_offset_deg", 0}}}}});
  return {{"duration_s", duration_s},
          {"fps", 15},
          {"seed", 3},
          {"camera",
           {{"resolution", {1280, 720}},
            {"horizontal_fov_deg", 60},
            {"pose", {{"height_mm", 700}, {"tilt_deg", 0}, {"yaw_deg", 90}, {"look_at_mm", {200, 150}}}}}},
          {"table",
           {{"play_area_mm", {400, 300}},
            {"corner_markers",
             {{{"id", 0}, {"center_mm", {-36, -36}}, {"size_mm", 30}},
              {{"id", 1}, {"center_mm", {436, -36}}, {"size_mm", 30}},
              {{"id", 2}, {"center_mm", {436, 336}}, {"size_mm", 30}},
              {{"id", 3}, {"center_mm", {-36, 336}}, {"size_mm", 30}}}}}},
          {"disks", {{"disks", disks}}},
          {"surface", {{"mat", "cloth"}, {"table", "wood"}, {"mat_margin_mm", 60}, {"table_margin_mm", 400}}},
          {"start",
           {{{"disk", "enterprise"}, {"x", 100}, {"y", 150}, {"heading", 0}},
            {{"disk", "defiant"}, {"x", 300}, {"y", 200}, {"heading", 200}},
            {{"disk", "torpedo-1"}, {"x", 250}, {"y", 70}, {"heading", 90}}}},
          {"effects", {{"supersample", 2}, {"shutter", 0}, {"noise_sigma", 1.5}}}};
}

// Every piece of advice with its fix, one a line, for messages and searches.
inline std::string all_text(const std::vector<Advice>& advice) {
  std::string s;
  for (const Advice& a : advice) s += a.text + " -> " + a.fix + "\n";
  return s;
}

inline simulator::Scenario parse_scene(const nlohmann::json& doc) {
  return simulator::parse_scenario(io::JsonCursor(doc, "setup-scene.json"), ".");
}

}  // namespace diskref::setup::testing
