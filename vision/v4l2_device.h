#pragma once
// A V4L2 camera device behind a small interface: its ioctls (capabilities, formats, sizes, rates,
// controls) and its frames. The real device (open_v4l2_device) issues the ioctls on its own file
// descriptor and captures through OpenCV's V4L2 backend (buffers, MJPEG and YUYV decoding); tests
// put a fake device in its place, as no machine that builds diskref need have a camera.
//
// Formats and controls belong to the device, not to one file descriptor: a control set through
// ioctl() holds for the capture too.

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

namespace diskref::vision {

struct CaptureMode {
  std::uint32_t fourcc = 0;  // V4L2_PIX_FMT_*
  int width = 0;
  int height = 0;
  double fps = 0;
};

struct DeviceFrame {
  cv::Mat image;  // decoded, BGR
  // The driver's timestamp of the buffer (seconds of CLOCK_MONOTONIC), when it gives one.
  std::optional<double> time;
};

class V4l2Device {
 public:
  virtual ~V4l2Device() = default;
  // One ioctl: 0 on success, else the errno (EINVAL ends an enumeration, ENOTTY: not supported).
  virtual int ioctl(unsigned long request, void* arg) = 0;
  // Starts capturing in this mode (the driver may give something else: ask VIDIOC_G_FMT and
  // VIDIOC_G_PARM after). false when capture cannot start.
  virtual bool start(const CaptureMode& mode) = 0;
  // The next frame; nullopt when none came (the driver's select timeout, the device unplugged).
  virtual std::optional<DeviceFrame> read() = 0;
};

// Opens a device by path; throws InputError naming it when it cannot (no such device, busy, no
// permission: the message says which).
using V4l2DeviceOpener = std::function<std::unique_ptr<V4l2Device>(const std::string& path)>;
std::unique_ptr<V4l2Device> open_v4l2_device(const std::string& path);

// The V4L2 device nodes on this machine (/dev/video0, /dev/video1, ... in numeric order).
std::vector<std::string> video_device_paths();

}  // namespace diskref::vision
