#pragma once
// Where frames come from: a video file or a live camera, behind one small interface.
//
// A Frame carries the image (as decoded: 8-bit BGR, or grey), its index in the stream and its time.
// For a video file, `index` is the frame's number in the video and `t` its presentation time (s);
// a frame the decoder cannot read is skipped, counted, and the following frames keep their own
// numbers and times (so output stays aligned with the video). For a camera, `index` counts the
// camera's frames (those it lost included) and `t` is the time since the source was opened (s, the
// driver's or the stream's own frame times: live_camera.h).
//
// A video file can seek: the next frame is then the one asked for, decoded exactly (reading forward
// from the start; containers' own seeking lands on key frames). A camera cannot.
//
// Errors: opening something that cannot be read throws InputError naming it. Not thread-safe: one
// thread reads a source (the UI's worker thread, or the command).

#include <filesystem>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "vision/arrival_reader.h"
#include "vision/live_stream.h"
#include "vision/v4l2_device.h"

namespace diskref::vision {

struct Frame {
  cv::Mat image;
  long long index = 0;
  double t = 0;
  // The source's own JPEG of this image, when it has one (a recording's frames): a recording of
  // it stores these bytes as they are instead of encoding the image again.
  std::shared_ptr<const std::vector<unsigned char>> jpeg;
};

class FrameSource {
 public:
  virtual ~FrameSource() = default;
  // The next frame, or nullopt at the end of the stream (or when a camera stops delivering).
  virtual std::optional<Frame> next() = 0;
  // Nominal frames per second (0 when unknown).
  virtual double frames_per_second() const = 0;
  // Number of frames in a file (for progress); nullopt for cameras or when the container won't say.
  virtual std::optional<long long> frame_count() const = 0;
  // Frames that could not be decoded and were skipped.
  virtual long long corrupt_frames_skipped() const = 0;
  virtual cv::Size frame_size() const = 0;
  // What this source reads, for messages ("video.mp4", "camera /dev/video0").
  virtual std::string description() const = 0;
  // Whether seek() works (video files), and the seek itself: the next call to next() returns
  // frame `index` (clamped to the stream). A source that cannot seek ignores it.
  virtual bool can_seek() const { return false; }
  virtual void seek(long long index) { (void)index; }
  // From any thread: a source waiting for a camera to come back stops waiting, and next() returns
  // nothing from then on. Sources that never wait ignore it.
  virtual void interrupt() {}
};

// Opens a video file through OpenCV's FFmpeg backend. Throws InputError when the file is missing,
// is not a video, or has no readable frame.
std::unique_ptr<FrameSource> open_video_file(const std::filesystem::path& file);

struct CameraOptions {
  // What --camera names: a V4L2 camera's number ("0") or device ("/dev/video2"), or a network
  // camera's URL (http://, https://, rtsp://); camera_address.h.
  std::string device = "0";
  int width = 0;  // 0 = the largest size giving the rate
  int height = 0;
  double fps = 0;      // 0 = 30 for V4L2 (a network camera sends what it sends)
  std::string format;  // V4L2 FOURCC forced ("MJPG", "YUYV"); empty = MJPEG when it gives the size and rate
  // Manual exposure in the driver's units (V4L2: 100 us steps); absent = automatic (until locked).
  std::optional<double> exposure;
  std::string power_line = "leave";  // "50", "60", "off", "leave" (V4L2's anti-flicker control)
  bool picture_free = false;         // leave focus, exposure and white balance automatic
  // Lock focus, exposure and white balance this long after the first frame (V4L2; nullopt: only
  // when asked, LiveCameraSource::request_picture_lock).
  std::optional<double> lock_after_s = 3.0;
  // camera_settings.json (camera_settings_file.h): read when opening, written when locked.
  std::optional<std::filesystem::path> settings_file;
  // A camera that went away is waited for this long at most (nullopt: until interrupted).
  std::optional<double> give_up_after_s;
  double first_backoff_s = 0.5;  // the wait between openings of a camera gone away, doubling up to
  double max_backoff_s = 5;      // this
  double network_open_timeout_s = 10;
  double network_read_timeout_s = 3;
  // A network camera is read on a thread of its own that times each frame as it arrives and keeps
  // this many waiting, dropping the oldest when the consumer falls behind (vision/arrival_reader.h).
  // 0: read in the consumer's thread, each frame timed when it is read (a test whose clock moves
  // with each frame taken).
  std::size_t network_read_ahead_frames = kArrivalReaderDepth;
  // Told what the camera chose, what it could not do, when it was lost and came back.
  CameraEventSink on_event;
  std::shared_ptr<LiveClock> clock;  // default: the steady clock
  V4l2DeviceOpener open_device;      // default: the real device (tests: a fake one)
};

// Opens a live camera (live_camera.h: reopened when it goes away; open_live_camera there gives the
// camera's own interface). Throws InputError naming the camera when it cannot be opened at the start.
std::unique_ptr<FrameSource> open_camera(const CameraOptions& options);

}  // namespace diskref::vision
