#pragma once
// A progress line on stderr for long work over video frames: redrawn in place on a terminal,
// every 10 % otherwise (logs stay readable).

#include <chrono>
#include <optional>

namespace diskref::cli {

class Progress {
 public:
  Progress(std::optional<long long> total, bool quiet);
  void update(long long done, double fps);
  // Ends the line being redrawn (before other output, and at the end).
  void finish();

 private:
  std::optional<long long> total_;
  bool quiet_;
  bool tty_;
  int last_tenth_ = 0;
  std::chrono::steady_clock::time_point last_{};
};

}  // namespace diskref::cli
