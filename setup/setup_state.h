#pragma once
// A first table's setup, kept in its folder so that the next run takes it up where it stopped.
//
// The folder holds what each step wrote: setup.json (this state), table.json and disks.json (spec
// §3, §4) and kit.pdf (the kit step), camera.json (spec §7: calibration), table_pose.json (the
// table step; the table pose file of docs/reference/commands/table.md), camera_settings.json (the
// live camera's settings, kept by the camera itself when its picture is locked). setup.json says
// which steps are done and what they found; a step is done once its files are written and checked.
//
// setup.json: {"setup": 1, "game": PATH (relative: to the folder), "play_area_mm": [w, h],
//   "camera": {"resolution": [w, h], "horizontal_fov_deg": D, "height_mm": H},
//   "board": "charuco:7x5:30:22" (as diskref tags --board), "page": "a4",
//   "steps": {"play_area": {...}, "camera": {...}, "kit": {...}, "calibration": {...},
//             "table": {...}, "disks": {...}}}
// each step's object holds what it found (the figures its summary shows).

#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/geometry/vec2.h"
#include "engine/model/camera_plan.h"
#include "print/board_pattern.h"

namespace diskref::setup {

enum class Step { play_area, camera, kit, calibration, table, disks, done };
inline constexpr Step kAllSteps[] = {Step::play_area,   Step::camera, Step::kit,
                                     Step::calibration, Step::table,  Step::disks};

std::string_view step_key(Step step);    // "play_area", ... (setup.json)
std::string_view step_title(Step step);  // "Play area", "Camera", "Kit", "Calibration", "Table", "Disks", "Ready"
// What the step is for, in a sentence or two: the screen's "what is this" and the commands' help.
std::string_view step_purpose(Step step);

// What a done step found, in words ("RMS 0.042 px over 11 views (1920x1080)"), from its setup.json entry.
std::string step_summary(Step step, const nlohmann::json& found);

struct SetupState {
  std::filesystem::path dir;
  std::filesystem::path game_file;  // absolute
  std::optional<geom::Vec2> play_area_mm;
  std::optional<model::PinholeCamera> camera;
  std::string board = "charuco:7x5:30:22";
  std::string page = "a4";
  std::map<std::string, nlohmann::json> done;  // step key -> what it found

  bool is_done(Step step) const { return done.count(std::string(step_key(step))) > 0; }
  // The first step not done (Step::done when all are).
  Step next_step() const;
  // A step and every one after it (redone when an earlier one changes what they rest on).
  void undo_from(Step step);
  void mark_done(Step step, nlohmann::json found);

  std::filesystem::path table_file() const { return dir / "table.json"; }
  std::filesystem::path disks_file() const { return dir / "disks.json"; }
  std::filesystem::path kit_file() const { return dir / "kit.pdf"; }
  std::filesystem::path camera_file() const { return dir / "camera.json"; }
  std::filesystem::path table_pose_file() const { return dir / "table_pose.json"; }
  // The live camera's settings (vision/camera_settings_file.h): its format, power line, the picture
  // locked; written when the picture is locked, read at every opening of the camera.
  std::filesystem::path camera_settings_file() const { return dir / "camera_settings.json"; }
  std::filesystem::path state_file() const { return dir / "setup.json"; }
};

// Reads DIR/setup.json; a folder without one is a new setup (its game file from `game`, which may
// then not be empty). A `game` given for a setup that has another is refused (InputError: start a
// new folder, or leave --game out). Throws InputError naming setup.json for a damaged file.
SetupState open_setup(const std::filesystem::path& dir, const std::optional<std::filesystem::path>& game);
// Writes DIR/setup.json atomically (the folder is created when missing).
void save_setup(const SetupState& state);

// "charuco:7x5:30:22", "chessboard:9x6:25" (as diskref tags --board) to a board; throws
// std::invalid_argument with the problem.
print::BoardSpec parse_board_text(const std::string& text);
std::string board_text(const print::BoardSpec& board);

}  // namespace diskref::setup
