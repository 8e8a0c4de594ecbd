#pragma once
// A V4L2 camera in memory, for tests (no machine that builds diskref need have a camera): it
// answers the ioctls diskref issues (capabilities, formats, sizes, rates, controls) from tables a
// test fills, keeps the controls' values, refuses what a test says it refuses, and delivers frames
// of the mode started, timed on a test's clock at the rate it is told to deliver (the driver's
// buffer timestamps).

#include <linux/videodev2.h>

#include <cerrno>
#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "vision/live_stream.h"
#include "vision/v4l2_device.h"

namespace diskref::vision::testing {

// A clock tests move by hand; sleeping moves it (and is recorded), so nothing really waits.
class ManualClock final : public LiveClock {
 public:
  double now() override { return t; }
  void sleep_for(double seconds) override {
    t += seconds;
    slept += seconds;
    if (on_sleep) on_sleep();
  }
  double t = 1000;  // not 0: a camera's times are not since its opening
  double slept = 0;
  std::function<void()> on_sleep;
};

struct FakeControl {
  std::uint32_t id;
  int minimum, maximum, step, default_value, value;
  std::vector<int> menu;  // entries of a menu control (empty: an integer control)
};

struct FakeCamera {
  std::string card = "Fake Webcam C920";
  bool capture = true;
  struct Format {
    std::uint32_t fourcc;
    bool compressed;
    std::vector<std::pair<std::pair<int, int>, std::vector<int>>> sizes;  // (w, h) -> rates (fps)
  };
  std::vector<Format> formats;
  std::vector<FakeControl> controls;
  std::set<std::uint32_t> refused;      // S_CTRL on these fails with EIO
  double delivered_fps = 0;             // 0: the rate started
  std::set<long long> dropped;          // frame numbers the driver never delivers (their time passes)
  long long frames_before_unplug = -1;  // reads that work before the device goes away (-1: never)

  // A C920-like camera: 1080p30 only in MJPEG, raw YUYV at 5 fps at that size.
  static FakeCamera webcam() {
    FakeCamera c;
    c.formats = {
        {V4L2_PIX_FMT_YUYV, false, {{{640, 480}, {30, 15}}, {{1280, 720}, {10, 5}}, {{1920, 1080}, {5}}}},
        {V4L2_PIX_FMT_MJPEG, true, {{{640, 480}, {30, 15}}, {{1280, 720}, {30, 15}}, {{1920, 1080}, {30, 15}}}},
        {V4L2_PIX_FMT_H264, true, {{{1920, 1080}, {30}}}}};
    c.controls = {{V4L2_CID_FOCUS_AUTO, 0, 1, 1, 1, 1, {}},
                  {V4L2_CID_FOCUS_ABSOLUTE, 0, 250, 5, 0, 40, {}},
                  {V4L2_CID_EXPOSURE_AUTO, 0, 3, 1, 3, 3, {1, 3}},
                  {V4L2_CID_EXPOSURE_ABSOLUTE, 3, 2047, 1, 250, 156, {}},
                  {V4L2_CID_EXPOSURE_AUTO_PRIORITY, 0, 1, 1, 0, 1, {}},
                  {V4L2_CID_AUTO_WHITE_BALANCE, 0, 1, 1, 1, 1, {}},
                  {V4L2_CID_WHITE_BALANCE_TEMPERATURE, 2000, 6500, 1, 4000, 4600, {}},
                  {V4L2_CID_POWER_LINE_FREQUENCY, 0, 2, 1, 2, 2, {0, 1, 2}}};
    return c;
  }
  FakeControl* control(std::uint32_t id) {
    for (FakeControl& c : controls)
      if (c.id == id) return &c;
    return nullptr;
  }
  // A control the test knows is there.
  FakeControl& at(std::uint32_t id) {
    if (FakeControl* c = control(id)) return *c;
    throw std::out_of_range("no such fake control");
  }
};

class FakeV4l2Device final : public V4l2Device {
 public:
  // `camera` is shared with the test, which reads the controls back; a fresh device (a camera
  // plugged in again) starts from `camera` as it is.
  FakeV4l2Device(std::shared_ptr<FakeCamera> camera, std::shared_ptr<ManualClock> clock)
      : camera_(std::move(camera)), clock_(std::move(clock)) {}

