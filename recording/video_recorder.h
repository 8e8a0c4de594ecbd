#pragma once
// The camera's frames kept as a recording's video (spec §11, DIR/video): JPEG images one after
// another in Motion JPEG segments, and a line in frames.jsonl for each saying where its bytes are.
// The tracker must not wait for this: add() only copies the image into a queue, and one worker
// thread encodes and writes, at the tracker's priority (`nice`). When the worker falls behind,
// frames are dropped (counted) rather than the caller slowed down; the video is evidence, the
// tracking is the game. Nor does the worker wait for the disk: the syncs run on a DiskSyncer.
//
// A kill or a power cut loses little: each frame's line is written (one write()) only after its
// bytes are in the segment (a kill loses only what is not yet written: at most max_queued_s), a
// closed segment is flushed to the disk (fdatasync) with frames.jsonl, and a new segment starts
// every `segment_s` of frame time, so a power cut risks the open segment (2 s) and the one syncing. Every write is
// checked: the first that fails stops the video there, the files are cut back to their last complete frame, and
// failure() says what was kept and how much was lost since.
//
// Thread-safe: add() and still() from any thread; finish() from any (after the first, a call does
// nothing).

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <filesystem>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/io/line_file.h"
#include "recording/disk_syncer.h"

namespace diskref::recording {

struct VideoRecorderOptions {
  double segment_s = 2.0;  // a new segment every this many seconds of frame time
  int jpeg_quality = 90;
  std::size_t max_queued =
      60;  // frames waiting for the encoder; beyond, a frame is dropped (counted), the caller never waits...
  bool wait_when_full =
      false;  // ... unless this is set: add() then waits for room (a file source, which nothing hurries)
  double max_queued_s =
      0.5;  // a live source: frames waiting span at most this much frame time (a kill loses at most ~this)
  // The encoder's nice value: the tracker's that feeds it. Below it, a machine the tracker kept
  // busy starved the encoder for seconds at a time (nice 10 under the CLI's nice-0 tracker: the
  // video 5 s behind, so a kill lost 5 s; SCHED_IDLE: the video kept nothing), and a time-bounded
  // queue cannot help an encoder that gets no CPU. At the same priority the two share the CPU
  // fairly, and a machine too slow for both thins the video out (frames dropped, counted).
  int nice = 0;
  // Called on the encoder's thread before it takes each job (tests: holds the encoder back, as a
  // machine too busy for it would, so that the queue's bounds are what is tested).
  std::function<void()> before_each_job;
};

class VideoRecorder {
 public:
  // Creates `video_dir` (and its parents) with an empty frames.jsonl. Throws io::InputError naming
  // it when it cannot be made a folder (a file is in the way, no permission) or already holds a
  // recorded video (a frames.jsonl not empty), io::WriteError when the disk is full.
  explicit VideoRecorder(std::filesystem::path video_dir, VideoRecorderOptions options = {});
  ~VideoRecorder();  // finish()
  VideoRecorder(const VideoRecorder&) = delete;
  VideoRecorder& operator=(const VideoRecorder&) = delete;

  // Copies the 8-bit BGR (or grey) image into the queue and returns; the worker JPEG-encodes it,
  // appends it to the open segment-NNNNNN.mjpeg, then writes its frames.jsonl line {"frame", "t",
  // "segment", "offset", "bytes"}. Segments rotate every segment_s of frame time (and when the
  // time goes back). A full queue, or a call after finish(), drops the frame (frames_dropped());
  // after a failure the frame is not recorded (failure() counts it). Never waits for the encoder,
  // never throws for a full disk; throws std::invalid_argument for an image that is not 8-bit
  // with 1 or 3 channels, or a time that is not finite.
  void add(const cv::Mat& image, long long frame, double t);
  // The same for a frame its source had as JPEG already (a recording's frames): stored as it is,
  // nothing encoded (and nothing copied: the bytes are shared, never changed).
  void add_encoded(std::shared_ptr<const std::vector<unsigned char>> jpeg, long long frame, double t);
  // A full-resolution still, JPEG quality 95, written atomically (temp file + rename) at `path`
  // (its folder made if missing) by the same worker, in order with the frames; never dropped for a
  // full queue (after finish() it is written by the caller's thread). Not written after a failure
  // (failure() counts it); a still that cannot be written stops the recorder as a frame would.
  void still(const cv::Mat& image, std::filesystem::path path);
  // Drains the queue, closes and syncs the open segment and frames.jsonl. Idempotent.
  void finish();

  long long frames_written() const;  // frames whose line is in frames.jsonl
  long long frames_dropped() const;  // frames dropped because the queue was full
  // The frame time spanned by the frames waiting for the encoder now (0 for fewer than two): what
  // a kill would lose beyond the frame being written. Below max_queued_s for a live source.
  double waiting_span_s() const;
  bool failed() const;
  // A write failed (disk full, ...): "DIR/video/segment-000003.mjpeg: writing frame 1234 failed:
  // No space left on device; the video keeps the 1200 frame(s) written before, complete (segments
  // 0 to 3, listed in frames.jsonl); 57 frame(s) and 1 still(s) from then on were not recorded".
  // Empty if none.
  std::string failure() const;

 private:
  // A frame or a still waiting for the worker.
  struct Job {
    cv::Mat image;
    long long frame = 0;
    double t = 0;
    std::filesystem::path still_path;                        // empty: a frame
    std::shared_ptr<const std::vector<unsigned char>> jpeg;  // set: the frame already encoded
  };
  void enqueue(Job job);  // a frame, as add() says
  void run();
  void write_frame(const Job& job);
  void write_still(const Job& job);
  // Hands the open segment to the syncer, which syncs and closes it (and syncs frames.jsonl and
  // the folder).
  void close_segment();
  // A sync that failed stops the recording as a write would (`lost`: the job not recorded for
  // it); true if one has failed.
  bool take_sync_failure(const Job* lost);
  // Stops the recording: says what failed and what is kept; counts `lost` (the frame or still
  // that failed), `stills_lost` more, and what was queued as not recorded.
  void fail(std::string what_failed, const Job* lost = nullptr, long long stills_lost = 0);
  std::filesystem::path segment_path(int segment) const;

  const std::filesystem::path dir_;
  const VideoRecorderOptions options_;

  // The queue, shared with the worker.
  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::condition_variable room_;  // wait_when_full: the queue has room again
  std::deque<Job> queue_;
  std::size_t frames_queued_ = 0;
  bool closing_ = false;
  std::string failure_;        // what failed and what the video keeps (empty while nothing failed)
  long long lost_frames_ = 0;  // frames not recorded after the failure (or after finish())
  long long lost_stills_ = 0;

  std::atomic<long long> written_{0};
  std::atomic<long long> dropped_{0};
  std::atomic<bool> failed_{false};

  // The worker's own (touched by it alone while it runs).
  std::unique_ptr<io::LineFile> index_;
  int index_sync_fd_ = -1;  // frames.jsonl again, read-only, to fdatasync it when a segment closes
  int segment_fd_ = -1;
  int segment_ = -1;  // the open segment's number (-1: none yet)
  double segment_start_t_ = 0;
  long long segment_bytes_ = 0;
  int last_written_segment_ = 0;

  std::mutex finish_mutex_;
  DiskSyncer syncer_;  // before the worker: it outlives it
  std::thread worker_;
};

}  // namespace diskref::recording
