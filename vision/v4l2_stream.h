#pragma once
// A V4L2 camera as a LiveStream: at every opening (the first, and each after the camera came back)
// the device is described, its capture mode chosen (camera_inventory.h), capture started, the
// power line frequency set and the picture locked again at the values locked before (a USB reset
// puts every control back to its default). Frame times are the driver's buffer timestamps.

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "vision/camera_inventory.h"
#include "vision/live_stream.h"
#include "vision/picture_controls.h"
#include "vision/v4l2_device.h"

namespace diskref::vision {

struct V4l2StreamOptions {
  FormatRequest request;
  PowerLine power_line = PowerLine::leave;
  bool picture_free = false;       // leave focus, exposure and white balance automatic
  std::optional<double> exposure;  // a manual exposure (driver units, 100 us): exposure locked there
  // camera_settings.json: read at the first opening (what the command line does not give comes from
  // it), written when the picture is locked.
  std::optional<std::filesystem::path> settings_file;
};

// The opener of a V4L2 camera's streams; what the streams lock is kept between them. Reads the
// settings file (InputError when damaged).
LiveStreamOpener v4l2_stream_opener(const std::string& path, V4l2StreamOptions options, V4l2DeviceOpener open_device,
                                    std::shared_ptr<LiveClock> clock);

}  // namespace diskref::vision
