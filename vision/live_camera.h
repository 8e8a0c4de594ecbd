#pragma once
// A live camera as a FrameSource that survives the camera going away: a failed read is retried,
// then the connection is dropped and opened again with back-off (0.5 s, 1 s, 2 s, ... up to
// `max_backoff_s`) for as long as the user wants (default: until interrupt(), the window closed
// or Ctrl-C; `give_up_after_s` for a limit), and the time without frames is reported once as a
// CameraGap when frames come again.
//
// Frames: `t` is seconds since the source opened (the stream's times: the driver's for V4L2);
// `index` counts the camera's frames, those it lost included (a gap between two frames of more
// than one period at a known rate; a time without frames), so that an index stays a time.
// The rate really delivered is measured over the last seconds and compared with the one asked: a
// warning when it is below (a camera lowering its rate in dim light, a USB port shared, YUYV).
//
// Threads: next() from one thread; interrupt() and request_picture_lock() from any.

#include <atomic>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "vision/camera_inventory.h"
#include "vision/frame_source.h"
#include "vision/live_stream.h"

namespace diskref::vision {

struct LiveCameraOptions {
  int read_retries = 2;          // failed reads on one connection before it is opened again
  double first_backoff_s = 0.5;  // waits between openings, doubling
  double max_backoff_s = 5;
  std::optional<double> give_up_after_s;  // nullopt: try for as long as it takes
  std::optional<double> lock_after_s;     // lock the picture this long after the first frame
  double asked_fps = 0;                   // the rate asked (0: the camera's own, when it says)
  CameraEventSink on_event;
  std::shared_ptr<LiveClock> clock;  // default: the steady clock
};

class LiveCameraSource final : public FrameSource {
 public:
  // Opens the camera once; throws InputError (from the opener) when it cannot: a camera that is
  // not there at the start is a mistake to say, not to wait for.
  LiveCameraSource(std::string description, LiveStreamOpener opener, LiveCameraOptions options);

  std::optional<Frame> next() override;
  double frames_per_second() const override;
  std::optional<long long> frame_count() const override { return std::nullopt; }
  long long corrupt_frames_skipped() const override { return wrong_size_frames_; }
  cv::Size frame_size() const override { return size_; }
  std::string description() const override { return description_; }
  void interrupt() override { interrupted_ = true; }

  // Lock focus, exposure and white balance at the next frame (e.g. once the table is found).
  void request_picture_lock() { lock_requested_ = true; }

  // Reader thread only.
  const std::vector<CameraGap>& gaps() const { return gaps_; }
  long long frames_lost() const { return frames_lost_; }  // inside connections and in gaps
  // Of those, the frames that arrived and were dropped because the consumer was behind
  // (arrival_reader.h): the referee's machine, not the camera.
  long long frames_dropped_behind() const { return frames_dropped_behind_; }
  std::optional<double> measured_fps() const;
  double nominal_fps() const { return nominal_fps_; }  // the camera's own word (0: it does not say)

 private:
  void emit(CameraEvent::Kind kind, double t, std::string message, std::optional<CameraGap> gap = std::nullopt);
  void opened(std::unique_ptr<LiveStream> stream);
  bool reopen();  // false: interrupted or given up
  void wait(double seconds);
  double since_open() { return clock_->now() - origin_; }
  Frame accept(StreamFrame&& f);
  void check_rate(double t);

  std::string description_;
  LiveStreamOpener opener_;
  LiveCameraOptions options_;
  std::shared_ptr<LiveClock> clock_;
  std::unique_ptr<LiveStream> stream_;
  double origin_ = 0;
  cv::Size size_;
  double nominal_fps_ = 0;
  std::atomic<bool> interrupted_{false};
  std::atomic<bool> lock_requested_{false};
  bool locked_ = false;
  bool ended_ = false;

  long long next_index_ = 0;
  std::optional<double> last_t_;   // the last frame's (any connection)
  std::optional<double> first_t_;  // the first frame's
  bool first_of_connection_ = true;
  int failed_reads_ = 0;
  std::optional<CameraGap> open_gap_;  // frames stopped, not back yet
  double gap_rate_ = 0;                // the rate when they stopped (counts the frames lost)
  std::vector<CameraGap> gaps_;
  long long frames_lost_ = 0;
  long long frames_dropped_behind_ = 0;
  long long wrong_size_frames_ = 0;
  std::deque<double> recent_;  // recent frame times of this connection, for the rate
  double connection_start_t_ = 0;
  bool rate_warned_ = false;
  std::vector<cv::Size> sizes_refused_;
};

// The V4L2 mode asked by these options (size, rate, format forced). Throws InputError naming
// --camera-format when the format is no FOURCC.
FormatRequest format_request(const CameraOptions& options);

// open_camera (frame_source.h) with the camera's own interface.
std::unique_ptr<LiveCameraSource> open_live_camera(const CameraOptions& options);

}  // namespace diskref::vision
