#pragma once
// A camera's settings kept between evenings (camera_settings.json, in a table's setup folder):
// the capture mode chosen, the power line frequency, and the picture locked (the values focus,
// exposure and white balance were locked at), so that the next evening starts the same.
//
//   {"camera_settings": 1, "camera": "HD Pro Webcam C920", "format": "MJPG", "size": [1920, 1080],
//    "fps": 30, "power_line": "50", "picture": "locked",
//    "locked": {"focus_absolute": 0, "exposure_absolute": 156, "white_balance_temperature": 4600}}
//
// "power_line": "50" | "60" | "off" | "leave"; "picture": "locked" | "free"; "locked" holds only
// what was locked. Every member but "camera_settings" is optional.

#include <filesystem>
#include <map>
#include <optional>
#include <string>

#include "vision/picture_controls.h"

namespace diskref::vision {

struct CameraSettingsFile {
  std::string camera;  // the card's name, to notice another camera plugged in
  std::string format;  // FOURCC text, "" = not kept
  int width = 0, height = 0;
  double fps = 0;
  PowerLine power_line = PowerLine::leave;
  bool picture_free = false;
  std::map<std::string, int> locked;
};

// nullopt when the file does not exist; InputError naming the file and member when it is damaged.
std::optional<CameraSettingsFile> load_camera_settings(const std::filesystem::path& file);
// Atomic write.
void save_camera_settings(const CameraSettingsFile& settings, const std::filesystem::path& file);

}  // namespace diskref::vision
