#include "vision/camera_settings_file.h"

#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/json_cursor.h"
#include "vision/camera_inventory.h"

namespace diskref::vision {

std::optional<CameraSettingsFile> load_camera_settings(const std::filesystem::path& file) {
  if (!std::filesystem::exists(file)) return std::nullopt;
  const nlohmann::json doc = io::read_json_file(file);
  const io::JsonCursor root(doc, file.string());
  root.allow_only({"camera_settings", "camera", "format", "size", "fps", "power_line", "picture", "locked"});
  if (root.at("camera_settings").int_in(1, 1000) != 1) root.at("camera_settings").fail("version 1 expected");
  CameraSettingsFile s;
  s.camera = root.string_or("camera", "");
  if (auto f = root.find("format")) {
    s.format = f->string();
    if (!parse_fourcc(s.format)) f->fail("a FOURCC such as \"MJPG\" or \"YUYV\" expected");
  }
  if (auto size = root.find("size")) {
    s.width = size->at(std::size_t{0}).int_in(16, 16384);
    s.height = size->at(std::size_t{1}).int_in(16, 16384);
    if (size->size() != 2) size->fail("[width, height] expected");
  }
  if (auto fps = root.find("fps")) s.fps = fps->number_in(0.1, 1000);
  if (auto p = root.find("power_line")) s.power_line = *parse_power_line(p->one_of({"50", "60", "off", "leave"}));
  if (auto p = root.find("picture")) s.picture_free = p->one_of({"locked", "free"}) == "free";
  if (auto locked = root.find("locked")) {
    locked->allow_only({"focus_absolute", "exposure_absolute", "white_balance_temperature"});
    for (const std::string& key : locked->keys()) {
      const long long v = locked->at(key).integer();
      if (v < -(1LL << 31) || v >= (1LL << 31)) locked->at(key).fail("out of range");
      s.locked[key] = static_cast<int>(v);
    }
  }
  return s;
}

void save_camera_settings(const CameraSettingsFile& s, const std::filesystem::path& file) {
  nlohmann::json j;
  j["camera_settings"] = 1;
  if (!s.camera.empty()) j["camera"] = s.camera;
  if (!s.format.empty()) j["format"] = s.format;
  if (s.width > 0 && s.height > 0) j["size"] = {s.width, s.height};
  if (s.fps > 0) j["fps"] = s.fps;
  j["power_line"] = power_line_text(s.power_line);
  j["picture"] = s.picture_free ? "free" : "locked";
  if (!s.locked.empty()) j["locked"] = s.locked;
  io::write_file_atomically(file, j.dump(2) + "\n");
}

}  // namespace diskref::vision
