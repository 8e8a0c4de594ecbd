#include "ui/setup_script.h"

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/io/jsonl.h"

namespace diskref::ui {

std::deque<SetupAction> load_setup_script(const std::filesystem::path& file) {
  std::deque<SetupAction> out;
  int line = 0;
  io::read_jsonl(file, [&](const io::JsonCursor& c) {
    ++line;
    SetupAction a;
    a.t = c.at("t").number_in(0, 1e7);
    a.what = c.at("do").one_of({"set_play_area", "set_camera", "make_kit", "calibrate", "next", "back", "apply_offsets",
                                "screenshot", "start", "quit"});
    if (a.what == "set_play_area") {
      c.allow_only({"t", "do", "w", "h"});
      c.at("w").number_in(10, 20000);
      c.at("h").number_in(10, 20000);
    } else if (a.what == "set_camera") {
      c.allow_only({"t", "do", "resolution", "fov", "height"});
      c.at("resolution").numbers(2);
      c.at("fov").number_in(1, 170);
      c.at("height").number_in(10, 20000);
    } else if (a.what == "screenshot") {
      c.allow_only({"t", "do", "file"});
      c.at("file").non_empty_string();
    } else {
      c.allow_only({"t", "do"});
    }
    a.args = c.json();
    a.where = file.string() + " line " + std::to_string(line);
    out.push_back(std::move(a));
  });
  return out;
}

}  // namespace diskref::ui
