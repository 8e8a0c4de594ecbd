#include "cli/camera_settings.h"

#include <cstdio>

#include "cli/option_checks.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"

namespace diskref::cli {

void add_camera_settings(CLI::App* sub, CameraSettingsText& settings) {
  sub->add_option("--camera-size", settings.size, "Camera resolution WIDTHxHEIGHT (default: the camera's)");
  sub->add_option("--camera-fps", settings.fps, "Camera frame rate")->check(finite_between(0.1, 1000));
  sub->add_option("--exposure", settings.exposure, "Manual camera exposure (driver units; default automatic)")
      ->check(finite_between(0, 1e6));
}

bool any_given(const CameraSettingsText& settings) {
  return !settings.size.empty() || settings.fps > 0 || settings.exposure >= 0;
}

vision::CameraOptions camera_options(const std::string& device, const CameraSettingsText& settings) {
  vision::CameraOptions camera;
  camera.device = device;
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
  return camera;
}

}  // namespace diskref::cli
