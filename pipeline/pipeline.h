#pragma once
// The one pipeline every way in runs through (spec §12): frame -> tracker -> referee (with its
// inputs and the live feed: RefereedGame) -> recorder. `diskref referee` on a video, a tracks
// file, a recording or a live camera, the companion screen and `--session` replay all feed it, so
// each behaves as the others.
//
// Threads: frame(), run_source(), run_tracks() and finish() on one thread (the caller's, or the
// screen's worker); stop() from any thread or a signal handler; inputs go to the game from any
// thread (RefereedGame::submit, InputLines).

#include <atomic>
#include <chrono>
#include <functional>
#include <memory>
#include <optional>
#include <vector>

#include "engine/model/track_frame.h"
#include "pipeline/playback_schedule.h"
#include "pipeline/refereed_game.h"
#include "recording/refereed_session_recorder.h"
#include "vision/frame_source.h"
#include "vision/tracker.h"

namespace diskref::pipeline {

struct PipelineOptions {
  // Frames are given no sooner than their time (divided by `speed`) after the first: a page
  // watching the feed sees a file's game at the pace it was played. A camera is paced by itself.
  bool realtime = false;
  double speed = 1.0;
  // A live camera's focus, exposure and white balance are locked once the table is found: they
  // have settled on it (vision/live_camera.h). False: left automatic (--camera-free).
  bool lock_picture = true;
};

struct PipelineStats {
  long long frames = 0;
  bool table_found = false;  // the tracker found the table's pose at some frame
  std::optional<double> first_t, last_t;
};

class Pipeline {
 public:
  // Each part may be absent: no tracker (the frames come tracked), no game (tracking and
  // recording only), no recorder.
  Pipeline(std::unique_ptr<vision::Tracker> tracker, std::shared_ptr<RefereedGame> game,
           std::unique_ptr<recording::RefereedSessionRecorder> recorder, PipelineOptions options = {});
  ~Pipeline();
  Pipeline(const Pipeline&) = delete;
  Pipeline& operator=(const Pipeline&) = delete;

  // Called after each frame of run_source with the frame and what the tracker made of it (the
  // command's progress and notes).
  using FrameHook = std::function<void(const vision::Frame&, const vision::TrackerResult&)>;

  // One frame already tracked (a tracks file, the screen's worker), with its picture when there is
  // one (`jpeg`: the source's own bytes of it) and the tracker's whole result when there was one.
  void frame(const model::TrackFrame& track, const cv::Mat* picture = nullptr,
             std::shared_ptr<const std::vector<unsigned char>> jpeg = nullptr,
             const vision::TrackerResult* tracked = nullptr);
  // Every frame of `source`, tracked, until it ends or stop(). Needs a tracker.
  void run_source(vision::FrameSource& source, const FrameHook& after = {});
  // Every frame of `tracks` until the end or stop().
  void run_tracks(const std::vector<model::TrackFrame>& tracks);

  // Any thread, or a signal handler (atomic stores only): the run ends after the frame in hand;
  // a camera waiting for a lost device stops waiting.
  void stop();
  bool stopped() const { return stop_.load(); }

  // The end (once; also on destruction): the game's inputs still due and its finish, the feed's
  // last word, the recording closed whole with the last log.
  void finish();

  const PipelineStats& stats() const { return stats_; }
  vision::Tracker* tracker() { return tracker_.get(); }
  RefereedGame* game() { return game_.get(); }
  recording::RefereedSessionRecorder* recorder() { return recorder_.get(); }

 private:
  void pace(double t);

  std::unique_ptr<vision::Tracker> tracker_;
  std::shared_ptr<RefereedGame> game_;
  std::unique_ptr<recording::RefereedSessionRecorder> recorder_;
  PipelineOptions options_;
  PipelineStats stats_;
  std::atomic<bool> stop_{false};
  std::atomic<vision::FrameSource*> running_source_{nullptr};
  PlaybackSchedule schedule_;  // catches up: a file's game keeps its timeline
  bool finished_ = false;
};

}  // namespace diskref::pipeline
