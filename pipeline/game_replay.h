#pragma once
// A recorded game refereed again from its own files (spec §11): its tracks, inputs, table, disks
// and game file, through the same referee, so that the report and the replay screen have every
// ruling with all its evidence (not only what log.json keeps) and say whether the replay gives the
// recorded log. It runs through the one pipeline (pipeline.h), as the game did when it was played.

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "recording/game_recording.h"
#include "referee/referee.h"

namespace diskref::pipeline {

struct ReplayedGame {
  model::TableSpec table;
  model::DiskRegistry registry;
  std::optional<calib::CameraModel> lens;
  rules::GameData data;
  rules::GameState initial;                // as the game file has it
  std::vector<referee::Entry> log;         // every entry, as the referee logged it
  std::vector<model::TrackFrame> settles;  // the table at each settle (an entry's `reading`)
  rules::GameState final_state;
  referee::Expectation expecting_at_end;
  std::vector<std::string> waiting;  // what it still waited for when the recording ended
  nlohmann::json log_json;
  // Whether the log refereed again is the recorded log.json (absent: no log.json to compare).
  std::optional<bool> matches_recorded_log;
};

// The referee's options the session ran with (its recorded parameters), over `base` for what the
// recording does not say: a replay with other options would not give its rulings.
referee::RefereeOptions recorded_referee_options(const recording::GameRecording& recording,
                                                 referee::RefereeOptions base = {});

// Throws InputError naming the file when the recording's setup files cannot be read, or DIR holds
// no game.
ReplayedGame replay_game(const recording::GameRecording& recording);

}  // namespace diskref::pipeline
