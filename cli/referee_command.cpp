// `diskref referee VIDEO --table TABLE.json --disks DISKS.json [--calib CAMERA.json] --game GAME.json
// [--inputs INPUTS.jsonl] --out LOG.json` (spec §9): the referee without a window. The video is
// tracked frame by frame (decoded ahead on a thread of its own) and every frame goes to the
// referee with the inputs; LOG.json is written at the end (atomically).
//
// Extensions (docs/reference/commands/referee.md): --tracks FILE.jsonl reads the tracks from a file
// (a `diskref track` output or a rendered video's truth.jsonl) instead of tracking the video;
// --script-out FILE writes the game as a `diskref play` script; --off-path-mm sets the off-path
// tolerance; --story prints the log an entry a line.
//
// The network (docs/guide/network.md, spec §10): --serve [ADDR:]PORT serves the live feed and the
// stream overlay (loopback unless an address is given), --tuio HOST:PORT sends the disks as TUIO
// 1.1 objects, --mqtt HOST:PORT publishes the table's state for a hall of tables (diskref hall),
// --table-name names the table in every message and topic; --realtime [--speed X] paces the
// frames to their video time so that a page can watch, --linger S keeps serving after the end.

#include <unistd.h>

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <memory>
#include <string>
#include <thread>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "cli/camera_settings.h"
#include "cli/command_line.h"
#include "cli/commands.h"
#include "cli/photo_upload.h"
#include "cli/progress.h"
#include "cli/serve_flags.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "net/endpoint.h"
#include "net/live_feed.h"
#include "pipeline/game_replay.h"
#include "pipeline/input_lines.h"
#include "pipeline/pipeline.h"
#include "recording/file_checksum.h"
#include "recording/game_recording.h"
#include "recording/recorded_video.h"
#include "recording/refereed_session_recorder.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/referee.h"
#include "vision/frame_source.h"
#include "vision/live_camera.h"
#include "vision/prefetching_source.h"
#include "vision/tracker.h"

