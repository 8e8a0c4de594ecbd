#include "vision/frame_source.h"

#include <algorithm>
#include <chrono>
#include <cmath>

#include <opencv2/videoio.hpp>

#include "engine/io/input_error.h"

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

class LiveCameraSource final : public FrameSource {
 public:
  explicit LiveCameraSource(const CameraOptions& options) : description_("camera " + options.device) {
    const bool is_index = !options.device.empty() && options.device.find_first_not_of("0123456789") == std::string::npos;
    const bool opened = is_index ? capture_.open(std::stoi(options.device), cv::CAP_V4L2)
                                 : capture_.open(options.device, cv::CAP_V4L2);
    if (!opened || !capture_.isOpened())
      throw io::InputError(options.device, "", "cannot open this camera (no such V4L2 device, or it is busy)");
    if (options.width > 0) capture_.set(cv::CAP_PROP_FRAME_WIDTH, options.width);
    if (options.height > 0) capture_.set(cv::CAP_PROP_FRAME_HEIGHT, options.height);
    if (options.fps > 0) capture_.set(cv::CAP_PROP_FPS, options.fps);
    if (options.exposure) {
      // V4L2 through OpenCV: 1 = manual exposure, 3 = aperture priority (automatic).
      capture_.set(cv::CAP_PROP_AUTO_EXPOSURE, 1);
      capture_.set(cv::CAP_PROP_EXPOSURE, *options.exposure);
    }
    fps_ = capture_.get(cv::CAP_PROP_FPS);
    size_ = {static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_WIDTH)),
             static_cast<int>(capture_.get(cv::CAP_PROP_FRAME_HEIGHT))};
    start_ = std::chrono::steady_clock::now();
  }

  std::optional<Frame> next() override {
    Frame f;
    if (!capture_.read(f.image) || f.image.empty()) return std::nullopt;
    f.index = index_++;
    f.t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
    return f;
  }
  double frames_per_second() const override { return fps_ > 0 ? fps_ : 0; }
  std::optional<long long> frame_count() const override { return std::nullopt; }
  long long corrupt_frames_skipped() const override { return 0; }
  cv::Size frame_size() const override { return size_; }
  std::string description() const override { return description_; }

 private:
  std::string description_;
  cv::VideoCapture capture_;
  double fps_ = 0;
  cv::Size size_;
  long long index_ = 0;
  std::chrono::steady_clock::time_point start_;
};

}  // namespace

std::unique_ptr<FrameSource> open_video_file(const std::filesystem::path& file) {
  return std::make_unique<VideoFileSource>(file);
}

std::unique_ptr<FrameSource> open_camera(const CameraOptions& options) {
  return std::make_unique<LiveCameraSource>(options);
}

}  // namespace diskref::vision
