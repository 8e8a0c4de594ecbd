// `diskref ui`: the companion screen (spec §8). Parses options into ui::AppOptions and runs the
// app; everything else is in ui/.

#include <cstdio>
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "cli/camera_settings.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/data_dir.h"
#include "cli/option_checks.h"
#include "cli/photo_upload.h"
#include "cli/serve_flags.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "net/endpoint.h"
#include "net/live_feed.h"
#include "setup/setup_state.h"
#include "ui/app.h"
#include "ui/photo_app.h"
#include "ui/setup_app.h"

namespace diskref::cli {
namespace {

namespace fs = std::filesystem;

// The bundled sample and the game data, from diskref's data root (cli/data_dir.h).
fs::path default_video() {
  return data_path(fs::path("sample_videos") / "duel" / "video.mp4");
}
fs::path default_rules_data() {
  return data_path(fs::path("data") / "rules");
}

// The largest window (X and OpenGL take 8192 px a side everywhere; beyond, X's error handler ends
// the program).
constexpr int kMaxWindowSide = 8192;

struct UiOptions {
  std::string video;
  std::string camera;         // N, a V4L2 device or a URL
  std::string camera_device;  // the older name of --camera (a device path)
  CameraSettingsText camera_settings;
  std::string replay;
  std::string rules;
  std::string table, disks, calib, tracks, record, screenshot, views_json;
  long long frames = -1;
  std::string size = "1280x800";
  std::vector<std::string> select;
  int template_index = 0;
  int reach = 1;
  std::string flip;
  bool paused = false;
  bool zoom = false;
  bool exit_at_end = false;
  double seconds = 0;
  bool stats = false;
  std::string game, inputs, inputs_out, game_log, screen_inputs;
  ServeFlags serve;
  std::string tuio, mqtt, table_name = "table";
  std::string setup, setup_script;
  std::string photo;          // opened at the start in the dispute-from-a-photo panel
  long long start_frame = 0;  // not an option: where the setup screen stopped in a video
};

void print_summary(const ui::RunSummary& s) {
  std::printf(
      "display: %.1f frames/s (%lld frames in %.2f s; work per frame %.1f ms mean, %.1f ms p95)\n"
      "video: %lld frames shown (%.1f/s; the source runs at %.1f fps), last frame %lld\n"
      "tracking (worker thread): %.1f ms/frame; CPU used by the program: %.2f cores\n",
      s.display_fps, s.ui_frames, s.seconds, s.mean_frame_work_ms, s.p95_frame_work_ms, s.video_frames_shown,
      s.video_fps_shown, s.source_fps, s.last_frame_index, s.mean_process_ms, s.cpu_cores_used);
}

// WIDTHxHEIGHT within the window's limits.
bool parse_size(const std::string& text, int& width, int& height) {
  char rest = 0;
  return std::sscanf(text.c_str(), "%dx%d%c", &width, &height, &rest) == 2 && width >= 640 && height >= 400 &&
         width <= kMaxWindowSide && height <= kMaxWindowSide;
}

// --screenshot and --views-json, checked before any window opens (the photo screen's arguments
// and the table screen's alike).
template <typename ScreenArgs>
void take_screenshot_outputs(const UiOptions& o, ScreenArgs& a) {
  if (!o.screenshot.empty()) {
    // OpenCV picks the format from the extension; an unknown one would fail only at the end.
    if (!cv::haveImageWriter(o.screenshot))
      throw io::InputError(o.screenshot, "",
                           "cannot be written as an image: give a name ending in .png (or .jpg, .bmp, .tif)");
    io::check_output_path(o.screenshot);
    a.screenshot = o.screenshot;
  }
  if (!o.views_json.empty()) {
    if (!a.screenshot) throw io::InputError("", "--views-json", "goes with --screenshot");
    io::check_output_path(o.views_json);
    a.views_json = o.views_json;
  }
}

int run_ui(const UiOptions& o);

// `diskref ui --disks disks.json` without a camera, a video or a recording: a kitchen table and a
// phone. The screen is the dispute from a photo alone (ui/photo_app.h).
int run_ui_photo_only(const UiOptions& o) {
  if (!o.tracks.empty() || !o.record.empty() || !o.game.empty())
    throw io::InputError("", "--tracks/--record/--game",
                         "go with --video or --camera (without them the screen settles disputes from photos)");
  ui::PhotoAppOptions a;
  a.disks = o.disks;
  a.rules_data = o.rules.empty() ? default_rules_data() : fs::path(o.rules);
  if (!o.calib.empty()) a.camera_file = o.calib;
  if (!o.photo.empty()) a.photo = o.photo;
  if (!o.select.empty()) {
    a.question.a = o.select[0];
    if (o.select.size() > 1) a.question.b = o.select[1];
  } else if (!o.flip.empty()) {
    const auto colon = o.flip.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw io::InputError("", "--flip", "expected SHIP:SPEED, e.g. enterprise:3");
    a.question.kind = ui::PhotoQuestion::Kind::move;
    a.question.a = o.flip.substr(0, colon);
    try {
      a.question.flips = std::stoi(o.flip.substr(colon + 1));
    } catch (const std::exception&) {
      throw io::InputError("", "--flip", "the speed after ':' must be a whole number of flips");
    }
  }
  a.template_index = o.template_index;
  take_screenshot_outputs(o, a);
  a.run_seconds = o.seconds;
  if (!parse_size(o.size, a.width, a.height))
    throw io::InputError("", "--size",
                         "expected WIDTHxHEIGHT, at least 640x400 and at most 8192x8192 (got \"" + o.size + "\")");
  ui::run_photo_app(a);
  if (a.screenshot) std::fprintf(stderr, "diskref ui: wrote %s\n", a.screenshot->c_str());
  return kExitOk;
}

// --camera, or its older name --camera-device (refused together).
std::string camera_named(const UiOptions& o) {
  if (!o.camera.empty() && !o.camera_device.empty())
    throw io::InputError("", "--camera-device", "is the older name of --camera: give one of them");
  return o.camera.empty() ? o.camera_device : o.camera;
}

// `diskref ui --setup DIR`: the setup screen (ui/setup_app.h) over the camera or a video, then,
// when it is finished and "Start the table" pressed, the companion screen on the files it wrote,
// refereeing its game.
int run_ui_setup(const UiOptions& o) {
  if (!o.replay.empty() || !o.table.empty() || !o.disks.empty() || !o.calib.empty() || !o.tracks.empty())
    throw io::InputError(
        "", "--setup",
        "makes the table, disks and camera files itself: leave out --replay, --table, --disks, --calib and --tracks");
  if (!o.inputs.empty() || !o.inputs_out.empty() || !o.screen_inputs.empty())
    throw io::InputError("", "--setup",
                         "--inputs, --inputs-out and --screen-inputs go with --game on a finished table");
  if (!o.setup_script.empty() && !fs::is_regular_file(o.setup_script))
    throw io::InputError(o.setup_script, "", "setup script not found");
  ui::SetupAppOptions s;
  s.dir = o.setup;
  if (!o.game.empty()) s.game = o.game;
  std::string hint = "diskref ui --setup " + o.setup + " --camera 0";
  s.camera_hint = hint;
  if (!camera_named(o).empty()) {
    setup::SetupState where;
    where.dir = o.setup;
    s.source = vision::open_camera(
        camera_options(camera_named(o), o.camera_settings, "ui", where.camera_settings_file().string()));
    s.live = true;
  } else if (!o.video.empty()) {
    s.source = vision::open_video_file(o.video);
  }
  if (!o.setup_script.empty()) s.script = o.setup_script;
  if (!parse_size(o.size, s.width, s.height))
    throw io::InputError("", "--size",
                         "expected WIDTHxHEIGHT, at least 640x400 and at most 8192x8192 (got \"" + o.size + "\")");
  const ui::SetupOutcome outcome = ui::run_setup_app(std::move(s));
  for (const std::string& p : outcome.problems) std::fprintf(stderr, "diskref ui: setup script: %s\n", p.c_str());
  const setup::Step next = outcome.state.next_step();
  if (!outcome.start) {
    std::fprintf(stderr, "diskref ui: the setup is saved in %s (%s); %s\n", o.setup.c_str(),
                 next == setup::Step::done ? "finished" : ("next: " + std::string(setup::step_title(next))).c_str(),
                 next == setup::Step::done ? "start the table with the same command" : ("go on with: " + hint).c_str());
    return outcome.problems.empty() ? kExitOk : kExitFailure;
  }
  // The table: the companion screen on what the setup wrote, with its game.
  UiOptions table = o;
  table.setup.clear();
  table.setup_script.clear();
  table.table = outcome.state.table_file().string();
  table.disks = outcome.state.disks_file().string();
  if (outcome.state.is_done(setup::Step::calibration)) table.calib = outcome.state.camera_file().string();
  table.game = outcome.state.game_file.string();
  // A camera keeps the settings the setup locked it at (a video has none to keep).
  if (!camera_named(table).empty() && table.camera_settings.settings_file.empty())
    table.camera_settings.settings_file = outcome.state.camera_settings_file().string();
  // A video goes on where the setup stopped, as a camera would.
  if (!o.video.empty() && outcome.frame > 0) table.start_frame = outcome.frame + 1;
  const int status = run_ui(table);
  return outcome.problems.empty() ? status : kExitFailure;
}

int run_ui(const UiOptions& o) {
  if (!o.setup.empty()) return run_ui_setup(o);
  ui::AppOptions a;
  const std::string camera = camera_named(o);
  int sources = (!camera.empty() ? 1 : 0) + (!o.video.empty() ? 1 : 0) + (!o.replay.empty() ? 1 : 0);
  if (sources > 1) throw io::InputError("", "", "give one of --video, --camera and --replay");
  if (sources == 0 && !o.disks.empty()) return run_ui_photo_only(o);
  check_settings_have_camera(o.camera_settings, camera);
  if (!o.replay.empty()) {
    a.source.kind = ui::SourceChoice::Kind::replay;
    a.source.replay_dir = o.replay;
  } else if (!camera.empty()) {
    a.source.kind = ui::SourceChoice::Kind::camera;
    const bool number = camera.find_first_not_of("0123456789") == std::string::npos && camera.size() <= 3;
    a.source.camera_index = number ? std::stoi(camera) : 0;
    a.camera = camera_options(camera, o.camera_settings, "ui");
  } else {
    a.source.kind = ui::SourceChoice::Kind::video;
    a.source.video = o.video.empty() ? default_video() : fs::path(o.video);
  }
  if (!o.table.empty()) a.source.table = o.table;
  if (!o.disks.empty()) a.source.disks = o.disks;
  if (!o.calib.empty()) a.source.camera_file = o.calib;
  if (!o.tracks.empty()) a.source.tracks = o.tracks;
  if (!o.record.empty()) {
    a.record_dir = o.record;
    a.provenance.diskref_version = diskref_version();
    a.provenance.command = command_line();
  }
  a.rules_data = o.rules.empty() ? default_rules_data() : fs::path(o.rules);
  take_screenshot_outputs(o, a);
  a.frames = o.frames;
  a.start_frame = o.start_frame;
  if (a.screenshot && a.frames < 1) a.frames = 1;
  if (!parse_size(o.size, a.width, a.height))
    throw io::InputError("", "--size",
                         "expected WIDTHxHEIGHT, at least 640x400 and at most 8192x8192 (got \"" + o.size + "\")");
  if (!o.select.empty()) {
    a.initial.a = o.select[0];
    if (o.select.size() > 1) a.initial.b = o.select[1];
  }
  a.initial.template_index = o.template_index;
  a.initial.reach_multiplier = o.reach;
  if (!o.flip.empty()) {
    auto colon = o.flip.rfind(':');
    if (colon == std::string::npos || colon == 0)
      throw io::InputError("", "--flip", "expected SHIP:SPEED, e.g. enterprise:3");
    a.initial.mover = o.flip.substr(0, colon);
    try {
      a.initial.flips = std::stoi(o.flip.substr(colon + 1));
    } catch (const std::exception&) {
      throw io::InputError("", "--flip", "the speed after ':' must be a whole number of flips");
    }
    if (a.initial.flips < 1 || a.initial.flips > 20) throw io::InputError("", "--flip", "speed must be 1..20 flips");
  }
  if (!o.photo.empty()) a.photo = o.photo;
  a.start_paused = o.paused;
  a.zoom_to_dispute = o.zoom;
  a.exit_at_end = o.exit_at_end;
  a.run_seconds = o.seconds;
  if (!o.game.empty()) {
    if (a.source.kind == ui::SourceChoice::Kind::replay)
      throw io::InputError("", "--game", "goes with --video or --camera");
    if (o.video.empty() && a.source.kind == ui::SourceChoice::Kind::video)
      throw io::InputError("", "--game", "give the game's video (--video) or a camera");
    ui::GameOptions g;
    g.game_file = o.game;
    if (!o.inputs.empty()) g.inputs = o.inputs;
    if (!o.inputs_out.empty()) g.inputs_out = o.inputs_out;
    if (!o.game_log.empty()) g.log_out = o.game_log;
    if (!o.screen_inputs.empty()) g.screen_inputs = o.screen_inputs;
    if (!o.serve.serve.empty() || !o.tuio.empty() || !o.mqtt.empty()) {
      net::LiveFeedOptions f;
      f.table_name = o.table_name;
      if (!o.serve.serve.empty()) f.serve = http_feed_options(o.serve);
      f.photo_ruler = feed_photo_ruler;  // the photo page beside the overlay
      if (!o.tuio.empty()) f.tuio = net::parse_destination(o.tuio, "--tuio");
      if (!o.mqtt.empty()) f.mqtt = net::MqttOptions{.broker = net::parse_destination(o.mqtt, "--mqtt")};
      g.feed = f;
    }
    a.game = g;
  } else if (!o.inputs.empty() || !o.inputs_out.empty() || !o.game_log.empty() || !o.screen_inputs.empty()) {
    throw io::InputError("", "--inputs/--inputs-out/--game-log/--screen-inputs", "go with --game");
  } else if (!o.serve.serve.empty() || !o.tuio.empty() || !o.mqtt.empty()) {
    throw io::InputError("", "--serve/--tuio/--mqtt", "go with --game (the feed carries the game)");
  }

  ui::RunSummary s = ui::run_app(a);
  for (const std::string& n : s.notes) std::fprintf(stderr, "diskref ui: %s\n", n.c_str());
  if (a.screenshot)
    std::fprintf(stderr, "diskref ui: wrote %s (frame %lld)\n", a.screenshot->c_str(), s.last_frame_index);
  if (s.recording) std::fprintf(stderr, "diskref ui: recorded the session in %s\n", s.recording->c_str());
  if (o.stats) print_summary(s);
  if (s.recording_failure) {
    std::fprintf(stderr, "diskref ui: error: the recording stopped: %s\n", s.recording_failure->c_str());
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

RunFunction add_ui_command(CLI::App& app) {
  auto o = std::make_shared<UiOptions>();
  CLI::App* sub = app.add_subcommand(
      "ui",
      "The companion screen: camera and table views, disputes, the disk list (spec §8); --game: the referee live");
  sub->add_option("--video", o->video, "Open this recording (default: the bundled sample video, sample_videos/duel)");
  sub->add_option("--camera", o->camera,
                  "Open a live camera: its number (0), V4L2 device (/dev/video2) or URL (http://, https://, rtsp://: a "
                  "phone on a stand); "
                  "needs --table and --disks");
  sub->add_option("--camera-device", o->camera_device, "The older name of --camera (a device such as /dev/video2)");
  add_camera_settings(sub, o->camera_settings);
  sub->add_option("--replay", o->replay, "Replay a session recording (a directory written by --record)");
  sub->add_option("--table", o->table, "Table file (default: table.json beside the video)");
  sub->add_option("--disks", o->disks, "Disk registry (default: disks.json beside the video)");
  sub->add_option("--calib", o->calib, "Camera file, spec §7 (default: camera.json beside the video, if any)");
  sub->add_option("--rules", o->rules, "Game data: a file or directory of rules data (default: data/rules)");
  sub->add_option("--tracks", o->tracks, "Show this track file (JSONL, spec §5) instead of running the tracker");
  sub->add_option(
      "--record", o->record,
      "Record the session into this new folder (spec §11): a camera's frames, a still at every settle, the tracks, "
      "events and, with --game, the inputs and log; crash-safe");
  sub->add_option("--screenshot", o->screenshot, "Write a PNG of the whole window after --frames frames, then exit");
  sub->add_option("--views-json", o->views_json,
                  "With --screenshot: write where each view is in the picture (JSON), for tests and tools");
  sub->add_option("--frames", o->frames, "Run this many video frames, then exit")->check(CLI::PositiveNumber);
  sub->add_option("--size", o->size, "Window size WIDTHxHEIGHT")->capture_default_str();
  sub->add_option("--select", o->select, "Preselect two disks for the dispute tool: A,B")
      ->delimiter(',')
      ->expected(1, 2);
  sub->add_option("--template", o->template_index,
                  "Range template: 0 = the rules' (game data parameter range_template_mm), 1.. = the registry's "
                  "templates in order")
      ->check(CLI::NonNegativeNumber);
  sub->add_option("--reach", o->reach, "Template lengths of reach: 1 = base range, 2 = +1 range")
      ->check(CLI::Range(1, 4));
  sub->add_option("--flip", o->flip, "Preselect a ship and a speed for the flip path: SHIP:SPEED");
  sub->add_option(
      "--photo", o->photo,
      "Settle a dispute from this photo of the table (spec §14): opened in the Photo panel at the start; "
      "a photo can also be dropped on the window. With --disks and no camera or video, the screen is that panel alone");
  sub->add_flag("--paused", o->paused, "Start paused on the first frame");
  sub->add_flag("--exit-at-end", o->exit_at_end, "Exit when the video ends");
  sub->add_option("--seconds", o->seconds, "Exit after this many seconds on the screen")
      ->check(finite_between(0.01, 1e7));
  sub->add_flag("--zoom", o->zoom,
                "Start with the table view zoomed to the dispute (a game's table view starts zoomed to the move)");
  sub->add_flag("--stats", o->stats, "Print the display rate and tracking time on exit");
  sub->add_option("--game", o->game,
                  "Referee this game live (the setup of a play script, spec §9) over --video or --camera");
  sub->add_option("--inputs", o->inputs,
                  "With --game: the referee's timed inputs (spec §9 JSONL), given as the video reaches them");
  sub->add_option("--inputs-out", o->inputs_out,
                  "With --game: record every input given (spec §9 JSONL, flushed line by line) for diskref referee");
  add_serve_flags(
      *sub, o->serve,
      "With --game: serve the live feed and the stream overlay on [ADDR:]PORT (loopback unless ADDR is given)");
  sub->add_option("--tuio", o->tuio, "With --game: send the disks as TUIO 1.1 objects to HOST:PORT (OSC/UDP)");
  sub->add_option("--mqtt", o->mqtt, "With --game: publish the table's state to the MQTT broker at HOST:PORT");
  sub->add_option("--table-name", o->table_name, "With --game: the table's name on the feed")->capture_default_str();
  sub->add_option("--game-log", o->game_log,
                  "With --game: write the game's log (LOG.json, as diskref referee's) on exit");
  sub->add_option(
      "--screen-inputs", o->screen_inputs,
      "With --game (tests, demos): {\"t\", ...input} lines given as if at the screen when the video shows t");
  sub->add_option("--setup", o->setup,
                  "Set up a first table in this folder, step by step (play area, camera, kit to print, calibration, "
                  "table, disks), with --game GAME.json the first time and --camera N; taken up where it stopped")
      ->group("A first table");
  sub->add_option(
         "--setup-script", o->setup_script,
         "With --setup (tests, documentation): JSON lines {\"t\", \"do\", ...} doing what the setup's buttons do")
      ->group("A first table");
  sub->footer(
      "Examples:\n"
      "  diskref ui                                          the bundled sample video\n"
      "  diskref ui --setup mytable --game game.json --camera 0   a first table, step by step\n"
      "  diskref ui --camera 0 --table mytable/table.json --disks mytable/disks.json --calib mytable/camera.json \\\n"
      "    --game game.json                                  the referee at the table\n"
      "  diskref ui --replay sessions/tuesday                a recorded session\n"
      "  diskref ui --disks disks.json                       a dispute from a phone's photo (no camera)");
  return [o] { return run_ui(*o); };
}

}  // namespace diskref::cli
