#pragma once
// The worker thread between the frame source and the screen. It reads frames, has them tracked,
// records the tracker's output, notes what changed on the table, and publishes the newest result
// as an immutable snapshot. The screen only ever takes the newest snapshot (a pointer copy under
// a mutex): it never waits for decoding or detection.
//
// Two seams keep the worker independent of where frames and tracks come from:
//   vision::FrameSource  images with their index and time (a video file, a live camera; seeking
//                        where the source can);
//   TrackProducer  a TrackFrame for an image (the tracker; or a recorded/ground-truth track file
//                  looked up by frame index), with the table pose and raw detections when known.

#include <atomic>
#include <condition_variable>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "engine/model/track_frame.h"
#include "ui/event_log.h"
#include "vision/frame_source.h"

namespace diskref::ui {

// A frame as the worker hands it on: the image (BGR, 8-bit), its index and time (seconds: video
// time; since opening for a camera).
using SourceFrame = vision::Frame;

// A raw detection to draw over the image: a tag's corners in raw image pixels.
struct OverlayTag {
  int id = 0;
  std::array<cv::Point2d, 4> corners_px;
};

struct TrackResult {
  std::optional<model::TrackFrame> frame;  // absent when the producer has nothing for this image
  std::optional<calib::CameraPose> table_pose;
  std::vector<OverlayTag> detections;
  std::vector<Event> notes;   // what the producer has to say (table pose acquired, camera moved, ...)
  bool camera_moved = false;  // the table monitor re-located the camera at this frame
};

class TrackProducer {
 public:
  virtual ~TrackProducer() = default;
  virtual TrackResult process(const SourceFrame& frame) = 0;
  // Called after a seek: the next frame does not follow the previous one.
  virtual void restart() = 0;
  // "tracker", "ground truth (truth.jsonl)", "recording".
  virtual std::string describe() const = 0;
};

// What the screen shows for one processed frame. Immutable once published.
struct Snapshot {
  long long sequence = 0;  // counts published snapshots
  SourceFrame source;
  // The image as the screen shows it: BGR, shrunk (on the worker thread) to the camera view's
  // size so the screen uploads a small texture; empty when the source has no image. Overlays
  // still use source.image's pixel coordinates.
  cv::Mat display_image;
  TrackResult result;
  double process_ms = 0;  // producer time for this frame
  // Source time of the latest frame at which the camera was re-located, this one or an earlier
  // one: the screen takes only the newest snapshot and may skip the very frame that said so.
  std::optional<double> camera_moved_t;
};

// The tracking worker's nice value (and its helper threads'): below the screen's, so that on a
// busy machine the video plays slower rather than the display stuttering.
inline constexpr int kTrackingWorkerNice = 10;

struct WorkerOptions {
  // Real time: frames are released at the video's rate times the speed. Otherwise as fast as
  // the producer goes (screenshots, tests, benchmarks).
  bool realtime = true;
  // Stop (pause) after this frame index has been published; -1 = never.
  long long stop_after = -1;
  bool start_paused = false;  // paused on the first frame
  // The worker's nice value (and its helper threads'). A run for a screenshot wants the frame it
  // names soon, not a smooth display: there the tracking shares the CPU with the screen as an
  // equal (0) instead, which plays the sample under Xvfb several times faster.
  int nice = kTrackingWorkerNice;
};

struct WorkerStats {
  long long frames_processed = 0;
  double mean_process_ms = 0;
  double max_process_ms = 0;
  bool at_end = false;
};

class SourceWorker {
 public:
  // `on_frame` (may be empty) runs on the worker thread for every processed frame: recording and
  // the camera's picture lock hook in here, so no frame is missed even when the screen skips
  // some. The image is the source's, full resolution (a recording keeps it).
  using FrameHook = std::function<void(const TrackResult&, const SourceFrame&)>;
  SourceWorker(std::unique_ptr<vision::FrameSource> source, std::unique_ptr<TrackProducer> producer,
               WorkerOptions options, FrameHook on_frame = {});
  ~SourceWorker();  // stops the thread
  // Stops the thread and waits for it: no frame hook runs after this returns (the pipeline it
  // feeds may then finish). Safe to call again.
  void stop();
  SourceWorker(const SourceWorker&) = delete;
  SourceWorker& operator=(const SourceWorker&) = delete;

  // Screen side; none of these wait for the worker's processing.
  std::shared_ptr<const Snapshot> latest() const;
  std::vector<Event> take_events();
  void set_paused(bool paused);
  bool paused() const { return paused_.load(); }
  void set_speed(double speed);
  double speed() const { return speed_.load(); }
  void step();                 // one frame while paused
  void seek(long long index);  // video only
  // The camera view's size on the screen in pixels (0: full resolution).
  void set_display_size(int width, int height);
  WorkerStats stats() const;

  // Fixed facts about the source (safe from any thread).
  long long frame_count() const { return frame_count_; }
  double fps() const { return fps_; }
  bool can_seek() const { return can_seek_; }
  const std::string& source_description() const { return source_description_; }
  const std::string& producer_description() const { return producer_description_; }

 private:
  void run(std::stop_token stop);

  std::unique_ptr<vision::FrameSource> source_;
  std::unique_ptr<TrackProducer> producer_;
  WorkerOptions options_;
  FrameHook on_frame_;
  long long frame_count_ = -1;
  double fps_ = 30;
  bool can_seek_ = false;
  std::string source_description_;
  std::string producer_description_;

  std::atomic<bool> paused_{false};
  std::atomic<double> speed_{1.0};
  std::atomic<int> pending_steps_{0};
  std::atomic<long long> pending_seek_{-1};
  std::atomic<int> display_w_{0};
  std::atomic<int> display_h_{0};

  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable wake_;
  std::shared_ptr<const Snapshot> latest_;
  std::vector<Event> events_;
  std::optional<model::TrackFrame> previous_track_;
  std::optional<double> camera_moved_t_;  // guarded by mutex_
  WorkerStats stats_;
  double total_process_ms_ = 0;
  long long sequence_ = 0;

  std::jthread thread_;  // last: starts after everything above exists
};

}  // namespace diskref::ui
