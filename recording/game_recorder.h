#pragma once
// What a refereed session keeps beyond the tracks (spec §11): the game file with its data copied
// beside it (game/), every input given to the referee as it is given (inputs.jsonl, flushed per
// line), the referee's log as it grows (log.json, rewritten atomically after every frame that added
// to it: a kill leaves the last whole log), and which stills to take: one at every settle the
// referee read, of the frame it was read from.
//
// The camera's images themselves are the caller's (VideoRecorder::still writes them): this class
// says which frame deserves one and where it goes, so that it stays free of any image type.

#include <cstddef>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "engine/io/line_file.h"
#include "referee/referee.h"

namespace diskref::recording {

// stills/settle-000012.jpg: the still of settle 12 (a log entry's `reading`).
std::filesystem::path still_path(const std::filesystem::path& dir, std::size_t settle);

// Copies `game_file` to DIR/game/game.json and each folder or file its "data" names to
// DIR/game/data/N (the copy's "data" rewritten to match; its "table" and "registry", when given,
// point at the recording's table.json and disks.json). Throws InputError naming the game file.
void copy_game_file(const std::filesystem::path& game_file, const std::filesystem::path& dir);

class GameRecorder {
 public:
  // Copies the game (copy_game_file) and opens DIR/inputs.jsonl. DIR exists (SessionRecorder made it).
  GameRecorder(const std::filesystem::path& dir, const std::filesystem::path& game_file);

  // After the referee was fed a frame (or given inputs): the new inputs are appended, the log
  // rewritten if it grew. Returns the stills to take of this frame (`frame` is its index): one per
  // settle found at it.
  std::vector<std::filesystem::path> after_frame(const referee::Referee& referee, long long frame);
  // The session ended: the final log (with what the referee still waited for).
  void finish(const referee::Referee& referee);

  // A write failed (a full disk): what was kept. Recording the game stopped there.
  bool failed() const { return !failure_.empty(); }
  const std::string& failure() const { return failure_; }
  std::size_t stills_asked() const { return stills_asked_; }

 private:
  void write_log(const referee::Referee& referee);

  std::filesystem::path dir_;
  std::unique_ptr<io::LineFile> inputs_;
  std::size_t inputs_written_ = 0;
  std::size_t log_entries_written_ = static_cast<std::size_t>(-1);
  std::size_t settles_seen_ = 0;
  std::size_t stills_asked_ = 0;
  std::string failure_;
};

}  // namespace diskref::recording
