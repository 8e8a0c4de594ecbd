#pragma once
// The live camera's settings on the command line, the same for every subcommand that opens a
// camera (`diskref track`, `diskref setup`, `diskref ui`): --camera-size WxH, --camera-fps,
// --camera-format, --exposure, --power-line, --camera-free, --camera-settings, --camera-give-up.

#include <optional>
#include <string>

#include <CLI/CLI.hpp>

#include "vision/frame_source.h"

namespace diskref::cli {

struct CameraSettingsText {
  std::string size;           // WIDTHxHEIGHT, empty = the largest giving the rate
  double fps = 0;             // 0 = default
  double exposure = -1;       // < 0 = automatic
  std::string format;         // FOURCC, empty = MJPEG when it gives the size and rate
  std::string power_line;     // "50", "60", "off"; empty = as kept, else left as the camera has it
  bool free = false;          // leave focus, exposure and white balance automatic
  std::string settings_file;  // camera_settings.json to read and keep the settings in
  double give_up = 0;         // seconds a lost camera is waited for (0 = until Ctrl-C)
};

void add_camera_settings(CLI::App* sub, CameraSettingsText& settings);

// Throws InputError naming the options when a setting is given without a camera (`camera` empty):
// the settings need a camera, and are refused with a video.
void check_settings_have_camera(const CameraSettingsText& settings, const std::string& camera);

// The options for opening `camera` (N, a device path or a URL) with these settings; the camera's
// events are printed on stderr as "diskref COMMAND: camera ...: ...". `default_settings_file` (a
// setup folder's; empty: none) is used when --camera-settings is not given. Throws InputError naming the option
// when the size is not WIDTHxHEIGHT.
vision::CameraOptions camera_options(const std::string& camera, const CameraSettingsText& settings,
                                     const std::string& command, const std::string& default_settings_file = "");

}  // namespace diskref::cli
