#include "vision/v4l2_stream.h"

#include <linux/videodev2.h>

#include <cmath>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "vision/camera_settings_file.h"

namespace diskref::vision {
namespace {

// What the openings of one camera share: the settings as the command line and the settings file
// give them, and the values the picture was locked at.
struct V4l2Memory {
  std::string path;
  V4l2StreamOptions options;
  V4l2DeviceOpener open_device;
  std::shared_ptr<LiveClock> clock;
  CameraSettingsFile kept;  // what camera_settings.json will hold
  bool locked = false;      // the picture is locked (kept.locked holds the values)
};

// A driver timestamp further than this from the clock is from another clock (an old driver's
// CLOCK_REALTIME): the arrival time is taken instead.
constexpr double kMaxDriverClockOffsetS = 5.0;

class V4l2Stream final : public LiveStream {
 public:
  explicit V4l2Stream(std::shared_ptr<V4l2Memory> memory) : memory_(std::move(memory)) {
    V4l2Memory& m = *memory_;
    device_ = m.open_device(m.path);
    description_ = describe_camera(*device_, m.path);
    if (!description_.captures_video)
      throw io::InputError(
          m.path, "", "is not a video capture device (a camera's second node carries metadata: try the next number)");
    if (!m.kept.camera.empty() && m.kept.camera != description_.card)
      notes_.push_back("the camera settings were kept for \"" + m.kept.camera + "\", this is \"" + description_.card +
                       "\"");
    const FormatChoice choice = choose_capture_format(description_, m.options.request);
    if (!device_->start(choice.mode))
      throw io::InputError(m.path, "",
                           "cannot start capturing in " + choice.why + " (busy? another program uses the camera)");
    notes_.push_back(std::string(description_.card.empty() ? "" : description_.card + ": ") + choice.why);
    if (!choice.reaches_rate) warnings_.push_back(choice.why);
    read_back_mode(choice);
    m.kept.camera = description_.card;
    m.kept.format = fourcc_text(choice.mode.fourcc);
    m.kept.width = size_.width;
    m.kept.height = size_.height;
    m.kept.fps = fps_;
    bool power_set = false;
    if (auto said = set_power_line(*device_, description_, m.options.power_line, &power_set))
      (power_set ? notes_ : warnings_).push_back(*said);
    if (m.options.exposure) {
      const LockOutcome e = vision::lock_picture(
          *device_, description_, {{"exposure_absolute", static_cast<int>(std::lround(*m.options.exposure))}},
          {PictureAspect::exposure});
      report(e);
    }
    if (m.locked && !m.options.picture_free) report(vision::lock_picture(*device_, description_, m.kept.locked));
  }

  std::optional<StreamFrame> read() override {
    std::optional<DeviceFrame> f = device_->read();
    if (!f) return std::nullopt;
    const double now = memory_->clock->now();
    StreamFrame s;
    s.image = std::move(f->image);
    s.time = f->time && std::abs(*f->time - now) < kMaxDriverClockOffsetS ? *f->time : now;
    return s;
  }
  cv::Size size() const override { return size_; }
  double nominal_fps() const override { return fps_; }
  std::vector<std::string> notes() const override {
    std::vector<std::string> all = notes_;
    for (const std::string& w : warnings_) all.push_back("warning: " + w);
    return all;
  }

  std::vector<std::string> lock_picture() override {
    V4l2Memory& m = *memory_;
    if (m.options.picture_free) return {"focus, exposure and white balance left automatic (--camera-free)"};
    const LockOutcome out =
        vision::lock_picture(*device_, description_, m.locked ? m.kept.locked : std::map<std::string, int>{});
    m.locked = true;
    m.kept.locked = out.values;
    std::vector<std::string> said = sentences(out);
    if (m.options.settings_file) {
      save_camera_settings(m.kept, *m.options.settings_file);
      said.push_back("kept in " + m.options.settings_file->string() + " for the next time");
    }
    return said;
  }

 private:
  static std::vector<std::string> sentences(const LockOutcome& out) {
    std::vector<std::string> said;
    std::string locked;
    for (const std::string& l : out.locked) locked += (locked.empty() ? "" : ", ") + l;
    if (!locked.empty()) said.push_back("locked " + locked);
    for (const std::string& n : out.not_locked) said.push_back("warning: could not lock " + n);
    for (const std::string& f : out.fixed) said.push_back(f);
    return said;
  }
  void report(const LockOutcome& out) {
    for (const std::string& s : sentences(out)) {
      if (s.rfind("warning: ", 0) == 0)
        warnings_.push_back(s.substr(9));
      else
        notes_.push_back(s);
    }
  }

  // What the driver gives may differ from what was asked: its own word for the size and rate.
  void read_back_mode(const FormatChoice& choice) {
    size_ = {choice.mode.width, choice.mode.height};
    fps_ = choice.mode.fps;
    v4l2_format fmt{};
    fmt.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (device_->ioctl(VIDIOC_G_FMT, &fmt) == 0 && fmt.fmt.pix.width > 0) {
      const cv::Size given(static_cast<int>(fmt.fmt.pix.width), static_cast<int>(fmt.fmt.pix.height));
      if (given != size_)
        warnings_.push_back("asked for " + std::to_string(size_.width) + "x" + std::to_string(size_.height) +
                            ", the driver gives " + std::to_string(given.width) + "x" + std::to_string(given.height));
      size_ = given;
    }
    v4l2_streamparm parm{};
    parm.type = V4L2_BUF_TYPE_VIDEO_CAPTURE;
    if (device_->ioctl(VIDIOC_G_PARM, &parm) == 0 && parm.parm.capture.timeperframe.numerator > 0)
      fps_ = static_cast<double>(parm.parm.capture.timeperframe.denominator) / parm.parm.capture.timeperframe.numerator;
  }

  std::shared_ptr<V4l2Memory> memory_;
  std::unique_ptr<V4l2Device> device_;
  CameraDescription description_;
  cv::Size size_;
  double fps_ = 0;
  std::vector<std::string> notes_, warnings_;
};

}  // namespace

LiveStreamOpener v4l2_stream_opener(const std::string& path, V4l2StreamOptions options, V4l2DeviceOpener open_device,
                                    std::shared_ptr<LiveClock> clock) {
  auto memory = std::make_shared<V4l2Memory>();
  memory->path = path;
  if (options.settings_file) {
    if (auto kept = load_camera_settings(*options.settings_file)) {
      // The command line wins; the file fills in what it does not say.
      FormatRequest& r = options.request;
      if (!r.fourcc && !kept->format.empty()) r.fourcc = parse_fourcc(kept->format);
      if (r.width == 0 && kept->width > 0) {
        r.width = kept->width;
        r.height = kept->height;
      }
      if (r.fps == 0) r.fps = kept->fps;
      if (options.power_line == PowerLine::leave) options.power_line = kept->power_line;
      memory->locked = !kept->locked.empty();
      memory->kept = *kept;
      memory->kept.picture_free = options.picture_free;
    }
  }
  memory->kept.power_line = options.power_line;
  memory->options = std::move(options);
  memory->open_device = std::move(open_device);
  memory->clock = std::move(clock);
  return [memory]() -> std::unique_ptr<LiveStream> { return std::make_unique<V4l2Stream>(memory); };
}

}  // namespace diskref::vision
