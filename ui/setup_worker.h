#pragma once
// The setup screen's worker thread: reads the camera (or a video), hands every frame to the step
// the screen is on (setup_stages.h) and publishes the newest picture, shrunk for the screen, with
// what the step makes of it. The screen never waits for it: it takes the newest publication (a
// pointer copy under a mutex) and sends commands (calibrate now, ...) that run on this thread
// between frames, so that a fit taking seconds never freezes the window.
//
// A video is read only while a step takes frames (so that it starts with the calibration step, as
// a camera would be pointed at the board then), as fast as the steps take them or at its own rate
// (`realtime`); the screen may hold it before a time (hold_after) so that a scripted run is the
// same every time. A camera is read all the time: its picture is live on every step.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <opencv2/core.hpp>

#include "ui/setup_stages.h"
#include "vision/frame_source.h"

namespace diskref::ui {

struct SetupPublication {
  long long sequence = 0;
  long long frame = -1;
  double t = 0;
  cv::Mat display;                // the picture, BGR, shrunk to the view's size
  cv::Size image_size;            // the picture's full size (overlays are in its pixels)
  std::optional<StageView> view;  // absent while no step takes frames
  std::string busy;               // a command running ("calibrating")
  bool at_end = false;            // the video ended (or the camera stopped)
  bool held = false;              // the next frame lies past hold_after(): the source waits there
  double held_at = 0;             // that hold's time
};

class SetupWorker {
 public:
  SetupWorker(std::unique_ptr<vision::FrameSource> source, bool live, bool realtime);
  ~SetupWorker();
  SetupWorker(const SetupWorker&) = delete;
  SetupWorker& operator=(const SetupWorker&) = delete;

  // The step that takes frames from now on (null: none).
  void set_stage(std::unique_ptr<SetupStage> stage);
  // Runs `command` on the stage, on the worker thread, between frames; `label` is published while it runs.
  void post(std::string label, std::function<void(SetupStage&)> command);
  // Frames after source time `t` wait until the hold is moved on (scripted runs); +inf: no hold.
  void hold_after(double t);
  void set_display_size(int width, int height);

  std::shared_ptr<const SetupPublication> latest() const;
  bool live() const { return live_; }
  cv::Size frame_size() const { return frame_size_; }
  std::string description() const { return description_; }

 private:
  void run(std::stop_token stop);
  void publish(const vision::Frame* frame, const std::string& busy, bool at_end,
               std::optional<double> held_at = std::nullopt);

  std::unique_ptr<vision::FrameSource> source_;
  bool live_;
  bool realtime_;
  cv::Size frame_size_;
  std::string description_;
  std::atomic<int> display_w_{0}, display_h_{0};

  mutable std::mutex mutex_;  // guards what follows
  std::condition_variable wake_;
  std::shared_ptr<SetupStage> stage_;
  std::deque<std::pair<std::string, std::function<void(SetupStage&)>>> commands_;
  double hold_after_ = 1e300;
  std::shared_ptr<const SetupPublication> latest_;
  long long sequence_ = 0;
  cv::Mat last_display_;
  long long last_frame_ = -1;
  double last_t_ = 0;
  bool at_end_ = false;

  std::jthread thread_;  // last: starts after everything above exists
};

}  // namespace diskref::ui
