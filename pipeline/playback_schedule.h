#pragma once
// When each frame of a recorded video is due when it is played at its own pace (times a speed):
// the one schedule of the headless pipeline's `--realtime` and the screen's playback, kept apart
// from any clock so that it is tested with numbers, not by waiting.
//
// Frame time t is due at anchor_wall + (t - anchor_t) / speed. The anchor is the first frame, and
// again after a change of speed or restart() (a seek, a step); a player that catches up (the
// pipeline: a file's game keeps its timeline) waits for nothing until it is back on time, one that
// does not (the screen: a smooth display rather than a rush) starts again from the late frame.

#include <optional>

namespace diskref::pipeline {

struct PlaybackScheduleOptions {
  // Whether a player that fell behind rushes until it is on time again, or starts again from the
  // late frame once it is more than `fall_behind_s` late.
  bool catch_up = true;
  double fall_behind_s = 0.25;
};

class PlaybackSchedule {
 public:
  explicit PlaybackSchedule(PlaybackScheduleOptions options = {}) : options_(options) {}

  // The wall time (the caller's clock, seconds) at which the frame of time `frame_t` is due when
  // it is ready at `now`, played at `speed` (> 0).
  double due(double frame_t, double speed, double now);
  // The frame was shown at `now`, after waiting for what due() said: a player that does not catch
  // up and was too late starts again from the next frame.
  void shown(double due_at, double now);
  // The next frame starts a new timeline (a seek, a step, a pause).
  void restart() { anchor_.reset(); }

 private:
  struct Anchor {
    double wall = 0, frame_t = 0, speed = 1;
  };
  PlaybackScheduleOptions options_;
  std::optional<Anchor> anchor_;
};

}  // namespace diskref::pipeline
