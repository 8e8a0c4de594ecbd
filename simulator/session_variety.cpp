#include "simulator/session_variety.h"

#include <fstream>
#include <string>

#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/json_cursor.h"
#include "engine/random/splitmix64.h"
#include "simulator/scenario.h"
#include "simulator/session.h"

namespace diskref::simulator {
namespace {

using nlohmann::json;

json tag(int id, const char* face, double size_mm, double offset_deg) {
  return {{"id", id}, {"face", face}, {"size_mm", size_mm}, {"heading_offset_deg", offset_deg}};
}

}  // namespace

json varied_registry() {
  const json flatted = {{"type", "flatted_circle"}, {"diameter_mm", 63.5}, {"flat_to_flat_mm", 57.2}};
  const json torpedo = {{"type", "circle"}, {"diameter_mm", 44.45}};
  return {{"disks",
           {{{"name", "enterprise"},
             {"kind", "ship"},
             {"shape", flatted},
             {"tags", {tag(10, "up", 24, 0), tag(11, "down", 24, 0)}}},
            {{"name", "defiant"},
             {"kind", "ship"},
             {"shape", flatted},
             {"tags", {tag(12, "up", 24, 0), tag(13, "down", 24, 90)}}},
            {{"name", "reliant"},
             {"kind", "ship"},
             {"thickness_mm", 3.0},
             {"shape", {{"type", "circle"}, {"diameter_mm", 63.5}}},
             {"tags", {tag(14, "up", 24, 180), tag(15, "down", 24, 0)}}},
            {{"name", "ktinga"},
             {"kind", "ship"},
             {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 76.2}, {"flat_to_flat_mm", 68.6}}},
             {"tags", {tag(18, "up", 28, 0), tag(19, "down", 28, 0)}}},
            {{"name", "torpedo-1"},
             {"kind", "torpedo"},
             {"shape", torpedo},
             {"tags", {tag(40, "up", 17, 0), tag(44, "down", 17, 0)}}},
            {{"name", "torpedo-2"},
             {"kind", "torpedo"},
             {"shape", torpedo},
             {"tags", {tag(41, "up", 17, 0), tag(45, "down", 17, 0)}}},
            {{"name", "range"},
             {"kind", "template"},
             {"thickness_mm", 1.5},
             {"shape", {{"type", "rect"}, {"length_mm", 88.9}, {"width_mm", 25.4}}},
             {"tags", {tag(60, "up", 14, 0)}}}}}};
}

json varied_table() {
  return {{"play_area_mm", {600, 450}},
          {"corner_markers",
           {{{"id", 0}, {"center_mm", {-30, -30}}, {"size_mm", 30}},
            {{"id", 1}, {"center_mm", {630, -30}}, {"size_mm", 30}},
            {{"id", 2}, {"center_mm", {630, 480}}, {"size_mm", 30}},
            {{"id", 3}, {"center_mm", {-30, 480}}, {"size_mm", 30}}}}};
}

json varied_session(const SessionVariant& v) {
  random::SplitMix64 rng(v.seed * 7919 + 17);
  // Where each disk starts: a place of its own, moved a little by the seed.
  auto near = [&](double x, double y) { return json{x + rng.uniform(-20, 20), y + rng.uniform(-20, 20)}; };
  auto heading = [&](double h) { return h + rng.uniform(-15, 15); };
  const json e = near(110, 110), d = near(480, 100), r = near(120, 340), k = near(470, 330), t1 = near(300, 370);
  const json t2 = near(370, 230);
  json start = json::array({
      {{"disk", "enterprise"}, {"x", e[0]}, {"y", e[1]}, {"heading", heading(30)}},
      {{"disk", "defiant"}, {"x", d[0]}, {"y", d[1]}, {"heading", heading(100)}},
      {{"disk", "reliant"}, {"x", r[0]}, {"y", r[1]}, {"heading", heading(300)}, {"face", "down"}},
      {{"disk", "ktinga"}, {"x", k[0]}, {"y", k[1]}, {"heading", heading(210)}},
      {{"disk", "torpedo-1"}, {"x", t1[0]}, {"y", t1[1]}, {"heading", heading(0)}},
  });
  // Moments of play with quiet between them, so that the table settles after each.
  json events = json::array({
      {{"t", 0.8}, {"flip", {{"disk", "enterprise"}, {"count", 3}, {"seconds_per_flip", 0.3}, {"pause_s", 0.35}}}},
      {{"t", 3.2},
       {"hand",
        {{"over", {"reliant"}},
         {"height_mm", 40},
         {"enter_s", 0.5},
         {"hold_s", 1.5},
         {"leave_s", 0.5},
         {"from", "west"}}}},
      {{"t", 6.3}, {"flip", {{"disk", "torpedo-1"}, {"count", 1}, {"seconds_per_flip", 0.3}}}},
      {{"t", 7.2},
       {"place",
        {{"disk", "torpedo-2"},
         {"x", t2[0]},
         {"y", t2[1]},
         {"heading", heading(135)},
         {"duration_s", 1.4},
         {"from", "north"}}}},
      {{"t", 9.2},
       {"template",
        {{"disk", "range"},
         {"between", {"defiant", "ktinga"}},
         {"lay_s", 0.9},
         {"hold_s", 1.0},
         {"lift_s", 0.9},
         {"from", "east"}}}},
  });
  json camera = {{"resolution", {v.width, v.height}},
                 {"horizontal_fov_deg", v.horizontal_fov_deg},
                 {"pose",
                  {{"height_mm", v.camera_height_mm},
                   {"tilt_deg", v.tilt_deg},
                   {"yaw_deg", v.yaw_deg},
                   {"look_at_mm", {300, 225}}}}};
  if (v.k1 != 0) camera["dist_coeffs"] = {v.k1, -v.k1 / 3, 0.0008, -0.0006, 0.0};
  return {{"duration_s", 12.8},
          {"fps", v.fps},
          {"seed", v.seed},
          {"camera", camera},
          {"table", varied_table()},
          {"disks", varied_registry()},
          {"surface",
           {{"mat", v.seed % 2 ? "cloth" : "starfield"},
            {"table", "wood"},
            {"mat_margin_mm", 60},
            {"table_margin_mm", 400}}},
          {"start", start},
          {"events", events},
          {"effects",
           camera_effects(v.noise_sigma, v.blur_sigma_px, v.vignetting, v.light_gradient, v.exposure, v.shutter)}};
}

