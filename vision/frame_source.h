#pragma once
// Where frames come from: a video file or a live camera, behind one small interface.
//
// A Frame carries the image (as decoded: 8-bit BGR, or grey), its index in the stream and its time.
// For a video file, `index` is the frame's number in the video and `t` its presentation time (s);
// a frame the decoder cannot read is skipped, counted, and the following frames keep their own
// numbers and times (so output stays aligned with the video). For a camera, `index` counts captured
// frames and `t` is the time since the source was opened (s, steady clock).
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
};

// Opens a video file through OpenCV's FFmpeg backend. Throws InputError when the file is missing,
// is not a video, or has no readable frame.
std::unique_ptr<FrameSource> open_video_file(const std::filesystem::path& file);

struct CameraOptions {
  // A V4L2 device: an index ("0") or a path ("/dev/video2").
  std::string device = "0";
  int width = 0;       // 0 = the camera's default
  int height = 0;
  double fps = 0;      // 0 = default
  // Manual exposure in the driver's units (V4L2: 100 us steps); absent = automatic. Cameras that
  // do not allow it keep their automatic exposure.
  std::optional<double> exposure;
};

// Opens a live camera. Throws InputError when the device cannot be opened.
std::unique_ptr<FrameSource> open_camera(const CameraOptions& options);

}  // namespace diskref::vision