  int ioctl(unsigned long request, void* arg) override {
    FakeCamera& c = *camera_;
    switch (request) {
      case VIDIOC_QUERYCAP: {
        auto* cap = static_cast<v4l2_capability*>(arg);
        std::strncpy(reinterpret_cast<char*>(cap->card), c.card.c_str(), sizeof cap->card - 1);
        std::strncpy(reinterpret_cast<char*>(cap->driver), "fake", sizeof cap->driver - 1);
        cap->capabilities = V4L2_CAP_DEVICE_CAPS | V4L2_CAP_VIDEO_CAPTURE | V4L2_CAP_META_CAPTURE;
        cap->device_caps = c.capture ? V4L2_CAP_VIDEO_CAPTURE : V4L2_CAP_META_CAPTURE;
        return 0;
      }
      case VIDIOC_ENUM_FMT: {
        auto* f = static_cast<v4l2_fmtdesc*>(arg);
        if (f->index >= c.formats.size()) return EINVAL;
        const auto& format = c.formats[f->index];
        f->pixelformat = format.fourcc;
        f->flags = format.compressed ? V4L2_FMT_FLAG_COMPRESSED : 0;
        std::strncpy(reinterpret_cast<char*>(f->description),
                     format.fourcc == V4L2_PIX_FMT_MJPEG ? "Motion-JPEG" : "Some format", sizeof f->description - 1);
        return 0;
      }
      case VIDIOC_ENUM_FRAMESIZES: {
        auto* e = static_cast<v4l2_frmsizeenum*>(arg);
        const auto* format = find_format(e->pixel_format);
        if (!format || e->index >= format->sizes.size()) return EINVAL;
        e->type = V4L2_FRMSIZE_TYPE_DISCRETE;
        e->discrete.width = static_cast<std::uint32_t>(format->sizes[e->index].first.first);
        e->discrete.height = static_cast<std::uint32_t>(format->sizes[e->index].first.second);
        return 0;
      }
      case VIDIOC_ENUM_FRAMEINTERVALS: {
        auto* e = static_cast<v4l2_frmivalenum*>(arg);
        const auto* format = find_format(e->pixel_format);
        if (!format) return EINVAL;
        for (const auto& [size, rates] : format->sizes) {
          if (size.first != static_cast<int>(e->width) || size.second != static_cast<int>(e->height)) continue;
          if (e->index >= rates.size()) return EINVAL;
          e->type = V4L2_FRMIVAL_TYPE_DISCRETE;
          e->discrete.numerator = 1;
          e->discrete.denominator = static_cast<std::uint32_t>(rates[e->index]);
          return 0;
        }
        return EINVAL;
      }
      case VIDIOC_QUERYCTRL: {
        auto* q = static_cast<v4l2_queryctrl*>(arg);
        const FakeControl* control = c.control(q->id);
        if (!control) return EINVAL;
        q->type = control->menu.empty() ? V4L2_CTRL_TYPE_INTEGER : V4L2_CTRL_TYPE_MENU;
        q->minimum = control->minimum;
        q->maximum = control->maximum;
        q->step = control->step;
        q->default_value = control->default_value;
        return 0;
      }
      case VIDIOC_QUERYMENU: {
        auto* m = static_cast<v4l2_querymenu*>(arg);
        const FakeControl* control = c.control(m->id);
        if (!control) return EINVAL;
        for (int v : control->menu)
          if (v == static_cast<int>(m->index)) {
            std::snprintf(reinterpret_cast<char*>(m->name), sizeof m->name, "Entry %d", v);
            return 0;
          }
        return EINVAL;
      }
      case VIDIOC_G_CTRL: {
        auto* v = static_cast<v4l2_control*>(arg);
        const FakeControl* control = c.control(v->id);
        if (!control) return EINVAL;
        v->value = control->value;
        return 0;
      }
      case VIDIOC_S_CTRL: {
        auto* v = static_cast<v4l2_control*>(arg);
        FakeControl* control = c.control(v->id);
        if (!control) return EINVAL;
        if (c.refused.count(v->id)) return EIO;
        if (v->value < control->minimum || v->value > control->maximum) return ERANGE;
        control->value = v->value;
        return 0;
      }
      case VIDIOC_G_FMT: {
        if (!started_) return EINVAL;
        auto* f = static_cast<v4l2_format*>(arg);
        f->fmt.pix.width = static_cast<std::uint32_t>(mode_.width);
        f->fmt.pix.height = static_cast<std::uint32_t>(mode_.height);
        f->fmt.pix.pixelformat = mode_.fourcc;
        return 0;
      }
      case VIDIOC_G_PARM: {
        if (!started_) return EINVAL;
        auto* p = static_cast<v4l2_streamparm*>(arg);
        p->parm.capture.timeperframe.numerator = 1;
        p->parm.capture.timeperframe.denominator = static_cast<std::uint32_t>(mode_.fps);
        return 0;
      }
      default:
        return ENOTTY;
    }
  }

  bool start(const CaptureMode& mode) override {
    mode_ = mode;
    started_ = true;
    return true;
  }

  // One frame per period of the rate delivered: the clock moves on by a period for each frame, a
  // frame the driver drops included.
  std::optional<DeviceFrame> read() override {
    FakeCamera& c = *camera_;
    if (c.frames_before_unplug >= 0 && reads_ >= c.frames_before_unplug) return std::nullopt;
    const double period = 1.0 / (c.delivered_fps > 0 ? c.delivered_fps : mode_.fps);
    while (c.dropped.count(frame_number_)) {
      ++frame_number_;
      clock_->t += period;
    }
    ++reads_;
    ++frame_number_;
    clock_->t += period;
    DeviceFrame f;
    f.image = cv::Mat(mode_.height, mode_.width, CV_8UC3, cv::Scalar::all(static_cast<double>(frame_number_ % 256)));
    f.time = clock_->t;
    return f;
  }

  const CaptureMode& mode() const { return mode_; }

 private:
  const FakeCamera::Format* find_format(std::uint32_t fourcc) const {
    for (const auto& f : camera_->formats)
      if (f.fourcc == fourcc) return &f;
    return nullptr;
  }

  std::shared_ptr<FakeCamera> camera_;
  std::shared_ptr<ManualClock> clock_;
  CaptureMode mode_;
  bool started_ = false;
  long long reads_ = 0;
  long long frame_number_ = 0;
};

}  // namespace diskref::vision::testing
