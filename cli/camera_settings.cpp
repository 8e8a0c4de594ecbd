#include "cli/camera_settings.h"

#include <cstdio>

#include "cli/option_checks.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"

namespace diskref::cli {

void add_camera_settings(CLI::App* sub, CameraSettingsText& settings) {
  const char* group = "Live camera";
  sub->add_option("--camera-size", settings.size,
                  "Camera resolution WIDTHxHEIGHT (default: the largest giving the rate)")
      ->group(group);
  sub->add_option("--camera-fps", settings.fps, "Camera frame rate (default 30)")
      ->check(finite_between(0.1, 1000))
      ->group(group);
  sub->add_option("--camera-format", settings.format,
                  "V4L2 pixel format to force (MJPG, YUYV, ...; default: MJPEG when it gives the size and rate; "
                  "diskref cameras lists them)")
      ->group(group);
  sub->add_option("--exposure", settings.exposure,
                  "Manual camera exposure (driver units, 100 us; default automatic until locked)")
      ->check(finite_between(0, 1e6))
      ->group(group);
  sub->add_option("--power-line", settings.power_line,
                  "Mains frequency of the room's light, for the camera's anti-flicker: 50, 60 or off")
      ->check(CLI::IsMember({"50", "60", "off"}))
      ->group(group);
  sub->add_flag("--camera-free", settings.free,
                "Leave focus, exposure and white balance automatic (default: locked 3 s after the first frame)")
      ->group(group);
  sub->add_option(
         "--camera-settings", settings.settings_file,
         "Keep the camera's settings (format, power line, the picture locked) in this JSON file, read again next time")
      ->group(group);
  sub->add_option(
         "--camera-give-up", settings.give_up,
         "Stop when a camera that went away has not come back after this many seconds (default: wait until Ctrl-C)")
      ->check(finite_between(0.1, 1e7))
      ->group(group);
}

namespace {

// Whether any setting was given.
bool any_given(const CameraSettingsText& settings) {
  return !settings.size.empty() || settings.fps > 0 || settings.exposure >= 0 || !settings.format.empty() ||
         !settings.power_line.empty() || settings.free || !settings.settings_file.empty() || settings.give_up > 0;
}

}  // namespace

void check_settings_have_camera(const CameraSettingsText& settings, const std::string& camera) {
  if (any_given(settings) && camera.empty())
    throw io::InputError("", "--camera-size/--camera-fps/--camera-format/--exposure/--power-line/...",
                         "go with --camera");
}

vision::CameraOptions camera_options(const std::string& camera_text, const CameraSettingsText& settings,
                                     const std::string& command, const std::string& default_settings_file) {
  vision::CameraOptions camera;
  camera.device = camera_text;
  if (!settings.size.empty()) {
    int w = 0, h = 0;
    char rest = 0;
    if (std::sscanf(settings.size.c_str(), "%dx%d%c", &w, &h, &rest) != 2 || w < model::bounds::kMinImageSidePx ||
        h < model::bounds::kMinImageSidePx || w > model::bounds::kMaxImageSidePx || h > model::bounds::kMaxImageSidePx)
      throw io::InputError("", "--camera-size",
                           "must be WIDTHxHEIGHT, each 16..16384, e.g. 1920x1080 (got \"" + settings.size + "\")");
    camera.width = w;
    camera.height = h;
  }
  camera.fps = settings.fps;
  if (settings.exposure >= 0) camera.exposure = settings.exposure;
  camera.format = settings.format;
  camera.power_line = settings.power_line.empty() ? "leave" : settings.power_line;
  camera.picture_free = settings.free;
  if (!settings.settings_file.empty())
    camera.settings_file = settings.settings_file;
  else if (!default_settings_file.empty())
    camera.settings_file = default_settings_file;
  if (settings.give_up > 0) camera.give_up_after_s = settings.give_up;
  // Events come from the thread reading the camera; one fprintf is one line.
  camera.on_event = [command](const vision::CameraEvent& e) {
    const bool plain = e.kind == vision::CameraEvent::Kind::note || e.kind == vision::CameraEvent::Kind::back;
    std::fprintf(stderr, "diskref %s: %s: %s%s (t=%.1f s)\n", command.c_str(), e.source.c_str(),
                 plain ? "" : "warning: ", e.message.c_str(), e.t);
  };
  return camera;
}

}  // namespace diskref::cli
