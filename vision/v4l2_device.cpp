#include "vision/v4l2_device.h"

#include <fcntl.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <filesystem>

#include <opencv2/videoio.hpp>

#include "engine/io/input_error.h"

namespace diskref::vision {
namespace {

class RealV4l2Device final : public V4l2Device {
 public:
  explicit RealV4l2Device(const std::string& path) : path_(path) {
    fd_ = ::open(path.c_str(), O_RDWR | O_NONBLOCK | O_CLOEXEC);
    if (fd_ < 0) {
      const int error = errno;
      std::string why = error == ENOENT   ? "no such device (is the camera plugged in? `diskref cameras` lists them)"
                        : error == EACCES ? "no permission to open it (add yourself to the group \"video\")"
                        : error == EBUSY  ? "busy: another program is using the camera"
                                          : std::string("cannot be opened: ") + std::strerror(error);
      throw io::InputError(path, "", why);
    }
  }
  ~RealV4l2Device() override {
    capture_.release();
    if (fd_ >= 0) ::close(fd_);
  }
  RealV4l2Device(const RealV4l2Device&) = delete;
  RealV4l2Device& operator=(const RealV4l2Device&) = delete;

  int ioctl(unsigned long request, void* arg) override {
    int r = 0;
    do r = ::ioctl(fd_, request, arg);
    while (r < 0 && errno == EINTR);
    return r < 0 ? errno : 0;
  }

  bool start(const CaptureMode& mode) override {
    // OpenCV's V4L2 backend keeps the buffers and decodes MJPEG and YUYV; the mode is set through it
    // so that it knows what it receives.
    if (!capture_.open(path_, cv::CAP_V4L2) || !capture_.isOpened()) return false;
    if (mode.fourcc != 0) capture_.set(cv::CAP_PROP_FOURCC, static_cast<double>(mode.fourcc));
    if (mode.width > 0) capture_.set(cv::CAP_PROP_FRAME_WIDTH, mode.width);
    if (mode.height > 0) capture_.set(cv::CAP_PROP_FRAME_HEIGHT, mode.height);
    if (mode.fps > 0) capture_.set(cv::CAP_PROP_FPS, mode.fps);
    return true;
  }

  std::optional<DeviceFrame> read() override {
    DeviceFrame f;
    if (!capture_.read(f.image) || f.image.empty()) return std::nullopt;
    // OpenCV's V4L2 backend gives the dequeued buffer's timestamp as the position (ms).
    const double ms = capture_.get(cv::CAP_PROP_POS_MSEC);
    if (std::isfinite(ms) && ms > 0) f.time = ms / 1000.0;
    return f;
  }

 private:
  std::string path_;
  int fd_ = -1;
  cv::VideoCapture capture_;
};

}  // namespace

std::unique_ptr<V4l2Device> open_v4l2_device(const std::string& path) {
  return std::make_unique<RealV4l2Device>(path);
}

std::vector<std::string> video_device_paths() {
  std::vector<std::pair<long, std::string>> found;
  std::error_code ec;
  for (const auto& entry : std::filesystem::directory_iterator("/dev", ec)) {
    const std::string name = entry.path().filename().string();
    if (name.rfind("video", 0) != 0 || name.size() == 5) continue;
    const std::string digits = name.substr(5);
    if (!std::all_of(digits.begin(), digits.end(), [](char c) { return c >= '0' && c <= '9'; }) || digits.size() > 6)
      continue;
    found.emplace_back(std::stol(digits), entry.path().string());
  }
  std::sort(found.begin(), found.end());
  std::vector<std::string> paths;
  for (auto& [n, p] : found) paths.push_back(p);
  return paths;
}

}  // namespace diskref::vision
