#pragma once
// Table sessions for the vision tests, rendered by diskref's renderer (simulator/session.h): a
// 400 x 300 mm play area seen by a 1280 x 720 camera, three ships (one 3 mm thick, one face with a
// heading offset), two torpedoes; a ship flipped twice, a hand resting over another, a torpedo
// brought in by hand. Variants: a tilted camera with a strongly distorting lens, or a tilted
// camera with a lens free of distortion.

#include <unistd.h>

#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "simulator/scenario.h"
#include "simulator/session.h"
#include "tests/support/scene_json.h"

namespace diskref::vision::test {

inline nlohmann::json tracking_scenario(bool distorted) {
  using namespace diskref::testing;
  const nlohmann::json torpedo = circle_shape(25.4);
  nlohmann::json disks = nlohmann::json::array({
      ship_json("enterprise", 10, 11),
      ship_json("defiant", 12, 13, 90),
      disk_json("reliant", "ship", circle_shape(63.5), {tag_json(14, "up", 24, 180), tag_json(15, "down", 24)}, 3),
      disk_json("torpedo-1", "torpedo", torpedo, {tag_json(40, "up", 9.5)}),
      disk_json("torpedo-2", "torpedo", torpedo, {tag_json(41, "up", 9.5)}),
  });
  nlohmann::json scenario = {
      {"duration_s", 3.0},
      {"fps", 15},
      {"seed", 21},
      {"camera", overhead_camera_json({.height_mm = 650, .tilt_deg = 18})},
      {"table", table_json(400, 300, corner_markers_json(400, 300, 30, 30))},
      {"disks", {{"disks", disks}}},
      {"surface", {{"mat", "starfield"}, {"table", "wood"}, {"mat_margin_mm", 60}, {"table_margin_mm", 400}}},
      {"start",
       {{{"disk", "enterprise"}, {"x", 90}, {"y", 90}, {"heading", 30}},
        {{"disk", "defiant"}, {"x", 300}, {"y", 200}, {"heading", 200}},
        {{"disk", "reliant"}, {"x", 110}, {"y", 230}, {"heading", 95}, {"face", "down"}},
        {{"disk", "torpedo-1"}, {"x", 220}, {"y", 70}, {"heading", 270}}}},
      {"events",
       {{{"t", 0.3}, {"flip", {{"disk", "enterprise"}, {"count", 2}, {"seconds_per_flip", 0.5}, {"pause_s", 0.3}}}},
        {{"t", 0.4},
         {"hand", {{"over", {"defiant"}}, {"enter_s", 0.4}, {"hold_s", 0.8}, {"leave_s", 0.4}, {"from", "east"}}}},
        {{"t", 1.6},
         {"place",
          {{"disk", "torpedo-2"}, {"x", 250}, {"y", 240}, {"heading", 45}, {"duration_s", 1.0}, {"from", "north"}}}}}},
      {"effects",
       {{"noise_sigma", 2.0},
        {"blur_sigma_px", 0.5},
        {"vignetting", 0.25},
        {"light_gradient", 0.2},
        {"supersample", 2},
        {"shutter", 0.5}}}};
  if (distorted) scenario["camera"]["dist_coeffs"] = {-0.22, 0.07, 0.001, -0.001, -0.01};
  return scenario;
}

// Renders the scenario into `dir` (video.mp4, table.json, disks.json, camera.json, truth.jsonl).
inline void render_tracking_session(const nlohmann::json& scenario, const std::filesystem::path& dir) {
  const simulator::Scenario parsed = simulator::parse_scenario(io::JsonCursor(scenario, "tracking-scenario.json"), ".");
  simulator::render_session(parsed, dir, [](int, int) {});
}

// The session of tracking_scenario(distorted), rendered once per test program into a
// temporary directory.
inline const std::filesystem::path& rendered_session(bool distorted) {
  static std::filesystem::path dirs[2];
  std::filesystem::path& dir = dirs[distorted ? 1 : 0];
  if (dir.empty()) {
    dir =
        std::filesystem::temp_directory_path() /
        ("diskref-vision-render-" + std::string(distorted ? "distorted" : "plain") + "-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir);
    render_tracking_session(tracking_scenario(distorted), dir);
  }
  return dir;
}

}  // namespace diskref::vision::test
