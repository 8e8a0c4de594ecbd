// `diskref hall --mqtt HOST:PORT [--serve [ADDR:]PORT]` (spec §10.4): every table of a tournament
// at a glance. Follows each table's retained state on the MQTT broker (published by `diskref
// referee --mqtt ... --table-name NAME`) and serves the hall page, until interrupted (Ctrl-C,
// SIGTERM) or, with --for S, for S seconds.

#include <cstdio>
#include <memory>
#include <string>

#include "cli/commands.h"
#include "cli/serve_flags.h"
#include "engine/io/input_error.h"
#include "net/access_notice.h"
#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/hall.h"
#include "net/http_feed_server.h"
#include "net/problem_reports.h"

namespace diskref::cli {
namespace {

struct HallCommandOptions {
  std::string mqtt;
  ServeFlags serve = [] {
    ServeFlags f;
    f.serve = "8090";
    return f;
  }();
  std::string topic_prefix = "diskref/tables";
  double for_s = 0;
};

int run_hall(const HallCommandOptions& o) {
  const net::Endpoint broker = net::parse_destination(o.mqtt, "--mqtt");
  const net::HttpFeedOptions serving = http_feed_options(o.serve);
  if (!(o.for_s >= 0 && o.for_s <= 1e7)) throw io::InputError("", "--for", "must be from 0 to 10000000 s");
  if (o.topic_prefix.empty() || o.topic_prefix.find_first_of("+#") != std::string::npos)
    throw io::InputError("", "--topic-prefix", "\"" + o.topic_prefix + "\": a topic without wildcards (+, #)");
  stop_serving_on_interrupt();

  net::ProblemReports problems(
      [](const std::string& line) { std::fprintf(stderr, "diskref hall: %s\n", line.c_str()); });
  net::FeedHub hub;
  net::Hall hall(broker, o.topic_prefix, hub, problems);
  net::HttpFeedServer server(hub, serving, problems);
  net::add_hall_pages(server);
  std::fprintf(stderr, "diskref hall: the hall page: %s (stream: %sfeed/v1/events)\n", server.url().c_str(),
               server.url_without_token().c_str());
  if (const std::string notice = net::beyond_loopback_notice(server, serving); !notice.empty())
    std::fprintf(stderr, "diskref hall: %s\n", notice.c_str());
  serve_until_interrupted(o.for_s);
  hub.close();
  return kExitOk;
}

}  // namespace

RunFunction add_hall_command(CLI::App& app) {
  auto o = std::make_shared<HallCommandOptions>();
  CLI::App* sub = app.add_subcommand(
      "hall", "Every table's game at a glance: follow the tables on an MQTT broker, serve the hall page");
  sub->add_option("--mqtt", o->mqtt, "The MQTT broker the referees publish to, HOST:PORT")->required();
  add_serve_flags(*sub, o->serve, "Serve the hall page on [ADDR:]PORT (loopback unless ADDR is given; default 8090)");
  sub->add_option("--topic-prefix", o->topic_prefix, "The tables' topics: PREFIX/NAME/state")->capture_default_str();
  sub->add_option("--for", o->for_s, "Stop after this many seconds (0: until interrupted)");
  sub->footer(
      "Example:\n  diskref referee ... --mqtt localhost:1883 --table-name table-1   (at each table)\n"
      "  diskref hall --mqtt localhost:1883 --serve 8090                   (then open http://127.0.0.1:8090/)");
  return [o] { return run_hall(*o); };
}

}  // namespace diskref::cli