json camera_effects(double noise_sigma, double blur_sigma_px, double vignetting, double light_gradient, double exposure,
                    double shutter) {
  return {{"noise_sigma", noise_sigma}, {"blur_sigma_px", blur_sigma_px},
          {"vignetting", vignetting},   {"light_gradient", light_gradient},
          {"exposure", exposure},       {"supersample", 2},
          {"shutter", shutter}};
}

std::vector<SessionVariant> standard_variants() {
  // Designated initializers name only what differs from the defaults (in the struct's order).
  return {
      {.name = "straight-down", .seed = 1},
      {.name = "tilted-mild-lens", .seed = 2, .tilt_deg = 15, .k1 = -0.08},
      {.name = "tilted-strong-lens", .seed = 3, .camera_height_mm = 800, .tilt_deg = 25, .k1 = -0.28},
      {.name = "strong-lens-unknown", .seed = 4, .tilt_deg = 20, .k1 = -0.25, .lens_known = false},
      {.name = "no-lens-model-pinhole", .seed = 5, .tilt_deg = 10, .lens_known = false},
      {.name = "dim-noisy", .seed = 6, .tilt_deg = 12, .k1 = -0.1, .exposure = 0.35, .noise_sigma = 3.5},
      {.name = "soft-and-uneven",
       .seed = 7,
       .tilt_deg = 8,
       .blur_sigma_px = 1.1,
       .vignetting = 0.45,
       .light_gradient = 0.45},
      {.name = "high-wide", .seed = 8, .camera_height_mm = 1100, .tilt_deg = 5, .horizontal_fov_deg = 58, .k1 = -0.05},
      {.name = "low-wide-yawed",
       .seed = 9,
       .camera_height_mm = 850,
       .tilt_deg = 18,
       .yaw_deg = 80,
       .horizontal_fov_deg = 78,
       .k1 = -0.15},
      {.name = "steep-tilt", .seed = 10, .camera_height_mm = 750, .tilt_deg = 30, .k1 = -0.12},
      {.name = "fast-shutter-30fps", .seed = 11, .fps = 30, .tilt_deg = 14, .shutter = 0.2},
      {.name = "long-exposure-dim",
       .seed = 12,
       .tilt_deg = 22,
       .k1 = -0.2,
       .exposure = 0.5,
       .noise_sigma = 3.0,
       .shutter = 0.9},
  };
}

std::filesystem::path render_variant(const SessionVariant& variant, const std::filesystem::path& root) {
  return render_once(varied_session(variant), variant.name, root);
}

std::filesystem::path render_once(const nlohmann::json& scenario, const std::string& name,
                                  const std::filesystem::path& root) {
  const std::filesystem::path dir = root / name;
  // scenario.json is written last: its presence, equal to this scenario and made by this
  // renderer (renderer.txt), means a whole render.
  const std::filesystem::path marker = dir / "scenario.json";
  const std::filesystem::path renderer = dir / "renderer.txt";
  const std::string version = std::to_string(kRendererVersion);
  if (std::ifstream in(marker); in) {
    const json kept = json::parse(in, nullptr, false);
    std::ifstream made_by(renderer);
    std::string kept_version;
    std::getline(made_by, kept_version);
    if (kept == scenario && kept_version == version && std::filesystem::exists(dir / "video.mp4")) return dir;
  }
  std::filesystem::remove_all(dir);
  render_session(parse_scenario(io::JsonCursor(scenario, name + ".json"), root), dir, [](int, int) {});
  io::write_file_atomically(renderer, version + "\n");
  io::write_file_atomically(marker, scenario.dump(1) + "\n");
  return dir;
}

}  // namespace diskref::simulator
