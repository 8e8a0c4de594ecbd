#include "recording/game_recorder.h"

#include <system_error>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/io/write_error.h"

namespace diskref::recording {
namespace fs = std::filesystem;

fs::path still_path(const fs::path& dir, std::size_t settle) {
  return dir / "stills" / fmt::format("settle-{:06d}.jpg", settle);
}

void copy_game_file(const fs::path& game_file, const fs::path& dir) {
  nlohmann::json game = io::read_json_file(game_file);
  const fs::path game_dir = dir / "game";
  std::error_code ec;
  fs::create_directories(game_dir / "data", ec);
  if (ec) throw io::WriteError((game_dir / "data").string() + ": cannot be created: " + ec.message());
  if (game.is_object() && game.contains("data") && game["data"].is_array()) {
    nlohmann::json copied = nlohmann::json::array();
    for (std::size_t i = 0; i < game["data"].size(); ++i) {
      const nlohmann::json& entry = game["data"][i];
      if (!entry.is_string()) throw io::InputError(game_file.string(), "/data/" + std::to_string(i), "not a path");
      fs::path from = entry.get<std::string>();
      if (from.is_relative()) from = game_file.parent_path() / from;
      // A file keeps its name (its extension says what it holds); a folder is copied whole.
      const fs::path to = fs::is_directory(from) ? fs::path("data") / std::to_string(i)
                                                 : fs::path("data") / std::to_string(i) / from.filename();
      fs::create_directories(game_dir / to.parent_path(), ec);
      fs::copy(from, game_dir / to, fs::copy_options::recursive | fs::copy_options::overwrite_existing, ec);
      if (ec)
        throw io::WriteError((game_dir / to).string() + ": cannot copy " + from.string() +
                             " into the recording: " + ec.message());
      copied.push_back(to.string());
    }
    game["data"] = copied;
  }
  if (game.is_object() && game.contains("table")) game["table"] = "../table.json";
  if (game.is_object() && game.contains("registry")) game["registry"] = "../disks.json";
  io::write_file_atomically(game_dir / "game.json", game.dump(1) + "\n");
}

GameRecorder::GameRecorder(const fs::path& dir, const fs::path& game_file) : dir_(dir) {
  copy_game_file(game_file, dir);
  std::error_code ec;
  fs::create_directories(dir / "stills", ec);
  if (ec) throw io::WriteError((dir / "stills").string() + ": cannot be created: " + ec.message());
  inputs_ = std::make_unique<io::LineFile>(dir / "inputs.jsonl", io::LineFile::Mode::append);
}

void GameRecorder::write_log(const referee::Referee& referee) {
  try {
    io::write_file_atomically(dir_ / "log.json", referee.log_json().dump(1) + "\n");
  } catch (const io::WriteError& e) {
    // The log before stays whole (written atomically); nothing more is written.
    failure_ = std::string(e.what()) + "; log.json keeps the log as it was before";
  }
}

std::vector<fs::path> GameRecorder::after_frame(const referee::Referee& referee, long long frame) {
  std::vector<fs::path> stills;
  const auto& settles = referee.settles();
  for (; settles_seen_ < settles.size(); ++settles_seen_)
    if (settles[settles_seen_].frame == frame) {
      stills.push_back(still_path(dir_, settles_seen_));
      ++stills_asked_;
    }
  if (!failure_.empty()) return stills;
  const auto& inputs = referee.inputs();
  for (; inputs_written_ < inputs.size(); ++inputs_written_)
    // With where it was given, so that a replay's messages name the same line.
    if (!inputs_->write_line(referee::input_to_json_with_place(inputs[inputs_written_]).dump())) {
      failure_ = inputs_->failure();
      return stills;
    }
  // An input may change the log without adding to it (a correction always adds its own entry).
  if (referee.log().size() != log_entries_written_) {
    log_entries_written_ = referee.log().size();
    write_log(referee);
  }
  return stills;
}

void GameRecorder::finish(const referee::Referee& referee) {
  (void)after_frame(referee, -1);
  if (failure_.empty()) write_log(referee);
}

}  // namespace diskref::recording
