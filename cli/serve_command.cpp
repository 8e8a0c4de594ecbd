// `diskref serve --disks DISKS.json [--serve [ADDR:]PORT] [--calib CAMERA.json] [--precision-mm X]`
// (spec §14, "From a phone"): serves only the photo page, where a phone at the table takes a photo
// and gets the ruling and the annotated picture back. Loopback unless an address is given; beyond
// loopback every request needs the session's token, printed with the address and as a QR code
// (the code opens the page: it is at / as well as /photo). Runs until interrupted (Ctrl-C, SIGTERM)
// or, with --for S, for S seconds.

#include <cstdio>
#include <memory>
#include <string>

#include "calibration/camera_model.h"
#include "cli/commands.h"
#include "cli/photo_upload.h"
#include "cli/serve_flags.h"
#include "engine/io/input_error.h"
#include "engine/model/disk_registry.h"
#include "net/access_notice.h"
#include "net/feed_hub.h"
#include "net/http_feed_server.h"
#include "net/photo_page.h"
#include "net/problem_reports.h"

namespace diskref::cli {
namespace {

struct ServeCommandOptions {
  std::string disks, calib;
  double precision_mm = photo::PhotoOptions{}.precision_mm;
  ServeFlags serve = [] {
    ServeFlags f;
    f.serve = "8090";
    return f;
  }();
  double for_s = 0;
};

int run_serve(const ServeCommandOptions& o) {
  if (o.serve.public_read)
    throw io::InputError("", "--serve-public",
                         "the photo page takes uploads: beyond loopback it always needs the token");
  if (!(o.precision_mm > 0 && o.precision_mm <= 100))
    throw io::InputError("", "--precision-mm", "must be above 0 and at most 100 mm");
  if (!(o.for_s >= 0 && o.for_s <= 1e7)) throw io::InputError("", "--for", "must be from 0 to 10000000 s");
  net::HttpFeedOptions serving = http_feed_options(o.serve);
  serving.serve_feed = false;  // the photo page alone
  model::DiskRegistry registry = model::load_disk_registry(o.disks);
  photo::PhotoOptions options;
  options.precision_mm = o.precision_mm;
  if (!o.calib.empty()) options.lens = calib::load_camera_model(o.calib);
  net::PhotoPageOptions page;
  page.at_root = true;  // the address printed (and its QR code) opens the page
  const photo::PhotoLimits limits = upload_photo_limits(page);

  stop_serving_on_interrupt();
  net::ProblemReports problems(
      [](const std::string& line) { std::fprintf(stderr, "diskref serve: %s\n", line.c_str()); });
  net::FeedHub hub;  // the server's, never published to: no feed is served
  net::HttpFeedServer server(hub, serving, problems);
  net::add_photo_page(server, registry, photo_ruler(registry, options, limits), page);
  std::fprintf(stderr, "diskref serve: the photo page: %s (%zu disks from %s)\n", server.url().c_str(),
               registry.disks().size(), o.disks.c_str());
  if (const std::string notice = net::beyond_loopback_notice(server, serving); !notice.empty())
    std::fprintf(stderr, "diskref serve: %s\n", notice.c_str());
  std::fflush(stderr);
  serve_until_interrupted(o.for_s);
  hub.close();
  return kExitOk;
}

}  // namespace

RunFunction add_serve_command(CLI::App& app) {
  auto o = std::make_shared<ServeCommandOptions>();
  CLI::App* sub =
      app.add_subcommand("serve", "Settle a dispute from a phone: serve the photo page (take a photo, get the ruling)");
  sub->add_option("--disks", o->disks, "Disk registry (spec §4): the disks the page asks about")->required();
  add_serve_flags(*sub, o->serve, "Serve the photo page on [ADDR:]PORT (loopback unless ADDR is given; default 8090)");
  sub->add_option("--calib", o->calib,
                  "The phone's calibration (spec §7), when it has one; otherwise fitted from the tags");
  sub->add_option("--precision-mm", o->precision_mm, "The sigma (mm) a question must be answered within")
      ->capture_default_str();
  sub->add_option("--for", o->for_s, "Stop after this many seconds (0: until interrupted)");
  sub->footer(
      "Example:\n  diskref serve --disks disks.json --serve 0.0.0.0:8090\n"
      "  (then scan the QR code it prints with the phone, choose the question, take the photo)");
  return [o] { return run_serve(*o); };
}

}  // namespace diskref::cli