namespace diskref::cli {
namespace {

struct RefereeCommandOptions {
  std::string video;
  std::string table;
  std::string disks;
  std::string calib;
  std::string game;
  std::string inputs;
  std::string out;
  std::string tracks;
  std::string script_out;
  double off_path_mm = 3.0;
  double camera_gap_s = referee::RefereeOptions{}.camera_gap_s;
  bool quiet = false;
  bool story = false;
  // The network.
  ServeFlags serve;
  std::string tuio;
  std::string mqtt;
  std::string mqtt_topic_prefix = "diskref/tables";
  std::string table_name = "table";
  double updates_per_s = 30;
  bool realtime = false;
  double speed = 1.0;
  double linger_s = 0;
  // Recordings.
  std::string record;
  bool reference_video = false;
  std::string session;
  bool retrack = false;
  // A live camera.
  std::string camera;
  CameraSettingsText camera_settings;
  std::string follow_inputs;
};

std::optional<net::LiveFeedOptions> feed_options(const RefereeCommandOptions& o) {
  if (o.serve.serve.empty() && o.tuio.empty() && o.mqtt.empty()) return std::nullopt;
  net::LiveFeedOptions f;
  f.table_name = o.table_name;
  f.updates_per_s = o.updates_per_s;
  if (!o.serve.serve.empty()) f.serve = http_feed_options(o.serve);
  f.photo_ruler = feed_photo_ruler;  // the photo page beside the overlay
  if (!o.tuio.empty()) f.tuio = net::parse_destination(o.tuio, "--tuio");
  if (!o.mqtt.empty())
    f.mqtt = net::MqttOptions{.broker = net::parse_destination(o.mqtt, "--mqtt"), .topic_prefix = o.mqtt_topic_prefix};
  return f;
}

void print_summary(const referee::Referee& r, long long frames, double seconds) {
  int actions = 0, warnings = 0, from_table = 0;
  for (const referee::Entry& e : r.log()) {
    if (e.kind == referee::Entry::Kind::action) {
      ++actions;
      if (e.observed) ++from_table;
    }
    if (e.kind == referee::Entry::Kind::warning) ++warnings;
  }
  std::fprintf(stderr, "%lld frames in %.1f s; %d actions (%d read from the table, %d refused), %d warnings\n", frames,
               seconds, actions, from_table, r.refused(), warnings);
  const rules::GameState& s = r.state();
  std::fprintf(stderr, "game: turn %d, %s%s\n", s.turn, std::string(rules::to_string(s.step)).c_str(),
               s.winner ? (", won by " + (s.winner->empty() ? std::string("no side") : *s.winner)).c_str() : "");
  for (const std::string& w : r.waiting()) std::fprintf(stderr, "still waiting: %s\n", w.c_str());
}

// What a game is refereed from: the setup files, the inputs, and the frames (a video to track, a
// tracks file, or a recording's tracks or pictures).
struct RefereeSources {
  std::filesystem::path table, disks, game;
  std::optional<std::filesystem::path> calib;
  std::filesystem::path inputs;  // empty: none
  std::optional<std::vector<referee::Input>> recorded_inputs;
  std::filesystem::path tracks_file;                        // a tracks file (spec §5), read as it goes
  std::optional<std::vector<model::TrackFrame>> tracks;     // a recording's
  std::filesystem::path video_file;                         // a video to track
  std::filesystem::path recorded_video;                     // a recording's video/ to track
  std::optional<referee::RefereeOptions> recorded_options;  // a recording's (its off-path tolerance, its camera gap)
};

RefereeSources sources_from_options(const RefereeCommandOptions& o) {
  if (o.video.empty() && o.tracks.empty() && o.camera.empty())
    throw io::InputError("", "", "give a VIDEO file (or --camera N|DEVICE|URL, --tracks FILE.jsonl, or --session DIR)");
  if (!o.camera.empty() && (!o.video.empty() || !o.tracks.empty()))
    throw io::InputError(
        "", "--camera",
        o.video.empty() ? "goes without --tracks: the tracks are the camera's" : "goes without a VIDEO file");
  using Named = std::pair<const std::string*, const char*>;
  for (const auto& [given, name] : {Named{&o.table, "--table"}, Named{&o.disks, "--disks"}, Named{&o.game, "--game"}})
    if (given->empty()) throw io::InputError("", name, "is required (or --session DIR, which has its own)");
  RefereeSources s;
  s.table = o.table;
  s.disks = o.disks;
  s.game = o.game;
  if (!o.calib.empty()) s.calib = o.calib;
  s.inputs = o.inputs;
  if (!o.tracks.empty())
    s.tracks_file = o.tracks;
  else if (o.camera.empty())
    s.video_file = o.video;
  return s;
}

// --session DIR: everything from the recording; what is damaged is said, the rest used.
RefereeSources sources_from_recording(const RefereeCommandOptions& o) {
  using Named = std::pair<const std::string*, const char*>;
  for (const auto& [given, name] :
       {Named{&o.table, "--table"}, Named{&o.disks, "--disks"}, Named{&o.game, "--game"}, Named{&o.calib, "--calib"},
        Named{&o.video, "VIDEO"}, Named{&o.tracks, "--tracks"}, Named{&o.camera, "--camera"}})
    if (!given->empty()) throw io::InputError("", name, "goes without --session: a recording has its own");
  recording::GameRecording g = recording::load_game_recording(o.session);
  for (const std::string& w : g.warnings) std::fprintf(stderr, "diskref referee: warning: %s\n", w.c_str());
  if (!g.game_file)
    throw io::InputError(o.session, "",
                         "holds no game (no game/game.json): it was recorded without --game, nothing to referee");
  RefereeSources s;
  s.table = g.session.files.table;
  s.disks = g.session.files.disks;
  s.calib = g.session.files.camera;
  s.game = *g.game_file;
  if (!o.inputs.empty())
    s.inputs = o.inputs;
  else
    s.recorded_inputs = std::move(g.inputs);
  referee::RefereeOptions given;
  given.off_path_tolerance_mm = o.off_path_mm;
  given.camera_gap_s = o.camera_gap_s;
  s.recorded_options = pipeline::recorded_referee_options(g, given);
  if (!o.retrack) {
    s.tracks = std::move(g.session.frames);
  } else if (g.session.provenance.frames_copied) {
    s.recorded_video = std::filesystem::path(o.session) / "video";
  } else if (g.session.info.video) {
    // The video was referenced: it must be the very file recorded, or the replay proves nothing.
    s.video_file = *g.session.info.video;
    if (const auto& kept = g.session.provenance.video_checksum) {
      const recording::FileChecksum now = recording::checksum_file(s.video_file);
      if (now != *kept)
        throw io::InputError(
            s.video_file.string(), "",
            fmt::format("is not the video {} recorded: {} bytes, checksum {} (recorded: {} bytes, {}); "
                        "replay without --retrack uses the recorded tracks",
                        o.session, now.bytes, now.fnv1a64, kept->bytes, kept->fnv1a64));
    }
  } else {
    throw io::InputError(o.session, "", "has no pictures to track again (--retrack): neither its frames nor a video");
  }
  return s;
}

nlohmann::json recorded_parameters(const RefereeCommandOptions& o) {
  return {{"off_path_mm", o.off_path_mm},     {"camera_gap_s", o.camera_gap_s},
          {"realtime", o.realtime},           {"speed", o.speed},
          {"updates_per_s", o.updates_per_s}, {"table_name", o.table_name}};
}

std::unique_ptr<recording::RefereedSessionRecorder> start_recording(const RefereeCommandOptions& o,
                                                                    const RefereeSources& s) {
  if (o.record.empty()) return nullptr;
  recording::SessionInfo info;
  info.source = o.camera.empty() ? "video" : "camera";
  info.started_utc = recording::utc_now();
  recording::SessionProvenance provenance;
  provenance.diskref_version = diskref_version();
  provenance.command = command_line();
  provenance.parameters = recorded_parameters(o);
  if (!o.camera.empty()) {
    // A camera's pictures exist nowhere else: they are copied.
    info.tracks_from = "tracker";
    provenance.frames_copied = true;
  } else if (!s.video_file.empty()) {
    info.video = std::filesystem::absolute(s.video_file).string();
    info.tracks_from = "tracker";
    provenance.frames_copied = !o.reference_video;
    if (o.reference_video) provenance.video_checksum = recording::checksum_file(s.video_file);
  } else if (!s.recorded_video.empty()) {
    // A recording's pictures tracked again: its JPEG frames are stored as they are.
    info.tracks_from = "tracker";
    provenance.frames_copied = true;
    if (o.reference_video)
      throw io::InputError("", "--reference-video", "goes with a video file, not a recording's frames");
  } else {
    info.tracks_from = !o.session.empty() ? "replay" : "file";
  }
  // A file waits for the encoder rather than lose a frame, unless it plays as a camera would
  // (--realtime): then a frame the encoder cannot keep up with is dropped, as a camera's is.
  recording::VideoRecorderOptions video;
  video.wait_when_full = !o.realtime && o.camera.empty();
  return std::make_unique<recording::RefereedSessionRecorder>(
      o.record, info, recording::SessionFiles{s.table, s.disks, s.calib}, provenance, s.game, video);
}

// Ctrl-C (or a TERM) ends the game as the video's end would: the pipeline stops after the frame in
// hand (a camera waiting for a lost device stops waiting) and the log and recording are written
// whole. Only atomic stores happen in the handler.
std::atomic<pipeline::Pipeline*> g_running_pipeline{nullptr};
extern "C" void on_referee_interrupt(int) {
  if (pipeline::Pipeline* p = g_running_pipeline.load()) p->stop();
}

class InterruptsEndTheGame {
 public:
  explicit InterruptsEndTheGame(pipeline::Pipeline& pipe) {
    g_running_pipeline = &pipe;
    previous_int_ = std::signal(SIGINT, on_referee_interrupt);
    previous_term_ = std::signal(SIGTERM, on_referee_interrupt);
  }
  ~InterruptsEndTheGame() {
    std::signal(SIGINT, previous_int_);
    std::signal(SIGTERM, previous_term_);
    g_running_pipeline = nullptr;
  }
  InterruptsEndTheGame(const InterruptsEndTheGame&) = delete;
  InterruptsEndTheGame& operator=(const InterruptsEndTheGame&) = delete;

