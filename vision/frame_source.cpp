#include "vision/frame_source.h"

#include <algorithm>
#include <cmath>

#include <opencv2/videoio.hpp>

#include "engine/io/input_error.h"
#include "vision/camera_address.h"
#include "vision/camera_inventory.h"
#include "vision/live_camera.h"
#include "vision/network_stream.h"
#include "vision/picture_controls.h"
#include "vision/v4l2_stream.h"

namespace diskref::vision {
namespace {

class VideoFileSource final : public FrameSource {
 public:
  explicit VideoFileSource(const std::filesystem::path& file) : file_(file) {
    if (!std::filesystem::exists(file)) throw io::InputError(file.string(), "", "does not exist");
    if (!std::filesystem::is_regular_file(file)) throw io::InputError(file.string(), "", "is not a file");
    if (!capture_.open(file.string(), cv::CAP_FFMPEG) || !capture_.isOpened())
      throw io::InputError(file.string(), "", "cannot be read as a video (not a video file, or a codec FFmpeg lacks)");
    fps_ = capture_.get(cv::CAP_PROP_FPS);
    if (!(fps_ > 0 && fps_ < 10000)) fps_ = 0;
    const double count = capture_.get(cv::CAP_PROP_FRAME_COUNT);
    if (count > 0 && std::isfinite(count)) count_ = static_cast<long long>(count);
    size_ = {static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_WIDTH)),
             static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_HEIGHT))};
    // The first frame must decode, or this is not a usable video.
    first_ = read_one();
    if (!first_) throw io::InputError(file.string(), "", "is a video with no readable frame (corrupt or empty)");
  }

  std::optional<Frame> next() override {
    if (first_) {
      std::optional<Frame> f = std::move(first_);
      first_.reset();
      return f;
    }
    return read_one();
  }
  double frames_per_second() const override { return fps_; }
  std::optional<long long> frame_count() const override { return count_; }
  long long corrupt_frames_skipped() const override { return skipped_; }
  cv::Size frame_size() const override { return size_; }
  std::string description() const override { return file_.string(); }
  bool can_seek() const override { return true; }
  void seek(long long index) override {
    // Reopen and read forward (decoding is the only exact way to land on a frame): frames before
    // `index` are decoded and dropped.
    capture_.release();
    if (!capture_.open(file_.string(), cv::CAP_FFMPEG) || !capture_.isOpened())
      throw io::InputError(file_.string(), "", "cannot be opened again to seek in it");
    next_index_ = 0;
    skipped_ = 0;
    first_.reset();
    while (true) {
      std::optional<Frame> f = read_one();
      if (!f) return;  // past the end: next() returns nothing
      if (f->index >= index) {
        first_ = std::move(f);
        return;
      }
    }
  }

 private:
  // A failed read before the container's frame count is a corrupt frame, not the end: the decoder
  // is asked again a bounded number of times.
  static constexpr int kMaxConsecutiveFailures = 64;

  std::optional<Frame> read_one() {
    cv::Mat image;
    long long failures = 0;
    while (!capture_.read(image) || image.empty()) {
      if (!count_ || next_index_ + failures + 1 >= *count_ || ++failures > kMaxConsecutiveFailures) return std::nullopt;
    }
    Frame f;
    f.image = image;
    f.index = next_index_ + failures;
    // The presentation time tells where the frame is: a jump of more than one frame period means
    // the decoder dropped frames it could not decode (it skips corrupt packets by itself).
    const double msec = capture_.get(cv::CAP_PROP_POS_MSEC);
    const bool has_time = std::isfinite(msec) && msec >= 0 && (msec > 0 || next_index_ == 0);
    if (has_time && fps_ > 0) f.index = std::max(f.index, std::llround(msec / 1000.0 * fps_));
    skipped_ += f.index - next_index_;
    f.t = has_time ? msec / 1000.0 : (fps_ > 0 ? static_cast<double>(f.index) / fps_ : 0.0);
    next_index_ = f.index + 1;
    return f;
  }

  std::filesystem::path file_;
  cv::VideoCapture capture_;
  double fps_ = 0;
  std::optional<long long> count_;
  cv::Size size_;
  long long next_index_ = 0;
  long long skipped_ = 0;
  std::optional<Frame> first_;
};

}  // namespace

std::unique_ptr<FrameSource> open_video_file(const std::filesystem::path& file) {
  return std::make_unique<VideoFileSource>(file);
}

std::unique_ptr<FrameSource> open_camera(const CameraOptions& options) {
  return open_live_camera(options);
}

FormatRequest format_request(const CameraOptions& options) {
  FormatRequest request;
  request.width = options.width;
  request.height = options.height;
  request.fps = options.fps;
  if (!options.format.empty()) {
    request.fourcc = parse_fourcc(options.format);
    if (!request.fourcc)
      throw io::InputError("", "--camera-format",
                           "expected a FOURCC such as MJPG or YUYV, got \"" + options.format + "\"");
  }
  return request;
}

std::unique_ptr<LiveCameraSource> open_live_camera(const CameraOptions& options) {
  const CameraAddress address = parse_camera_address(options.device);
  std::shared_ptr<LiveClock> clock = options.clock ? options.clock : steady_live_clock();
  LiveStreamOpener opener;
  if (address.kind == CameraAddress::Kind::network) {
    if (!options.format.empty())
      throw io::InputError("", "--camera-format",
                           "goes with a V4L2 camera: a network camera sends the format it sends");
    NetworkStreamOptions n{options.network_open_timeout_s, options.network_read_timeout_s};
    const std::size_t read_ahead = options.network_read_ahead_frames;
    opener = [address, n, clock, read_ahead] {
      std::unique_ptr<LiveStream> stream = open_network_stream(address, n, clock);
      if (read_ahead > 0) stream = read_on_arrival(std::move(stream), read_ahead);
      return stream;
    };
  } else {
    V4l2StreamOptions v;
    v.request = format_request(options);
    const std::optional<PowerLine> power_line = parse_power_line(options.power_line);
    if (!power_line)
      throw io::InputError("", "--power-line", "expected 50, 60, off or leave, got \"" + options.power_line + "\"");
    v.power_line = *power_line;
    v.picture_free = options.picture_free;
    v.exposure = options.exposure;
    v.settings_file = options.settings_file;
    opener = v4l2_stream_opener(address.target, std::move(v),
                                options.open_device ? options.open_device : V4l2DeviceOpener(open_v4l2_device), clock);
  }
  LiveCameraOptions live;
  live.give_up_after_s = options.give_up_after_s;
  live.first_backoff_s = options.first_backoff_s;
  live.max_backoff_s = options.max_backoff_s;
  live.lock_after_s = options.picture_free ? std::nullopt : options.lock_after_s;
  live.asked_fps = options.fps;
  live.on_event = options.on_event;
  live.clock = clock;
  return std::make_unique<LiveCameraSource>(address.description(), std::move(opener), std::move(live));
}

}  // namespace diskref::vision
