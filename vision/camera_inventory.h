#pragma once
// What a V4L2 camera can do, read through its ioctls (VIDIOC_QUERYCAP, VIDIOC_ENUM_FMT,
// VIDIOC_ENUM_FRAMESIZES, VIDIOC_ENUM_FRAMEINTERVALS, VIDIOC_QUERYCTRL, VIDIOC_G_CTRL), and the
// capture mode diskref picks from it.
//
// The choice: the size asked (or, when none is, the largest that gives the rate), at the rate
// asked (or 30 fps), preferring MJPEG whenever it gives that size and rate (most webcams give
// 1080p30 only in MJPEG; raw YUYV at that size comes at 5-10 fps), then uncompressed formats. A
// format forced (--camera-format) is taken as it is. When no mode reaches the rate, the fastest
// one at that size is taken and the choice says so.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "vision/v4l2_device.h"

namespace diskref::vision {

struct FrameSizeRates {
  int width = 0;
  int height = 0;
  std::vector<double> fps;  // the rates offered at this size, highest first
};

struct PixelFormatModes {
  std::uint32_t fourcc = 0;
  std::string description;  // the driver's ("Motion-JPEG")
  bool compressed = false;
  bool decodable = false;  // OpenCV's V4L2 backend turns it into BGR (H.264 it does not)
  std::vector<FrameSizeRates> sizes;
};

// A control diskref cares about (focus, exposure, white balance, power line frequency).
struct CameraControl {
  std::uint32_t id = 0;
  std::string name;  // diskref's (and v4l2-ctl's) name: "focus_auto", "exposure_auto", ...
  int minimum = 0, maximum = 0, step = 1, default_value = 0;
  std::optional<int> value;                       // the current value, when it can be read
  bool inactive = false;                          // the driver says it has no effect now (an absolute value under auto)
  std::vector<std::pair<int, std::string>> menu;  // a menu control's entries
};

struct CameraDescription {
  std::string path;
  std::string card;             // "HD Pro Webcam C920"
  std::string driver;           // "uvcvideo"
  std::string bus;              // "usb-0000:00:14.0-1"
  bool captures_video = false;  // a video capture node (not a metadata node)
  std::vector<PixelFormatModes> formats;
  std::vector<CameraControl> controls;

  const CameraControl* control(const std::string& name) const;
};

// Reads everything through the device's ioctls.
CameraDescription describe_camera(V4l2Device& device, const std::string& path);

// "MJPG", "YUYV" (the FOURCC's four characters, trailing spaces dropped).
std::string fourcc_text(std::uint32_t fourcc);
// From "MJPG"/"mjpeg"/"YUYV"/... (1 to 4 characters; "MJPEG" is taken as MJPG); nullopt otherwise.
std::optional<std::uint32_t> parse_fourcc(const std::string& text);

// The V4L2 control ids by diskref's names (focus_auto, focus_absolute, exposure_auto,
// exposure_absolute, exposure_auto_priority, white_balance_automatic, white_balance_temperature,
// power_line_frequency).
struct NamedControl {
  const char* name;
  std::uint32_t id;
};
const std::vector<NamedControl>& controls_of_interest();

struct FormatRequest {
  int width = 0;  // 0: the largest that gives the rate
  int height = 0;
  double fps = 0;                       // 0: 30
  std::optional<std::uint32_t> fourcc;  // forced
};

struct FormatChoice {
  CaptureMode mode;
  bool reaches_rate = true;  // the mode gives the rate asked
  std::string why;           // a sentence: what was chosen and why
};

// Throws InputError naming the device (`description.path`) and the option when nothing fits: a
// forced format it does not offer, a size it does not give, no format OpenCV can decode.
FormatChoice choose_capture_format(const CameraDescription& description, const FormatRequest& request);

}  // namespace diskref::vision
