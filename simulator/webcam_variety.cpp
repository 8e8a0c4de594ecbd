#include "simulator/webcam_variety.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <nlohmann/json.hpp>

#include "simulator/session_variety.h"

namespace diskref::simulator {

using nlohmann::json;

double flicker_depth_for_ripple(double ripple, double mains_hz, double exposure_s) {
  const double x = std::numbers::pi * 2 * mains_hz * exposure_s;
  const double shrink = x > 0 ? std::fabs(std::sin(x) / x) : 1.0;
  return shrink > 0 ? std::min(1.0, ripple / shrink) : 1.0;
}

json webcam_session(const WebcamVariant& v) {
  const json start = json::array({
      {{"disk", "enterprise"}, {"x", 120}, {"y", 110}, {"heading", 30}},
      {{"disk", "defiant"}, {"x", 470}, {"y", 110}, {"heading", 100}},
      {{"disk", "reliant"}, {"x", 130}, {"y", 330}, {"heading", 300}, {"face", "down"}},
      {{"disk", "ktinga"}, {"x", 460}, {"y", 320}, {"heading", 210}},
      {{"disk", "torpedo-1"}, {"x", 300}, {"y", 360}, {"heading", 0}},
  });
  // A hand comes in at the play area's west edge and rests there (over the edge, the arm off the
  // table): the moment a settle must not be called, and when auto-exposure steps.
  const json events = json::array({
      {{"t", 0.7}, {"flip", {{"disk", "enterprise"}, {"count", 1}, {"seconds_per_flip", 0.3}}}},
      {{"t", 1.9},
       {"hand",
        {{"at_mm", {25, 225}},
         {"height_mm", 40},
         {"enter_s", 0.5},
         {"hold_s", 0.8},
         {"leave_s", 0.5},
         {"from", "west"}}}},
      {{"t", 4.9},
       {"place",
        {{"disk", "torpedo-2"}, {"x", 360}, {"y", 230}, {"heading", 135}, {"duration_s", 1.2}, {"from", "north"}}}},
      {{"t", 6.7}, {"flip", {{"disk", "torpedo-1"}, {"count", 1}, {"seconds_per_flip", 0.3}}}},
  });
  json camera = {{"resolution", {v.width, v.height}},
                 {"horizontal_fov_deg", 62},
                 {"pose", {{"height_mm", 850}, {"tilt_deg", 12}, {"yaw_deg", 90}, {"look_at_mm", {300, 225}}}},
                 {"dist_coeffs", {-0.08, 0.08 / 3, 0.0004, -0.0003, 0.0}}};
  json effects = camera_effects(v.noise_sigma, 0.5, 0.25, 0.2, v.exposure, v.shutter);
  if (v.jpeg_quality > 0) effects["jpeg_quality"] = v.jpeg_quality;
  json webcam = json::object();
  if (v.ripple > 0)
    webcam["flicker"] = {{"mains_hz", v.mains_hz},
                         {"depth", flicker_depth_for_ripple(v.ripple, v.mains_hz, v.shutter / v.fps)},
                         {"phase_deg", 40}};
  if (v.auto_exposure)
    webcam["auto_exposure"] = {{"step", -0.12}, {"delay_s", 0.15}, {"steps", 3}, {"step_interval_s", 0.1}};
  // Knocked while the table lies quiet, between the hand and the torpedo brought in.
  if (v.knock)
    webcam["knock"] = {{"t", 3.9},        {"swing_deg", 0.4},   {"frequency_hz", 4},
                       {"decay_s", 0.25}, {"offset_deg", 0.06}, {"axis_deg", 30}};
  if (v.repeated_frames > 0) webcam["repeated_frames"] = v.repeated_frames;
  if (v.lost_frames > 0) webcam["lost_frames"] = v.lost_frames;
  json scenario = {
      {"duration_s", 8.2},
      {"fps", v.fps},
      {"seed", 5},
      {"camera", camera},
      {"table", varied_table()},
      {"disks", varied_registry()},
      {"surface", {{"mat", "starfield"}, {"table", "wood"}, {"mat_margin_mm", 60}, {"table_margin_mm", 400}}},
      {"start", start},
      {"events", events},
      {"effects", effects}};
  if (!webcam.empty()) scenario["webcam"] = webcam;
  return scenario;
}

std::vector<WebcamVariant> webcam_variants() {
  // Flicker: each a 3 % ripple, at an exposure that is no whole number of the light's periods
  // (those see none: what anti-flicker settings choose).
  return {
      {.name = "clean"},
      {.name = "flicker-50hz-30fps", .ripple = 0.03, .mains_hz = 50},
      {.name = "flicker-60hz-30fps", .shutter = 0.4, .ripple = 0.03, .mains_hz = 60},
      {.name = "flicker-50hz-25fps", .fps = 25, .shutter = 0.3, .ripple = 0.03, .mains_hz = 50},
      {.name = "flicker-60hz-25fps", .fps = 25, .shutter = 0.3, .ripple = 0.03, .mains_hz = 60},
      {.name = "flicker-50hz-60fps", .fps = 60, .ripple = 0.03, .mains_hz = 50},
      {.name = "flicker-60hz-60fps", .fps = 60, .shutter = 0.3, .ripple = 0.03, .mains_hz = 60},
      {.name = "auto-exposure", .auto_exposure = true},
      {.name = "knocked-boom", .knock = true},
      {.name = "repeated-lost-frames", .repeated_frames = 0.04, .lost_frames = 0.04},
      {.name = "heavy-jpeg", .jpeg_quality = 40},
      {.name = "dim", .exposure = 0.35, .noise_sigma = 3.5},
      {.name = "720p", .width = 1280, .height = 720},
      {.name = "all-together",
       .noise_sigma = 3.0,
       .jpeg_quality = 50,
       .ripple = 0.03,
       .mains_hz = 50,
       .auto_exposure = true,
       .knock = true,
       .repeated_frames = 0.04,
       .lost_frames = 0.04},
  };
}

}  // namespace diskref::simulator
