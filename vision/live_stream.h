#pragma once
// One connection to a live camera (a V4L2 device opened once, a network stream connected once),
// the clock live sources keep time with, and what a live camera has to tell its user.
//
// A LiveStream is gone for good once a read fails too often: the camera source (live_camera.h)
// then opens a new one. Frame times are in the clock's seconds (monotonic): the driver's buffer
// timestamp for V4L2 (CLOCK_MONOTONIC, the steady clock's), the stream's own timestamps for a
// network camera that sends them, else the time the frame arrived.

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::vision {

// The time and the waiting of live sources, injected so that tests neither sleep nor read the wall
// clock.
class LiveClock {
 public:
  virtual ~LiveClock() = default;
  virtual double now() = 0;  // seconds, monotonic
  virtual void sleep_for(double seconds) = 0;
};
// The steady clock (CLOCK_MONOTONIC on Linux: the clock of V4L2 buffer timestamps).
std::shared_ptr<LiveClock> steady_live_clock();

struct StreamFrame {
  cv::Mat image;
  double time = 0;  // the clock's seconds
  // Frames that arrived just before this one and were dropped unseen, the consumer being behind
  // (vision/arrival_reader.h).
  long long dropped_before = 0;
};

class LiveStream {
 public:
  virtual ~LiveStream() = default;
  // The next frame, or nullopt when this read failed (a timeout, the connection closed, the
  // device gone).
  virtual std::optional<StreamFrame> read() = 0;
  virtual cv::Size size() const = 0;
  // The rate the camera says it runs at (0 when it does not say: an MJPEG stream over HTTP).
  virtual double nominal_fps() const = 0;
  // What opening it chose and found, in sentences (format, size, rate, settings).
  virtual std::vector<std::string> notes() const { return {}; }
  // Locks focus, exposure and white balance where the driver allows, now; sentences saying what
  // was locked and what could not be. A camera without such controls (a network stream) says so.
  virtual std::vector<std::string> lock_picture() {
    return {"a network camera's picture is set in the camera (its app), not from here"};
  }
};

// Opens one connection; throws InputError naming the camera when it cannot.
using LiveStreamOpener = std::function<std::unique_ptr<LiveStream>()>;

// A time without frames: from the last frame before it to the first frame after it (seconds since
// the source opened), with the frames the camera took meanwhile that never arrived (estimated from
// its rate).
struct CameraGap {
  double start_t = 0;
  double end_t = 0;
  long long frames_lost = 0;
  int reopen_attempts = 0;  // openings tried, the one that worked included
  std::string cause;        // why the camera was lost ("no frame for 3 reads", ...)
};

struct CameraEvent {
  enum class Kind {
    note,     // what opening chose, a picture locked: worth a line in a log
    warning,  // something the user should fix (a rate below the one asked, a control not locked)
    lost,     // frames stopped: reopening (gap open)
    back,     // frames again (gap closed: `gap` says how long and how many were lost)
    gave_up,  // the camera did not come back within the limit given: the source ends
  };
  Kind kind = Kind::note;
  double t = 0;        // seconds since the source opened
  std::string source;  // "camera /dev/video0"
  std::string message;
  std::optional<CameraGap> gap;  // for `back` (and `gave_up`: the gap so far)
};
using CameraEventSink = std::function<void(const CameraEvent&)>;

std::string_view camera_event_kind_name(CameraEvent::Kind kind);  // "note", "warning", "lost", "back", "gave_up"

}  // namespace diskref::vision