 private:
  void (*previous_int_)(int) = SIG_DFL;
  void (*previous_term_)(int) = SIG_DFL;
};

void check_referee_options(const RefereeCommandOptions& o) {
  if (!(o.off_path_mm > 0 && o.off_path_mm < 1000))
    throw io::InputError("", "--off-path-mm", "must be between 0 and 1000 mm");
  // Below 0.1 s a 10 fps camera's every frame would be a gap.
  if (!(o.camera_gap_s >= 0.1 && o.camera_gap_s <= 3600))
    throw io::InputError("", "--camera-gap-s", "must be between 0.1 and 3600 s");
  io::check_output_path(o.out);
  if (!o.script_out.empty()) io::check_output_path(o.script_out);
  if (!(o.speed > 0 && o.speed <= 1000)) throw io::InputError("", "--speed", "must be more than 0 and at most 1000");
  if (!(o.updates_per_s >= 1 && o.updates_per_s <= 1000))
    throw io::InputError("", "--updates-per-s", "must be from 1 to 1000");
  if (!(o.linger_s >= 0 && o.linger_s <= 86400)) throw io::InputError("", "--linger", "must be from 0 to 86400 s");
  if (o.table_name.empty() || o.table_name.size() > 64 ||
      o.table_name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_.") !=
          std::string::npos)
    throw io::InputError("", "--table-name", "\"" + o.table_name + "\": 1 to 64 letters, digits, '-', '_' or '.'");
  if (o.mqtt_topic_prefix.empty() || o.mqtt_topic_prefix.find_first_of("+#") != std::string::npos)
    throw io::InputError("", "--mqtt-topic-prefix",
                         "\"" + o.mqtt_topic_prefix + "\": a topic without wildcards (+, #)");
  if (o.retrack && o.session.empty()) throw io::InputError("", "--retrack", "goes with --session DIR");
  if (o.reference_video && o.record.empty()) throw io::InputError("", "--reference-video", "goes with --record DIR");
  check_settings_have_camera(o.camera_settings, o.camera);
  if (!o.follow_inputs.empty() && o.camera.empty())
    throw io::InputError("", "--follow-inputs", "goes with --camera (a video's inputs are a timed --inputs file)");
  if (!o.camera.empty()) {
    if (o.realtime)
      throw io::InputError("", "--realtime", "goes with a video: a camera gives its frames at its own pace");
    if (o.reference_video)
      throw io::InputError("", "--reference-video", "goes with a video file: a camera's pictures exist nowhere else");
  }
}

void print_camera_summary(const vision::LiveCameraSource& camera) {
  std::string rate = "not measured";
  if (const std::optional<double> fps = camera.measured_fps()) rate = fmt::format("{:.1f} frames per second", *fps);
  std::string behind;
  if (camera.frames_dropped_behind() > 0)
    behind = fmt::format(" ({} of them arrived and were dropped while the referee was behind)",
                         camera.frames_dropped_behind());
  std::fprintf(stderr, "%s: %s; %zu gap%s, %lld frame%s lost%s\n", camera.description().c_str(), rate.c_str(),
               camera.gaps().size(), camera.gaps().size() == 1 ? "" : "s", camera.frames_lost(),
               camera.frames_lost() == 1 ? "" : "s", behind.c_str());
}

int run_referee(const RefereeCommandOptions& o) {
  check_referee_options(o);
  const std::optional<net::LiveFeedOptions> feed_wanted = feed_options(o);
  // Every input is read before anything runs.
  RefereeSources sources = o.session.empty() ? sources_from_options(o) : sources_from_recording(o);
  model::TableSpec table = model::load_table(sources.table);
  model::DiskRegistry registry = model::load_disk_registry(sources.disks);
  std::optional<calib::CameraModel> lens;
  if (sources.calib) lens = calib::load_camera_model(*sources.calib);
  referee::GameFile game = referee::load_game_file(sources.game, table, registry);
  std::vector<referee::Input> inputs;
  if (sources.recorded_inputs)
    inputs = std::move(*sources.recorded_inputs);
  else if (!sources.inputs.empty())
    inputs = referee::load_inputs(sources.inputs);

  // The frames' source opens before anything is written: a camera that is not there, or a video
  // that cannot be read, leaves no log and no recording behind.
  std::unique_ptr<vision::FrameSource> source;
  vision::LiveCameraSource* camera = nullptr;
  if (!o.camera.empty()) {
    vision::CameraOptions camera_wanted = camera_options(o.camera, o.camera_settings, "referee");
    camera_wanted.lock_after_s.reset();  // locked once the table is found (the pipeline)
    std::unique_ptr<vision::LiveCameraSource> live = vision::open_live_camera(camera_wanted);
    camera = live.get();
    source = std::move(live);
  } else if (!sources.video_file.empty() || !sources.recorded_video.empty()) {
    source =
        vision::prefetching(sources.recorded_video.empty() ? vision::open_video_file(sources.video_file)
                                                           : recording::open_recorded_video(sources.recorded_video));
  }
  if (source && lens)
    calib::check_camera_fits_image(*lens, source->frame_size(), sources.calib->string(),
                                   camera ? "the frames of " + camera->description() : "the video");

  referee::RefereeOptions options;
  options.off_path_tolerance_mm = o.off_path_mm;
  options.camera_gap_s = o.camera_gap_s;
  if (sources.recorded_options) options = *sources.recorded_options;
  pipeline::RefereedGameOptions game_options;
  game_options.inputs_from_first_frame = camera != nullptr;
  // The feed opens before the first frame: a page opened now sees the whole game.
  std::unique_ptr<net::LiveFeed> feed;
  if (feed_wanted)
    feed = std::make_unique<net::LiveFeed>(*feed_wanted, table, registry, [](const std::string& line) {
      std::fprintf(stderr, "diskref referee: %s\n", line.c_str());
    });
  auto refereed = std::make_shared<pipeline::RefereedGame>(referee::Referee(std::move(game), table, registry, options),
                                                           std::move(inputs), game_options, std::move(feed));
  std::unique_ptr<vision::Tracker> tracker;
  if (source) tracker = std::make_unique<vision::Tracker>(table, registry, lens);
  pipeline::PipelineOptions pipe_options;
  pipe_options.realtime = o.realtime;
  pipe_options.speed = o.speed;
  pipe_options.lock_picture = !o.camera_settings.free;
  pipeline::Pipeline pipe(std::move(tracker), refereed, start_recording(o, sources), pipe_options);
  InterruptsEndTheGame interrupts(pipe);

  // Live, the referee's inputs are typed (or written) as the game goes.
  std::unique_ptr<pipeline::InputLines> typed;
  if (camera) {
    auto say = [quiet = o.quiet](const std::string& line) {
      if (!quiet) std::fprintf(stderr, "diskref referee: %s\n", line.c_str());
    };
    if (!o.follow_inputs.empty())
      typed = pipeline::InputLines::follow_file(o.follow_inputs, refereed, say);
    else
      typed = std::make_unique<pipeline::InputLines>(STDIN_FILENO, refereed, pipeline::InputLinesOptions{}, say);
    if (!o.quiet)
      std::fprintf(stderr, "diskref referee: refereeing %s; inputs from %s, one JSON line each; Ctrl-C ends the game\n",
                   camera->description().c_str(), o.follow_inputs.empty() ? "standard input" : o.follow_inputs.c_str());
  }

  const auto start = std::chrono::steady_clock::now();
  if (!sources.tracks_file.empty()) {
    io::read_jsonl(sources.tracks_file, [&](const io::JsonCursor& line) {
      if (!pipe.stopped()) pipe.frame(model::parse_track_frame(line));
    });
  } else if (sources.tracks) {
    pipe.run_tracks(*sources.tracks);
  } else {
    // A camera has no end to count to: its progress is its frame count and rate.
    Progress progress(source->frame_count(), o.quiet);
    pipe.run_source(*source, [&](const vision::Frame& frame, const vision::TrackerResult& result) {
      if (camera)
        for (const std::string& note : result.notes) {
          progress.finish();
          std::fprintf(stderr, "diskref referee: %s\n", note.c_str());
        }
      const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
      progress.update(frame.index + 1, elapsed > 0 ? static_cast<double>(pipe.stats().frames) / elapsed : 0.0);
    });
    progress.finish();
    if (!pipe.stats().table_found)
      std::fprintf(stderr,
                   "diskref referee: the corner markers were never seen: nothing could be read from the table\n");
  }
  if (typed) typed->stop();
  pipe.finish();
  recording::RefereedSessionRecorder* recorder = pipe.recorder();
  if (recorder) {
    if (recorder->failed())
      std::fprintf(stderr, "diskref referee: error: the recording is incomplete: %s\n", recorder->failure().c_str());
    else if (!o.quiet)
      std::fprintf(stderr, "diskref referee: recorded the session in %s\n", recorder->dir().c_str());
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  int status = recorder && recorder->failed() ? kExitFailure : kExitOk;
  refereed->read_referee([&](const referee::Referee& ref) {
    io::write_file_atomically(o.out, ref.log_json().dump(1) + "\n");
    if (!o.script_out.empty()) io::write_file_atomically(o.script_out, ref.as_play_script().dump(1) + "\n");
    if (o.story) {
      for (const referee::Entry& e : ref.log())
        if (std::string line = referee::entry_text(e); !line.empty()) std::printf("%7.2f s  %s\n", e.t, line.c_str());
      std::fflush(stdout);  // the story whole before the summary on stderr (one pipe for both: no line cut)
    }
    if (!o.quiet) {
      print_summary(ref, pipe.stats().frames, seconds);
      if (camera) print_camera_summary(*camera);
    }
  });
  if (o.linger_s > 0 && feed_wanted && !pipe.stopped()) {
    std::fflush(stdout);
    const auto until = std::chrono::steady_clock::now() + std::chrono::duration<double>(o.linger_s);
    while (!pipe.stopped() && std::chrono::steady_clock::now() < until)
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return status;
}

}  // namespace

RunFunction add_referee_command(CLI::App& app) {
  auto o = std::make_shared<RefereeCommandOptions>();
  CLI::App* sub =
      app.add_subcommand("referee", "Referee a game from a video of the table and the referee's inputs (spec §9)");
  sub->add_option("video", o->video, "Video file of the table");
  sub->add_option("--table", o->table, "Table file (spec §3)");
  sub->add_option("--disks", o->disks, "Disk registry (spec §4)");
  sub->add_option("--calib", o->calib, "Camera calibration (spec §7)");
  sub->add_option("--game", o->game, "Game file: the setup of a play script (spec §9)");
  sub->add_option("--inputs", o->inputs, "The referee's inputs, JSON lines in time order (spec §9)");
  sub->add_option("--out", o->out, "The game's log (spec §9, LOG.json)")->required();
  sub->add_option("--tracks", o->tracks, "Read the tracks from this file (spec §5) instead of tracking the video");
  sub->add_option("--script-out", o->script_out, "Also write the game as a diskref play script");
  sub->add_option("--off-path-mm", o->off_path_mm, "Off-path tolerance of a landing (mm)")->capture_default_str();
  sub->add_option("--camera-gap-s", o->camera_gap_s,
                  "Two frames further apart than this (s) are a camera gap: the table is read again after it (spec §9)")
      ->capture_default_str();
  sub->add_flag("--quiet", o->quiet, "No progress or summary on stderr");
  sub->add_flag("--story", o->story, "Also print the game as it was ruled, an entry a line, on stdout");
  add_serve_flags(*sub, o->serve,
                  "Serve the live feed and the stream overlay over HTTP on [ADDR:]PORT (loopback unless ADDR is given; "
                  "PORT 0 takes a free one)");
  sub->add_option("--tuio", o->tuio, "Send the disks as TUIO 1.1 /tuio/2Dobj over OSC/UDP to HOST:PORT");
  sub->add_option("--mqtt", o->mqtt,
                  "Publish this table's state to the MQTT broker at HOST:PORT (diskref/tables/NAME/..., retained) "
                  "for a hall of tables (diskref hall)");
  sub->add_option("--mqtt-topic-prefix", o->mqtt_topic_prefix, "With --mqtt: the topics are PREFIX/NAME/...")
      ->capture_default_str();
  sub->add_option("--table-name", o->table_name, "This table's name in the feed's messages and MQTT topics")
      ->capture_default_str();
  sub->add_option("--updates-per-s", o->updates_per_s, "Table frames sent on the feed at most this often")
      ->capture_default_str();
  sub->add_flag("--realtime", o->realtime, "Referee the frames at their video time's pace (for a page watching)");
  sub->add_option("--speed", o->speed, "With --realtime: this many times real time")->capture_default_str();
  sub->add_option("--linger", o->linger_s, "Keep the feed open this many seconds after the game's end");
  sub->add_option(
      "--record", o->record,
      "Record the session into this new folder (spec §11): the frames, a still at every settle, the tracks, "
      "inputs and log as they grow; crash-safe");
  sub->add_flag("--reference-video", o->reference_video,
                "With --record: keep the video's path and checksum instead of copying its frames (stills are kept)");
  sub->add_option("--session", o->session, "Referee a recording (made with --record) again from its own files");
  sub->add_flag("--retrack", o->retrack,
                "With --session: track the recorded pictures again instead of using the recorded tracks");
  sub->add_option("--camera", o->camera,
                  "Referee live from a camera instead of a video: its number (0), V4L2 device (/dev/video2) or URL "
                  "(http://, rtsp://); the inputs come as JSON lines on standard input; Ctrl-C ends the game");
  add_camera_settings(sub, o->camera_settings);
  sub->add_option("--follow-inputs", o->follow_inputs,
                  "With --camera: read the inputs from this file as it grows, instead of standard input");
  sub->footer(
      "Example:\n  diskref referee sample_videos/skirmish/video.mp4 --table sample_videos/skirmish/table.json \\\n"
      "    --disks sample_videos/skirmish/disks.json --calib sample_videos/skirmish/camera.json \\\n"
      "    --game sample_videos/skirmish/game.json --inputs sample_videos/skirmish/inputs.jsonl --out log.json\n"
      "  diskref referee ... --record game-1/      # then: diskref referee --session game-1/ --out again.json\n"
      "  diskref referee --camera 0 --table table.json --disks disks.json --calib camera.json --game game.json \\\n"
      "    --out log.json --record game-2/        # live: type the inputs, one JSON line each; Ctrl-C ends\n"
      "  diskref report game-1/ --out report.html");
  return [o] { return run_referee(*o); };
}

}  // namespace diskref::cli
