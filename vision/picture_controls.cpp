#include "vision/picture_controls.h"

#include <linux/videodev2.h>

#include <algorithm>
#include <cstring>

namespace diskref::vision {
namespace {

struct AspectControls {
  const char* automatic;
  int manual_value;  // the automatic control's value that means "off"
  const char* value;
};

AspectControls controls_of(PictureAspect aspect) {
  switch (aspect) {
    case PictureAspect::focus:
      return {"focus_auto", 0, "focus_absolute"};
    case PictureAspect::exposure:
      return {"exposure_auto", V4L2_EXPOSURE_MANUAL, "exposure_absolute"};
    case PictureAspect::white_balance:
      return {"white_balance_automatic", 0, "white_balance_temperature"};
  }
  return {"", 0, ""};
}

int set_control(V4l2Device& device, std::uint32_t id, int value) {
  v4l2_control c{};
  c.id = id;
  c.value = value;
  return device.ioctl(VIDIOC_S_CTRL, &c);
}

std::optional<int> get_control(V4l2Device& device, std::uint32_t id) {
  v4l2_control c{};
  c.id = id;
  if (device.ioctl(VIDIOC_G_CTRL, &c) != 0) return std::nullopt;
  return c.value;
}

std::string errno_text(int error) {
  return std::string(std::strerror(error));
}

}  // namespace

const char* aspect_name(PictureAspect aspect) {
  switch (aspect) {
    case PictureAspect::focus:
      return "focus";
    case PictureAspect::exposure:
      return "exposure";
    case PictureAspect::white_balance:
      return "white balance";
  }
  return "";
}

const char* aspect_value_control(PictureAspect aspect) {
  return controls_of(aspect).value;
}

LockOutcome lock_picture(V4l2Device& device, const CameraDescription& d, const std::map<std::string, int>& values,
                         const std::vector<PictureAspect>& aspects) {
  LockOutcome out;
  for (PictureAspect aspect : aspects) {
    const AspectControls names = controls_of(aspect);
    const CameraControl* automatic = d.control(names.automatic);
    const CameraControl* value = d.control(names.value);
    const std::string name = aspect_name(aspect);
    // The value to hold: the one kept, else what the automatic control settled on (read now, not
    // when the camera was described: it has moved since).
    std::optional<int> target;
    if (value) {
      auto kept = values.find(names.value);
      target = kept != values.end() ? std::optional<int>(kept->second) : get_control(device, value->id);
      if (target) target = std::clamp(*target, value->minimum, value->maximum);
    }
    if (!automatic) {
      if (!value) {
        out.fixed.push_back(name + ": the camera has no control for it (fixed)");
        continue;
      }
    } else {
      if (!automatic->menu.empty() && std::none_of(automatic->menu.begin(), automatic->menu.end(),
                                                   [&](const auto& m) { return m.first == names.manual_value; })) {
        out.not_locked.push_back(name + ": the camera offers no manual setting");
        continue;
      }
      if (const int error = set_control(device, automatic->id, names.manual_value); error != 0) {
        out.not_locked.push_back(name + ": the driver refused to turn " + names.automatic + " off (" +
                                 errno_text(error) + ")");
        continue;
      }
    }
    if (aspect == PictureAspect::exposure) {
      // A camera left free to lower its rate in dim light would halve the frames under a hand.
      if (const CameraControl* priority = d.control("exposure_auto_priority")) set_control(device, priority->id, 0);
    }
    if (value && target) {
      if (const int error = set_control(device, value->id, *target); error != 0) {
        out.not_locked.push_back(name + ": turned to manual, but " + names.value + " = " + std::to_string(*target) +
                                 " was refused (" + errno_text(error) + ")");
        continue;
      }
      const int held = get_control(device, value->id).value_or(*target);
      out.values[names.value] = held;
      out.locked.push_back(name + " at " + std::to_string(held));
    } else {
      out.locked.push_back(name + " (its value cannot be read)");
    }
  }
  return out;
}

std::optional<std::string> set_power_line(V4l2Device& device, const CameraDescription& d, PowerLine power_line,
                                          bool* done) {
  if (done) *done = false;
  if (power_line == PowerLine::leave) return std::nullopt;
  const int wanted = power_line == PowerLine::off    ? V4L2_CID_POWER_LINE_FREQUENCY_DISABLED
                     : power_line == PowerLine::hz50 ? V4L2_CID_POWER_LINE_FREQUENCY_50HZ
                                                     : V4L2_CID_POWER_LINE_FREQUENCY_60HZ;
  const CameraControl* c = d.control("power_line_frequency");
  const std::string what = "power line frequency " + power_line_text(power_line);
  if (!c)
    return "cannot set the " + what +
           ": the camera has no such control (under mains light, lock the exposure at a whole number of half periods: "
           "1/100 s at 50 Hz, 1/120 s at 60 Hz)";
  if (!c->menu.empty() &&
      std::none_of(c->menu.begin(), c->menu.end(), [&](const auto& m) { return m.first == wanted; }))
    return "cannot set the " + what + ": the camera does not offer it";
  if (const int error = set_control(device, c->id, wanted); error != 0)
    return "cannot set the " + what + ": the driver refused (" + errno_text(error) + ")";
  if (done) *done = true;
  return "set the " + what;
}

std::optional<PowerLine> parse_power_line(const std::string& text) {
  if (text == "50") return PowerLine::hz50;
  if (text == "60") return PowerLine::hz60;
  if (text == "off") return PowerLine::off;
  if (text == "leave") return PowerLine::leave;
  return std::nullopt;
}

std::string power_line_text(PowerLine power_line) {
  switch (power_line) {
    case PowerLine::hz50:
      return "50";
    case PowerLine::hz60:
      return "60";
    case PowerLine::off:
      return "off";
    case PowerLine::leave:
      return "leave";
  }
  return "leave";
}

}  // namespace diskref::vision
