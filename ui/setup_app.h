#pragma once
// The setup screen's program (`diskref ui --setup DIR`): the window, the worker over the camera or
// a video, the screen (setup_screen.h) and, for tests and the documentation's pictures, a script of
// what its buttons do (setup_script.h). Ends when the setup is left (saved), or when "Start the
// table" is pressed: then the caller opens the companion screen on the files the setup wrote.

#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "setup/setup_state.h"
#include "vision/frame_source.h"

namespace diskref::ui {

struct SetupAppOptions {
  std::filesystem::path dir;
  std::optional<std::filesystem::path> game;  // a new setup's game file
  // The camera or video the camera steps read; null: the steps without the camera only.
  std::unique_ptr<vision::FrameSource> source;
  bool live = false;     // the source is a camera
  bool realtime = true;  // a video plays at its own rate (false: as fast as the steps take it)
  std::string camera_hint = "diskref ui --setup DIR --camera 0";
  std::optional<std::filesystem::path> script;
  int width = 1280;
  int height = 800;
};

struct SetupOutcome {
  bool start = false;    // "Start the table": open the companion screen on the setup's files
  long long frame = -1;  // the source's frame when the setup ended (a video goes on from there)
  setup::SetupState state;
  std::vector<std::string> problems;  // script actions that could not be done, and why
};

// Throws InputError for a bad setup folder, game file or script; std::runtime_error when no window
// can be opened.
SetupOutcome run_setup_app(SetupAppOptions options);

}  // namespace diskref::ui
