#pragma once
// The referee's inputs as they are typed or written while a live game runs (spec §9 lines, one
// per line, without "t": each is timed by the frame it arrives before): from standard input, or
// from a file followed as it grows (`--follow-inputs FILE`, e.g. written by another program).
// Each line is checked when it arrives and the one who typed it is told at once whether it was
// taken ("standard input: line 3: taken") or why not; a line taken goes to the game
// (RefereedGame::submit), which gives it to the referee before the next frame.
//
// A thread of its own reads; it waits in poll() with a short timeout so that stop() ends it
// whatever the other end does.

#include <atomic>
#include <filesystem>
#include <functional>
#include <memory>
#include <string>
#include <thread>

#include "pipeline/refereed_game.h"

namespace diskref::pipeline {

struct InputLinesOptions {
  std::string name = "standard input";  // in every message
  // Follow the file as it grows: its end is not the end of the inputs (a pipe's or a terminal's is).
  bool follow = false;
  // A longer line is refused whole (a runaway writer must not grow memory without bound).
  std::size_t max_line_bytes = 64 * 1024;
  static InputLinesOptions following(const std::filesystem::path& file) {
    InputLinesOptions o;
    o.name = file.string();
    o.follow = true;
    return o;
  }
};

class InputLines {
 public:
  using Say = std::function<void(const std::string&)>;
  // Reads `fd` (not closed here) on a thread of its own; every line's fate is said through `say`
  // (from that thread).
  InputLines(int fd, std::shared_ptr<RefereedGame> game, InputLinesOptions options, Say say);
  // Opens FILE to follow; throws io::InputError naming it when it cannot be read.
  static std::unique_ptr<InputLines> follow_file(const std::filesystem::path& file, std::shared_ptr<RefereedGame> game,
                                                 Say say);
  ~InputLines();
  InputLines(const InputLines&) = delete;
  InputLines& operator=(const InputLines&) = delete;

  void stop();
  // Whether the reading has ended by itself (the pipe closed: not when following a file).
  bool ended() const { return ended_.load(); }
  long long lines_taken() const { return taken_.load(); }
  long long lines_refused() const { return refused_.load(); }

 private:
  void run();
  void line(std::string text);

  int fd_;
  int owned_fd_ = -1;
  std::shared_ptr<RefereedGame> game_;
  InputLinesOptions options_;
  Say say_;
  long long number_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> ended_{false};
  std::atomic<long long> taken_{0}, refused_{0};
  std::thread thread_;
};

}  // namespace diskref::pipeline
