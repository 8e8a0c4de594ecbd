#pragma once
// Holding a webcam's picture still: focus, exposure and white balance locked where the driver
// allows it (autofocus hunting under a hand blurs every tag for a second; exposure moves with every
// hand that enters), and the power line frequency set so that the camera's exposure beats with the
// mains light instead of rolling a ripple through the rows.
//
// Locking an aspect reads its current value (what the automatic control settled on), turns the
// automatic control off and writes the value back; or writes a value kept from an earlier evening.
// Exposure also turns off "exposure_auto_priority" (the camera's leave to lower the frame rate in
// dim light). What a driver refuses is said, aspect by aspect; nothing here throws.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "vision/camera_inventory.h"
#include "vision/v4l2_device.h"

namespace diskref::vision {

enum class PowerLine { leave, off, hz50, hz60 };

enum class PictureAspect { focus, exposure, white_balance };
inline constexpr PictureAspect kAllPictureAspects[] = {PictureAspect::focus, PictureAspect::exposure,
                                                       PictureAspect::white_balance};
const char* aspect_name(PictureAspect aspect);  // "focus", "exposure", "white balance"
// The control holding the aspect's value: "focus_absolute", "exposure_absolute", "white_balance_temperature".
const char* aspect_value_control(PictureAspect aspect);

struct LockOutcome {
  std::map<std::string, int> values;    // by value control: what the picture is locked at
  std::vector<std::string> locked;      // "focus at 30", "exposure at 156"
  std::vector<std::string> not_locked;  // "white balance: the driver refused to turn ... off (EIO)"
  std::vector<std::string> fixed;       // "focus: the camera has no autofocus"
};

// Locks `aspects` (all by default). `values` (by value control) are written instead of the current
// ones where given. `description` is the camera's as read before (its controls).
LockOutcome lock_picture(V4l2Device& device, const CameraDescription& description,
                         const std::map<std::string, int>& values,
                         const std::vector<PictureAspect>& aspects = {std::begin(kAllPictureAspects),
                                                                      std::end(kAllPictureAspects)});

// Sets the power line frequency; a sentence saying what was done (or why it could not be: no such
// control, the driver refused). nullopt for PowerLine::leave.
std::optional<std::string> set_power_line(V4l2Device& device, const CameraDescription& description,
                                          PowerLine power_line, bool* done = nullptr);

// "50" / "60" / "off" / "leave" (the command line's and camera_settings.json's words).
std::optional<PowerLine> parse_power_line(const std::string& text);
std::string power_line_text(PowerLine power_line);

}  // namespace diskref::vision
