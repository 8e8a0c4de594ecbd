// `diskref cameras`: the V4L2 cameras on this machine, each with its formats, sizes and rates and
// the controls diskref sets (through the V4L2 ioctls: vision/camera_inventory.h), and the mode
// diskref would take for the --camera-size/--camera-fps/--camera-format given. --measure SECONDS
// opens one camera (--camera: a number, a device or a URL) as the other commands do and measures
// the rate it really delivers.

#include <cstdio>
#include <memory>
#include <string>

#include "cli/camera_settings.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "engine/io/input_error.h"
#include "vision/camera_address.h"
#include "vision/camera_listing.h"
#include "vision/live_camera.h"
#include "vision/v4l2_device.h"

namespace diskref::cli {
namespace {

struct CamerasOptions {
  std::string camera;
  CameraSettingsText settings;
  double measure = 0;
};

// Every device, or the one named; a device that cannot be opened is said, and the others listed.
int list_cameras(const CamerasOptions& o) {
  std::vector<std::string> paths;
  if (!o.camera.empty()) {
    const vision::CameraAddress a = vision::parse_camera_address(o.camera);
    if (a.kind == vision::CameraAddress::Kind::network)
      throw io::InputError("", "--camera",
                           "a network camera has no list of formats: use --measure SECONDS to see what it sends");
    paths.push_back(a.target);
  } else {
    paths = vision::video_device_paths();
  }
  if (paths.empty()) {
    std::printf(
        "no V4L2 camera on this machine (no /dev/video*): plug one in, or give a network camera's URL to --camera\n");
    return kExitOk;
  }
  const vision::CameraOptions asked = camera_options(o.camera.empty() ? "0" : o.camera, o.settings, "cameras");
  const vision::FormatRequest request = vision::format_request(asked);
  int status = kExitOk;
  for (const std::string& path : paths) {
    try {
      std::unique_ptr<vision::V4l2Device> device = vision::open_v4l2_device(path);
      const vision::CameraDescription d = vision::describe_camera(*device, path);
      std::optional<vision::FormatChoice> choice;
      std::string problem;
      if (d.captures_video) {
        try {
          choice = vision::choose_capture_format(d, request);
        } catch (const io::InputError& e) {
          problem = e.problem();
        }
      }
      std::printf("%s", vision::camera_listing(d, choice, problem).c_str());
    } catch (const io::InputError& e) {
      std::printf("%s: %s\n", path.c_str(), e.problem().c_str());
      if (!o.camera.empty()) status = kExitBadInput;
    }
  }
  return status;
}

// Opens the camera as the other commands do and reads it for `seconds` of its own frame times.
int measure_camera(const CamerasOptions& o) {
  vision::CameraOptions options = camera_options(o.camera.empty() ? "0" : o.camera, o.settings, "cameras");
  options.lock_after_s.reset();  // measuring only: the picture is left as it is
  std::unique_ptr<vision::LiveCameraSource> source = vision::open_live_camera(options);
  std::optional<double> first_t;
  double last_t = 0;
  long long frames = 0;
  while (auto f = source->next()) {
    if (!first_t) first_t = f->t;
    last_t = f->t;
    ++frames;
    if (last_t - *first_t >= o.measure) break;
  }
  const double span = first_t ? last_t - *first_t : 0;
  const double rate = span > 0 ? static_cast<double>(frames - 1) / span : 0;
  std::printf("%s: %dx%d, %lld frames in %.2f s: %.2f frames/s delivered", source->description().c_str(),
              source->frame_size().width, source->frame_size().height, frames, span, rate);
  if (source->frames_lost() > 0) std::printf(", %lld lost", source->frames_lost());
  const double asked = options.fps > 0 ? options.fps : source->nominal_fps();
  if (asked > 0) std::printf(" (%.2f asked)", asked);
  std::printf("\n");
  if (asked > 0 && rate < asked * 0.9)
    std::fprintf(stderr, "diskref cameras: warning: %s delivers %.1f frames/s, below the %.1f asked\n",
                 source->description().c_str(), rate, asked);
  return frames > 1 ? kExitOk : kExitFailure;
}

}  // namespace

RunFunction add_cameras_command(CLI::App& app) {
  auto o = std::make_shared<CamerasOptions>();
  CLI::App* sub = app.add_subcommand(
      "cameras",
      "The cameras on this machine: formats, sizes, rates, controls; --measure: the rate one really delivers");
  sub->add_option("--camera", o->camera, "Only this camera: its number, V4L2 device or (with --measure) URL");
  add_camera_settings(sub, o->settings);
  sub->add_option("--measure", o->measure,
                  "Open the camera as diskref does and measure the frames it delivers over this many seconds")
      ->check(finite_between(0.5, 3600));
  sub->footer(
      "Examples:\n"
      "  diskref cameras                                     every camera, and what diskref would take\n"
      "  diskref cameras --camera 0 --camera-size 1920x1080 --camera-fps 30\n"
      "  diskref cameras --camera http://phone.local:8080/video --measure 10");
  return [o] { return o->measure > 0 ? measure_camera(*o) : list_cameras(*o); };
}

}  // namespace diskref::cli
