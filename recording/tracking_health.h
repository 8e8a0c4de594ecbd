#pragma once
// How well the camera was tracked, kept in a recording (health.jsonl, spec §11) for the report's
// health page: one line a second of video with the frames tracked, the rate they were tracked at
// (wall clock), the tracker's mean work per frame, the detections rejected by reason and the frames
// with a hand (anything not a disk) over the table. Summed over the second, so that a session of
// hours stays small.

#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>

#include "engine/io/line_file.h"
#include "vision/tracker.h"

namespace diskref::recording {

class TrackingHealthRecorder {
 public:
  explicit TrackingHealthRecorder(const std::filesystem::path& file);
  // One tracked frame's result (its track's `t` is video time).
  void add(const vision::TrackerResult& result);
  // Writes the second still open. Returns false when a write failed (failure()).
  bool flush();
  bool failed() const { return file_.failed(); }
  const std::string& failure() const { return file_.failure(); }

 private:
  io::LineFile file_;
  std::optional<double> second_start_t_;
  std::chrono::steady_clock::time_point second_start_wall_;
  long long frames_ = 0;
  long long foreign_ = 0;
  double work_ms_ = 0;
  double sigma_sum_ = 0;
  long long sigma_count_ = 0;
  std::array<long long, vision::kRejectReasonCount> rejected_{};
};

}  // namespace diskref::recording
