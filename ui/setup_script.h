#pragma once
// A scripted run of the setup screen (`diskref ui --setup DIR --setup-script FILE`), for tests and
// for the documentation's screenshots (docs/guide/first-table.md): one JSON object a line, {"t":
// SECONDS, "do": ACTION, ...}, done in order once the source has reached `t` (steps without the
// camera run at t = 0) and the action can be done: each is what a button of the screen does.
//   {"do": "set_play_area", "w": 600, "h": 600}          the play area's size (then "next")
//   {"do": "set_camera", "resolution": [1920, 1080], "fov": 70, "height": 1000}
//   {"do": "make_kit"}                                    write the kit (kit.pdf, table.json, disks.json)
//   {"do": "calibrate"}                                   fit the lens from the views kept
//   {"do": "next"}, {"do": "back"}                        the step's Next (done when it can be) and Back
//   {"do": "apply_offsets"}                               correct the down faces' heading offsets
//   {"do": "screenshot", "file": "shot.png"}              the window (and shot.json: what it shows)
//   {"do": "start"}                                       leave the setup and start the table
//   {"do": "quit"}                                        leave the setup (it is saved)

#include <deque>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace diskref::ui {

struct SetupAction {
  double t = 0;
  std::string what;     // the "do"
  nlohmann::json args;  // the line
  std::string where;    // "script.jsonl line 3", for messages
};

// Throws InputError naming the file and line: an unknown action, a missing or wrong member.
std::deque<SetupAction> load_setup_script(const std::filesystem::path& file);

}  // namespace diskref::ui
