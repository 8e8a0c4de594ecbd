// A live camera's settings file (camera_settings.json in a setup folder, or --camera-settings).
#include <nlohmann/json.hpp>
#include "fuzz/fuzz_files.h"

#include "fuzz/fuzz_target.h"
#include "vision/camera_settings_file.h"

DISKREF_FUZZ_TARGET(camera_settings) {
  using namespace diskref;
  if (const auto s = vision::load_camera_settings(fuzz::place_input("mytable/camera_settings.json", input))) {
    // What was read is written back the same.
    const std::filesystem::path again = fuzz::place_input("mytable/again.json", "");
    vision::save_camera_settings(*s, again);
    (void)vision::load_camera_settings(again);
  }
}
