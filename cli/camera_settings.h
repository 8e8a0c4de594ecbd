#pragma once
// The live camera's settings on the command line, the same for every subcommand that opens a
// camera (`diskref track`, `diskref ui`): --camera-size WxH, --camera-fps, --exposure.

#include <string>

#include <CLI/CLI.hpp>

#include "vision/frame_source.h"

namespace diskref::cli {

struct CameraSettingsText {
  std::string size;     // WIDTHxHEIGHT, empty = the camera's default
  double fps = 0;       // 0 = default
  double exposure = -1; // < 0 = automatic
};

void add_camera_settings(CLI::App* sub, CameraSettingsText& settings);

// Whether any setting was given (they need a camera: refused with a video).
bool any_given(const CameraSettingsText& settings);

// The options for opening `device` (an index or a path) with these settings. Throws InputError
// naming the option when the size is not WIDTHxHEIGHT.
vision::CameraOptions camera_options(const std::string& device, const CameraSettingsText& settings);

}  // namespace diskref::cli
