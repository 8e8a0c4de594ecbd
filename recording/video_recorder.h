#pragma once
// The camera's pictures kept (spec §11's DIR/video): every frame JPEG-encoded on a thread of its
// own and appended to a Motion JPEG segment (segment-NNNNNN.mjpeg: JPEG images one after another,
// which ffplay -f mjpeg plays), indexed frame by frame in frames.jsonl (flushed a line a frame).
// A new segment is begun every couple of seconds of frame time and the closed one flushed to the
// disk (fdatasync): a kill loses nothing written, a power cut at most the open segment.
//
// The caller never waits for the encoder unless asked: a live camera's frame the encoder cannot
// keep up with is dropped (counted; the tracks keep every frame), while a video file's source can
// afford to wait (wait_when_full) and keeps every frame. Stills (the settles' pictures) go through
// the same thread and are never dropped.

#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

#include <opencv2/core.hpp>

#include "engine/io/line_file.h"

namespace diskref::recording {

struct VideoRecorderOptions {
  double segment_s = 2.0;       // a new segment every this many seconds of frame time
  int jpeg_quality = 90;
  std::size_t max_queued = 60;  // frames waiting for the encoder (2 s at 30 fps)
  bool wait_when_full = false;  // true: add() waits for room (a file source); false: the frame is dropped
};

class VideoRecorder {
 public:
  // Creates `video_dir` and its frames.jsonl. Throws io::InputError / io::WriteError naming it.
  explicit VideoRecorder(std::filesystem::path video_dir, VideoRecorderOptions options = {});
  ~VideoRecorder();  // finish()
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  // Any thread: the image (8-bit BGR or grey) copied into the queue for the encoder.
  void add(const cv::Mat& image, long long frame, double t);
  // A full-resolution still, JPEG quality 95, written atomically at `path` (temp file + rename).
  void still(const cv::Mat& image, std::filesystem::path path);
  // Drains the queue, closes and syncs the open segment. Idempotent.
  void finish();

  long long frames_written() const;
  long long frames_dropped() const;
  bool failed() const;
  // A write failed (a full disk): the video stopped there; what was kept, what was lost since.
  std::string failure() const;

 private:
  struct Job {
    cv::Mat image;
    long long frame = 0;
    double t = 0;
    std::optional<std::filesystem::path> still;  // set: a still, not a frame
  };
  void run();
  void write_frame(const Job& job);  // worker thread
  void write_still(const Job& job);  // worker thread
  void close_segment();              // worker thread
  void fail(std::string what);       // worker thread, mutex_ not held

  std::filesystem::path dir_;
  VideoRecorderOptions options_;
  std::unique_ptr<io::LineFile> index_;

  mutable std::mutex mutex_;
  std::condition_variable wake_;   // the worker: a job, or the end
  std::condition_variable room_;   // a waiting add(): room in the queue
  std::deque<Job> queue_;
  std::size_t frames_queued_ = 0;  // jobs in the queue that are frames
  bool stopping_ = false;
  long long written_ = 0;
  long long dropped_ = 0;
  std::string failure_;

  // The worker's own.
  int segment_fd_ = -1;
  int segment_ = -1;
  long long segment_bytes_ = 0;
  double segment_start_t_ = 0;
  std::thread worker_;
};

}  // namespace diskref::recording
