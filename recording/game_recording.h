#pragma once
// A refereed session read back (spec §11) for a replay (`diskref referee --session`, `diskref ui
// --replay`) and for the report: the session (tracks, events, files), the game file, the inputs,
// the log, the stills and the video. Whatever is damaged or missing is said in `warnings`, once
// each, and the rest is there: a kill mid-session, a truncated segment, a garbage line or a missing
// still never hides the rest.

#include <cstddef>
#include <filesystem>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "recording/session_recording.h"
#include "referee/inputs.h"

namespace diskref::recording {

struct GameRecording {
  Recording session;                                    // its warnings are in `warnings` below too
  std::optional<std::filesystem::path> game_file;       // game/game.json (absent: no game was refereed)
  std::vector<referee::Input> inputs;                   // inputs.jsonl, in the order given
  std::optional<nlohmann::json> log;                    // log.json as last written
  std::map<std::size_t, std::filesystem::path> stills;  // settle -> its still, those present
  bool has_video = false;                               // video/frames.jsonl is there
  std::size_t video_frames = 0;                         // ... and the frames it indexes whose bytes are there
  std::vector<std::string> warnings;
};

// Throws InputError naming DIR when it is not a recording at all (no session.json, or one that is
// not a recording's); anything less is a warning.
GameRecording load_game_recording(const std::filesystem::path& dir);

}  // namespace diskref::recording
