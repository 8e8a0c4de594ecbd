#include "recording/game_recording.h"

#include <regex>
#include <set>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "recording/game_recorder.h"
#include "recording/recorded_video.h"

namespace diskref::recording {
namespace fs = std::filesystem;

GameRecording load_game_recording(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec))
    throw io::InputError(dir.string(), "", "is not a folder: give a recording's folder (made with --record)");
  if (!fs::exists(dir / "session.json"))
    throw io::InputError(dir.string(), "",
                         "is not a recording: it has no session.json (a folder made with --record has)");
  GameRecording g;
  g.session = load_recording(dir);
  g.warnings = g.session.warnings;

  if (fs::exists(dir / "game" / "game.json")) g.game_file = dir / "game" / "game.json";
  if (fs::exists(dir / "inputs.jsonl"))
    io::read_jsonl_skipping_bad_lines(
        dir / "inputs.jsonl", [&](const io::JsonCursor& c) { g.inputs.push_back(referee::parse_input(c)); },
        g.warnings);
  if (fs::exists(dir / "log.json")) {
    try {
      g.log = io::read_json_file(dir / "log.json");
    } catch (const io::InputError& e) {
      g.warnings.push_back(std::string(e.what()) + "; the rulings are not shown");
    }
  } else if (g.game_file) {
    g.warnings.push_back((dir / "log.json").string() + ": missing: the session stopped before its first ruling");
  }

  if (fs::is_directory(dir / "stills", ec))
    for (const fs::directory_entry& e : fs::directory_iterator(dir / "stills", ec)) {
      static const std::regex name(R"(settle-(\d{6})\.jpg)");
      std::smatch m;
      const std::string file = e.path().filename().string();
      if (std::regex_match(file, m, name)) g.stills[std::stoul(m[1].str())] = e.path();
    }
  // Every settle a ruling was read at should have its still.
  if (g.log && g.log->contains("log") && (*g.log)["log"].is_array()) {
    std::set<std::size_t> missing;
    for (const nlohmann::json& entry : (*g.log)["log"])
      // A session refereed from a tracks file had no pictures: no still is missing there.
      if (entry.is_object() && entry.contains("reading") && entry["reading"].is_number_unsigned() &&
          (!g.stills.empty() || g.session.provenance.frames_copied)) {
        const auto settle = entry["reading"].get<std::size_t>();
        if (!g.stills.count(settle)) missing.insert(settle);
      }
    for (std::size_t s : missing)
      g.warnings.push_back(still_path(dir, s).string() + ": missing: the rulings read at settle " + std::to_string(s) +
                           " are shown without their picture");
  }
  g.has_video = fs::exists(dir / "video" / "frames.jsonl");
  if (g.has_video) {
    // Its index only (the frames are decoded when played): a truncated or missing segment is said.
    const RecordedVideo video = RecordedVideo::open(dir / "video");
    g.warnings.insert(g.warnings.end(), video.warnings().begin(), video.warnings().end());
    g.video_frames = video.frames().size();
  }
  return g;
}

}  // namespace diskref::recording
