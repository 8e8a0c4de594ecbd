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
#include "tests/support/scene_json.h"

namespace diskref::setup::testing {

inline nlohmann::json setup_scene_json(double duration_s = 0.5) {
  using namespace diskref::testing;
  nlohmann::json disks = {
      ship_json("enterprise", 10, 11), ship_json("defiant", 12, 13),
      disk_json("torpedo-1", "torpedo", circle_shape(25.4), {tag_json(40, "up", 9.5), tag_json(41, "down", 9.5)})};
  return {{"duration_s", duration_s},
          {"fps", 15},
          {"seed", 3},
          {"camera", camera_json({.height_mm = 700, .tilt_deg = 0})},
          {"table", table_json(400, 300, corner_markers_json(400, 300, 36, 30))},
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
