// The companion screen in three acts, in the manner of Dear ImGui's example_glfw_opengl3: set up
// (files, source, worker, window), loop (take the newest snapshot, draw the panels), shut down in
// reverse.

#include "ui/app.h"

#include <cstdio>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ctime>
#include <deque>
#include <fstream>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <thread>

#include <sys/resource.h>

#include <GLFW/glfw3.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>
#include <imgui.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_model.h"
#include "engine/io/atomic_write.h"
#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/rules/data_loading.h"
#include "pipeline/game_replay.h"
#include "pipeline/pipeline.h"
#include "recording/file_checksum.h"
#include "recording/game_recording.h"
#include "recording/recorded_video.h"
#include "recording/refereed_session_recorder.h"
#include "ui/dropped_files.h"
#include "ui/gl_texture.h"
#include "ui/layout.h"
#include "ui/panels.h"
#include "ui/photo_app.h"
#include "ui/photo_panel.h"
#include "ui/recorded_tracks.h"
#include "ui/vision_adapters.h"
#include "ui/window.h"
#include "vision/live_camera.h"

namespace diskref::ui {
namespace fs = std::filesystem;
namespace {

using Clock = std::chrono::steady_clock;

// Xvfb (and a driver without vertical sync) does not pace the loop: the screen paces itself, which
// leaves the CPU to the decoder and the tracker. Measured on 2 cores under Xvfb (software GL,
// ~20 ms a frame): at 60 the screen drew 47 frames/s but the video fell to 17 frames/s; at 40 it
// draws 38 and the 30 fps video plays at 28.
constexpr double kMaxDisplayFps = 40.0;
// A run for a screenshot draws the frames on its way to the one it names at this rate: nobody
// watches them, and the CPU goes to the tracking (the skirmish sample's 930 frames under Xvfb on
// 2 cores: 25 s drawn at 40 frames/s, 20 s at 10).
constexpr double kScreenshotRunDisplayFps = 10.0;
// --game: the books are read from a metre away. The font follows the window's height: 18 px at
// 800, 24 px at 1080.
float game_font_px(int window_height) {
  return std::max(16.0f, std::round(static_cast<float>(window_height) / 45.0f));
}

void check_choice_names(const model::DiskRegistry& registry, const DisputeChoice& c) {
  for (const auto* name : {&c.a, &c.b, &c.mover}) {
    if (*name && !registry.find(**name))
      throw io::InputError("", "", "no disk named \"" + **name + "\" in the disk registry");
  }
  if (c.mover && registry.find(*c.mover)->kind != model::DiskKind::ship) {
    throw io::InputError("", "", "\"" + *c.mover + "\" is not a ship (only ships flip)");
  }
}

// The photo's first question: the disks preselected for the dispute tool (--select, --flip).
PhotoQuestion photo_question_from(const DisputeChoice& c) {
  PhotoQuestion q;
  if (c.a || c.b) {
    q.a = c.a;
    q.b = c.b;
  } else if (c.mover) {
    q.kind = PhotoQuestion::Kind::move;
    q.a = c.mover;
    q.flips = c.flips;
  }
  return q;
}

// A live camera's events (lost, back, a rate too low, the picture locked), said on the worker's
// thread that reads the camera, for the event log.
struct CameraEventInbox {
  std::mutex mutex;
  std::vector<Event> events;
};

// What the worker reads and who tracks it.
struct Sources {
  std::unique_ptr<vision::FrameSource> frames;
  std::unique_ptr<TrackProducer> producer;
  recording::SessionInfo info;
  std::shared_ptr<CameraEventInbox> camera_events;
  // A live camera (owned by `frames`): its picture is locked once the table is found.
  vision::LiveCameraSource* live_camera = nullptr;
};

// `replay`: the recording read for --replay (its warnings already noted); its frames are taken.
Sources open_sources(const AppOptions& o, const ResolvedSession& rs, const Screen& screen, RunSummary& summary,
                     recording::GameRecording* replay) {
  Sources s;
  s.info.started_utc = recording::utc_now();
  std::vector<model::TrackFrame> tracks;
  bool has_video = false;

  if (replay != nullptr) {
    recording::Recording& rec = replay->session;
    tracks = std::move(rec.frames);
    const fs::path copied = o.source.replay_dir / "video";
    bool video_ok = rec.info.video && fs::is_regular_file(*rec.info.video);
    if (video_ok && rec.provenance.video_checksum) {
      // A referenced video must be the file recorded: another one would show other pictures.
      const recording::FileChecksum now = recording::checksum_file(*rec.info.video);
      video_ok = now == *rec.provenance.video_checksum;
      if (!video_ok)
        summary.notes.push_back(*rec.info.video +
                                " changed since it was recorded (its checksum differs): table view only");
    }
    if (rec.provenance.frames_copied && replay->has_video) {
      s.frames = recording::open_recorded_video(copied);
      has_video = true;
    } else if (video_ok) {
      s.frames = vision::open_video_file(*rec.info.video);
      has_video = true;
      s.info.video = fs::absolute(*rec.info.video).string();
    } else {
      summary.notes.push_back("replay without its video: table view only");
      s.frames = make_timeline_source(tracks, 30.0);
    }
    s.info.source = rec.info.source;
    s.info.camera_index = rec.info.camera_index;
  } else if (o.source.kind == SourceChoice::Kind::camera) {
    vision::CameraOptions camera = o.camera;
    s.camera_events = std::make_shared<CameraEventInbox>();
    camera.on_event = [inbox = s.camera_events, also = o.camera.on_event](const vision::CameraEvent& e) {
      if (also) also(e);
      const bool info = e.kind == vision::CameraEvent::Kind::note || e.kind == vision::CameraEvent::Kind::back;
      std::lock_guard lock(inbox->mutex);
      inbox->events.push_back({e.t, -1, info ? Severity::info : Severity::warning, e.source + ": " + e.message});
    };
    camera.lock_after_s.reset();  // locked once the table is found (the main loop)
    std::unique_ptr<vision::LiveCameraSource> live = vision::open_live_camera(camera);
    s.live_camera = live.get();
    s.frames = std::move(live);
    has_video = true;
    s.info.source = "camera";
    s.info.camera_index = o.source.camera_index;
  } else {
    s.frames = vision::open_video_file(*rs.video);
    has_video = true;
    s.info.source = "video";
    s.info.video = fs::absolute(*rs.video).string();
  }

  if (rs.tracks) {
    if (o.source.kind != SourceChoice::Kind::replay) tracks = model::load_track_jsonl(*rs.tracks);
    std::unique_ptr<vision::MarkerWatch> pose;
    if (has_video) pose = std::make_unique<vision::MarkerWatch>(screen.table, screen.lens);
    s.producer = std::make_unique<RecordedTracks>(std::move(tracks), rs.tracks_label, std::move(pose));
    s.info.tracks_from = o.source.kind == SourceChoice::Kind::replay ? "replay" : "file";
  } else {
    s.producer = make_tracker_producer(screen.table, screen.registry, screen.lens);
    s.info.tracks_from = "tracker";
  }
  return s;
}

double process_cpu_seconds() {
  rusage u{};
  getrusage(RUSAGE_SELF, &u);
  auto sec = [](const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) * 1e-6; };
  return sec(u.ru_utime) + sec(u.ru_stime);
}

nlohmann::json rect_json(const ScreenRect& r) {
  return {r.x, r.y, r.w, r.h};
}

// What the game panels showed (the same values they drew), for tests.
nlohmann::json game_json(const GameView& v) {
  nlohmann::json g;
  for (const ShipShown& ship : v.ships) g["ships"].push_back(to_json(ship));
  g["turn"] = to_json(v.turn);
  g["log"] = nlohmann::json::array();
  for (const GameLogLine& l : v.log) g["log"].push_back({{"number", l.number}, {"t", l.t}, {"text", l.text}});
  g["alerts"] = nlohmann::json::array();
  for (const GameLogLine& l : v.alerts) g["alerts"].push_back(l.text);
  if (v.refusal) g["refusal"] = v.refusal->text;
  g["choices"] = nlohmann::json::array();
  for (const InputChoice& c : v.choices) g["choices"].push_back(c.label);
  g["inputs_given"] = v.inputs_given;
  // The counters of a drop as the views drew them (ui/game_counters.cpp).
  if (v.counters) {
    const referee::CounterReading& r = v.expecting.counters ? *v.expecting.counters : v.counters->reading;
    nlohmann::json counters = nlohmann::json::array();
    for (const referee::CounterSeen& c : r.counters)
      if (c.pose)
        counters.push_back({{"name", c.name},
                            {"x", c.pose->position.x},
                            {"y", c.pose->position.y},
                            {"readable", c.readable},
                            {"why_outline_points", c.why_outline_mm.size()}});
    g["counters"] = {
        {"tally", r.tally()}, {"questions", r.questions()}, {"counters", counters}, {"asked", v.counters->asked}};
  }
  return g;
}

void write_views_json(const fs::path& file, const Screen& s, const nlohmann::json& panels, int width, int height) {
  nlohmann::json j;
  j["window"] = {width, height};
  j["frame"] = s.snap ? s.snap->source.index : -1;
  j["panels"] = panels;
  if (s.game_view) j["game"] = game_json(*s.game_view);
  if (!s.ruling_marks.empty()) {
    nlohmann::json marks = nlohmann::json::array();
    for (const Screen::RulingMark& m : s.ruling_marks)
      marks.push_back({{"entry", m.entry}, {"frame", m.frame}, {"t", m.t}});
    j["replay"] = {{"ruling_marks", marks}};
  }
  if (s.camera_view_drawn) {
    j["camera_view"] = {{"image_rect", rect_json(s.camera_view_drawn->image_rect())},
                        {"image_size", {s.camera_view_drawn->image_size.x, s.camera_view_drawn->image_size.y}},
                        {"scale", s.camera_view_drawn->scale},
                        {"warnings", s.camera_warnings_drawn}};
  }
  if (s.game && s.game->feed_access()) {
    j["feed_access"] = {{"url", s.game->feed_access()->url}, {"modules", s.game->feed_access()->qr.width}};
    if (s.feed_qr_drawn) j["feed_access"]["qr_rect"] = rect_json(*s.feed_qr_drawn);
  }
  if (s.photo != nullptr && s.show_photo) j["photo"] = photo_tab_json(*s.photo);
  if (s.table_view_drawn) {
    j["table_view"] = {{"px_per_mm", s.table_view_drawn->px_per_mm},
                       {"origin", {s.table_view_drawn->screen_origin.x, s.table_view_drawn->screen_origin.y}}};
  }
  // Where each view put the disks' names, the move's text, a drop's labels and its tally's box.
  auto named = [](const std::vector<NamedRect>& labels) {
    nlohmann::json out = nlohmann::json::array();
    for (const NamedRect& l : labels) out.push_back({{"name", l.name}, {"rect", rect_json(l.rect)}});
    return out;
  };
  auto counters_drawn = [&](const Screen::CountersDrawn& d) {
    nlohmann::json out = {{"labels", named(d.labels)}};
    if (d.box) out["box"] = rect_json(*d.box);
    return out;
  };
  auto text_drawn = [&](const Screen::TextDrawn& d) {
    nlohmann::json out = {{"names", named(d.names)}};
    if (d.move_text) out["move_text"] = rect_json(*d.move_text);
    return out;
  };
  if (s.camera_view_drawn) j["camera_view"]["text_drawn"] = text_drawn(s.camera_text_drawn);
  if (s.table_view_drawn) j["table_view"]["text_drawn"] = text_drawn(s.table_text_drawn);
  if (s.camera_counters_drawn) j["camera_view"]["counters_drawn"] = counters_drawn(*s.camera_counters_drawn);
  if (s.table_counters_drawn) j["table_view"]["counters_drawn"] = counters_drawn(*s.table_counters_drawn);
  io::write_file_atomically(file, j.dump(2) + "\n");  // every write checked
}

// The dispute from a photo, while shown: over both views (the picture wants the room), last so that
// it is in front.
void draw_photo_over_views(Screen& screen, const ScreenRect& camera, const ScreenRect& table, nlohmann::json& where) {
  if (screen.photo == nullptr || !screen.show_photo) return;
  const ScreenRect over{camera.x, camera.y, table.x + table.w - camera.x, std::max(camera.h, table.h)};
  draw_photo_panel(*screen.photo, over, &screen.show_photo);
  where["photo"] = rect_json(over);
}

// Draws every panel for the window's size; returns where each went (for --views-json) and the
// camera view's rectangle (the worker shrinks frames to it).
ScreenRect draw_panels(Screen& screen, Vec2 window, nlohmann::json& where) {
  if (screen.game) {
    GameLayout l = compute_game_layout(window);
    draw_camera_view(screen, l.camera);
    draw_table_view(screen, l.table);
    draw_ships_panel(screen, l.ships);
    draw_turn_panel(screen, l.turn);
    draw_side_panel(screen, l.side);
    draw_feed_access(screen, l.table);  // over the views
    draw_photo_over_views(screen, l.camera, l.table, where);
    for (GamePanel p : kAllGamePanels) where[panel_name(p)] = rect_json(l.rect(p));
    return l.camera;
  }
  Layout l = compute_layout(window);
  draw_camera_view(screen, l.camera);
  draw_table_view(screen, l.table);
  draw_dispute_panel(screen, l.dispute);
  draw_disks_panel(screen, l.disks);
  draw_side_panel(screen, l.side);
  draw_photo_over_views(screen, l.camera, l.table, where);
  for (Panel p : kAllPanels) {
    static const char* const kNames[] = {"camera", "table", "dispute", "disks", "side"};
    where[kNames[static_cast<int>(p)]] = rect_json(l.rect(p));
  }
  return l.camera;
}

// --game: the referee over the session's table and registry, with its inputs.
// `diskref ui --replay DIR` of a refereed session: the game as it was at every moment of the
// recording, its rulings marked on the timeline.
std::unique_ptr<LiveGame> open_replayed_game(const recording::GameRecording& rec, Screen& screen, RunSummary& summary) {
  if (!rec.game_file) return nullptr;
  const pipeline::ReplayedGame replayed = pipeline::replay_game(rec);
  if (replayed.matches_recorded_log && !*replayed.matches_recorded_log)
    summary.notes.push_back((rec.session.dir / "log.json").string() +
                            ": differs from the game refereed again from the recording: shown as refereed again");
  for (std::size_t i = 0; i < replayed.log.size(); ++i) {
    const referee::Entry& e = replayed.log[i];
    const std::string text = referee::entry_text(e);
    if (text.empty() || e.kind == referee::Entry::Kind::setup) continue;
    // The frame the ruling was taken at: the first at or after its time.
    long long frame = rec.session.frames.empty() ? 0 : rec.session.frames.back().frame;
    for (const model::TrackFrame& f : rec.session.frames)
      if (f.t >= e.t - 1e-6) {
        frame = f.frame;
        break;
      }
    screen.ruling_marks.push_back(
        {e.t, frame, i, text, e.kind == referee::Entry::Kind::warning || e.play.refusal.has_value()});
  }
  const fs::path game_file = *rec.game_file;
  const model::TableSpec table = screen.table;
  const model::DiskRegistry registry = screen.registry;
  const referee::RefereeOptions options = pipeline::recorded_referee_options(rec);
  auto fresh = [game_file, table, registry, options] {
    return referee::Referee(referee::load_game_file(game_file, table, registry), table, registry, options);
  };
  auto game = std::make_unique<LiveGame>(fresh(), rec.inputs, std::nullopt);
  game->enable_rewind(fresh, rec.session.frames);
  return game;
}

std::unique_ptr<LiveGame> open_game(const GameOptions& g, const Screen& screen, bool live_source) {
  referee::GameFile game = referee::load_game_file(g.game_file, screen.table, screen.registry);
  std::vector<referee::Input> inputs;
  if (g.inputs) inputs = referee::load_inputs(*g.inputs);
  std::unique_ptr<net::LiveFeed> feed;
  std::shared_ptr<NetworkNotes> notes;
  if (g.feed) {
    notes = std::make_shared<NetworkNotes>();
    feed = std::make_unique<net::LiveFeed>(*g.feed, screen.table, screen.registry, [notes](const std::string& line) {
      std::fprintf(stderr, "diskref ui: %s\n", line.c_str());
      notes->say(line);
    });
  }
  return std::make_unique<LiveGame>(referee::Referee(std::move(game), screen.table, screen.registry), std::move(inputs),
                                    g.inputs_out, std::move(feed), std::move(notes), live_source);
}

struct TimedLine {
  double t = 0;
  nlohmann::json line;
};

std::deque<TimedLine> load_screen_inputs(const fs::path& file) {
  std::deque<TimedLine> out;
  io::read_jsonl(file, [&](const io::JsonCursor& c) {
    nlohmann::json line = c.json();
    double t = c.at("t").number();
    line.erase("t");
    out.push_back({t, std::move(line)});
  });
  return out;
}

}  // namespace

RunSummary run_app(const AppOptions& o) {
  RunSummary summary;
  // --- Act 1: set up. Files first (bad input fails before any window opens).
  ResolvedSession rs = resolve_session(o.source);
  for (const std::string& n : rs.notes) summary.notes.push_back(n);
  Screen screen;
  screen.table = model::load_table(rs.files.table);
  screen.registry = model::load_disk_registry(rs.files.disks);
  if (rs.files.camera) screen.lens = calib::load_camera_model(*rs.files.camera);
  screen.templates =
      range_template_choices(screen.registry, rules::load_game_data({o.rules_data}).parameters.range_template);
  check_choice_names(screen.registry, o.initial);
  screen.choice = o.initial;
  screen.zoom_to_dispute = o.zoom_to_dispute;
  screen.choice.template_index =
      std::clamp(screen.choice.template_index, 0, static_cast<int>(screen.templates.size()) - 1);

  std::unique_ptr<LiveGame> game;
  std::deque<TimedLine> screen_inputs;
  if (o.game) {
    game = open_game(*o.game, screen, o.source.kind == SourceChoice::Kind::camera);
    if (o.game->screen_inputs) screen_inputs = load_screen_inputs(*o.game->screen_inputs);
  }
  // --replay: the recording read once, for the source and (a refereed session) the game.
  std::optional<recording::GameRecording> replay;
  if (o.source.kind == SourceChoice::Kind::replay) {
    replay = recording::load_game_recording(o.source.replay_dir);
    for (const std::string& w : replay->warnings) summary.notes.push_back(w);
    game = open_replayed_game(*replay, screen, summary);
  }
  screen.game = game.get();
  // A game's table view follows the move: what the referee looks at after each ruling.
  if (screen.game != nullptr) screen.zoom_to_dispute = true;

  Sources sources = open_sources(o, rs, screen, summary, replay ? &*replay : nullptr);
  // A camera file for another camera mode is named, not blamed on the table later.
  if (screen.lens && rs.files.camera)
    calib::check_camera_fits_image(
        *screen.lens, sources.frames->frame_size(), rs.files.camera->string(),
        o.source.kind == SourceChoice::Kind::camera ? "the frames of " + sources.frames->description() : "the video");
  // The tracking yields to the screen, except in a run for a screenshot (see WorkerOptions::nice).
  const int tracking_nice = o.screenshot ? 0 : kTrackingWorkerNice;
  std::unique_ptr<recording::RefereedSessionRecorder> recorder;
  if (o.record_dir) {
    recording::SessionProvenance provenance = o.provenance;
    // A camera's pictures exist nowhere else: they are copied. A video file is referenced, with its
    // checksum so that a moved or changed file is noticed; the stills are kept either way.
    provenance.frames_copied = o.source.kind == SourceChoice::Kind::camera;
    if (o.source.kind == SourceChoice::Kind::video && sources.info.video)
      provenance.video_checksum = recording::checksum_file(*sources.info.video);
    recording::VideoRecorderOptions video;
    video.nice = tracking_nice;  // the encoder shares the CPU with the tracking as an equal
    recorder = std::make_unique<recording::RefereedSessionRecorder>(
        *o.record_dir, sources.info, rs.files, provenance,
        o.game ? std::optional<fs::path>(o.game->game_file) : std::nullopt, video);
    summary.recording = recorder->dir();
  }
  screen.recorder = recorder ? &recorder->session() : nullptr;
  summary.source_fps = sources.frames->frames_per_second() > 0 ? sources.frames->frames_per_second() : 30.0;

  Window window(o.width, o.height);
  ImGuiSession imgui(window.handle, o.screenshot.has_value(), game ? game_font_px(o.height) : kFontPx);
  // A dispute from a photo, beside the live table: the same registry and templates, its own worker.
  // Not the table camera's lens: the photo is a phone's, fitted from its tags and its EXIF.
  DroppedFiles dropped(window.handle);
  std::unique_ptr<PhotoWorker> photo_worker = make_photo_worker(screen.registry, std::nullopt);
  PhotoDispute photo_dispute(screen.registry, screen.templates, *photo_worker);
  photo_dispute.question() = photo_question_from(o.initial);
  photo_dispute.template_index() = o.initial.template_index;
  PhotoTab photo_tab(photo_dispute);
  screen.photo = &photo_tab;
  if (o.photo) {
    photo_dispute.open(*o.photo);
    screen.show_photo = true;
  }

  WorkerOptions wo;
  wo.realtime = !o.screenshot;  // a screenshot wants frame N, not a race with the clock
  wo.stop_after = o.frames > 0 ? o.frames - 1 : -1;
  wo.start_paused = o.start_paused;
  wo.nice = tracking_nice;
  // Every tracked frame goes through the one pipeline (pipeline/pipeline.h) to the referee and the
  // recording, on the worker thread; the worker tracks (and paces) the frames itself.
  pipeline::Pipeline pipe(nullptr, game ? game->game() : nullptr, std::move(recorder));
  recording::RefereedSessionRecorder* const recording = pipe.recorder();
  const std::shared_ptr<CameraEventInbox> camera_events = sources.camera_events;
  vision::LiveCameraSource* const live_camera = o.camera.picture_free ? nullptr : sources.live_camera;
  SourceWorker::FrameHook hook;
  if (recording || game || live_camera) {
    hook = [&pipe, refereed = recording != nullptr || game != nullptr, live_camera, lock_asked = false](
               const TrackResult& result, const SourceFrame& source) mutable {
      // Focus, exposure and white balance are locked once the table is found: they have settled
      // on it. Asked here, on the worker's thread, so the camera does it at its very next frame
      // however late the screen is to show this one.
      if (live_camera && !lock_asked && result.table_pose) {
        live_camera->request_picture_lock();
        lock_asked = true;
      }
      if (result.frame && refereed)
        pipe.frame(*result.frame, source.image.empty() ? nullptr : &source.image, source.jpeg);
    };
  }
  SourceWorker worker(std::move(sources.frames), std::move(sources.producer), wo, hook);
  if (o.start_frame > 0) worker.seek(o.start_frame);
  screen.worker = &worker;
  screen.note(Severity::info, "opened " + worker.source_description() + "; tracks: " + worker.producer_description());
  for (const std::string& n : summary.notes) screen.note(Severity::warning, n);
  // A replay keeps saying what the recording lost, where people look.
  if (replay) screen.standing_warnings = summary.notes;
  if (recording) screen.note(Severity::info, "recording to " + recording->dir().string());

  // --- Act 2: the loop.
  std::optional<Clock::time_point> first_shown;
  double cpu_at_first_shown = 0;
  int settle_frames = 0;
  std::vector<double> work_ms;  // per displayed frame: everything but the pacing sleep  // frames drawn after the
                                // target frame arrived (ImGui tables settle in 1-2)
  const auto frame_budget =
      std::chrono::duration<double>(1.0 / (o.screenshot ? kScreenshotRunDisplayFps : kMaxDisplayFps));
  while (!glfwWindowShouldClose(window.handle)) {
    auto frame_start = Clock::now();
    glfwPollEvents();
    for (const fs::path& f : dropped.take()) {
      photo_dispute.open(f);  // the last one dropped is the one shown
      screen.show_photo = true;
    }
    refresh_photo_tab(photo_tab);

    std::shared_ptr<const Snapshot> snap = worker.latest();
    if (snap && (!screen.snap || snap->sequence != screen.snap->sequence)) {
      if (!snap->display_image.empty()) {
        screen.texture = upload_bgr_texture(screen.texture, snap->display_image);
        // Overlays work in the source image's pixels; the texture is drawn over the same rectangle.
        screen.texture_size = {static_cast<double>(snap->source.image.cols),
                               static_cast<double>(snap->source.image.rows)};
      }
      screen.snap = snap;
      ++summary.video_frames_shown;
      if (!first_shown) {
        first_shown = Clock::now();
        cpu_at_first_shown = process_cpu_seconds();
      }
    }
    std::vector<Event> events = worker.take_events();
    if (camera_events) {
      std::lock_guard lock(camera_events->mutex);
      events.insert(events.end(), camera_events->events.begin(), camera_events->events.end());
      camera_events->events.clear();
    }
    for (Event& e : events) {
      if (recording) recording->session().write_event(e);
      screen.log.add(std::move(e));
    }
    if (recording && recording->failed() && !summary.recording_failure) {
      summary.recording_failure = recording->failure();
      screen.note(Severity::warning, "RECORDING STOPPED: " + *summary.recording_failure);
    }
    while (game && screen.snap && !screen_inputs.empty() && screen_inputs.front().t <= screen.snap->source.t) {
      game->submit(std::move(screen_inputs.front().line));
      screen_inputs.pop_front();
    }
    // The source ended: the referee gives the inputs still due and notes what it waits for.
    if (game && worker.stats().at_end) game->finish();
    screen.refresh();
    screen.display_fps = ImGui::GetIO().Framerate;

    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    int fb_w = 0;
    int fb_h = 0;
    glfwGetFramebufferSize(window.handle, &fb_w, &fb_h);
    nlohmann::json where;
    ScreenRect camera = draw_panels(screen, {static_cast<double>(fb_w), static_cast<double>(fb_h)}, where);
    worker.set_display_size(static_cast<int>(camera.w), static_cast<int>(camera.h));
    ImGui::Render();
    glViewport(0, 0, fb_w, fb_h);
    glClearColor(0.08f, 0.09f, 0.10f, 1.0f);
    glClear(GL_COLOR_BUFFER_BIT);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    if (first_shown) ++summary.ui_frames;

    if (o.run_seconds > 0 && first_shown &&
        std::chrono::duration<double>(Clock::now() - *first_shown).count() >= o.run_seconds) {
      break;
    }
    bool reached = o.frames > 0 && screen.snap && screen.snap->source.index >= o.frames - 1;
    bool ended = worker.stats().at_end && worker.latest() == screen.snap;
    // A photo opened at the start is waited for as the frame is.
    const bool photo_answered = !photo_dispute.busy();
    if ((o.frames > 0 || o.screenshot || o.exit_at_end) && (reached || ended) && photo_answered &&
        ++settle_frames >= 3) {
      if (o.screenshot) {
        cv::Mat shot = read_framebuffer_bgr(fb_w, fb_h);
        if (!cv::imwrite(o.screenshot->string(), shot)) {
          throw std::runtime_error(o.screenshot->string() + ": cannot write the screenshot");
        }
        if (o.views_json) write_views_json(*o.views_json, screen, where, fb_w, fb_h);
      }
      break;
    }
    glfwSwapBuffers(window.handle);
    if (first_shown) work_ms.push_back(std::chrono::duration<double, std::milli>(Clock::now() - frame_start).count());
    std::this_thread::sleep_until(frame_start + std::chrono::duration_cast<Clock::duration>(frame_budget));
  }

  // --- Act 3: shut down in reverse (the worker stops first, then GL objects, then the window).
  WorkerStats ws = worker.stats();
  summary.mean_process_ms = ws.mean_process_ms;
  summary.last_frame_index = screen.snap ? screen.snap->source.index : -1;
  if (first_shown) {
    summary.seconds = std::chrono::duration<double>(Clock::now() - *first_shown).count();
    if (summary.seconds > 0) {
      summary.cpu_cores_used = (process_cpu_seconds() - cpu_at_first_shown) / summary.seconds;
      summary.display_fps = static_cast<double>(summary.ui_frames) / summary.seconds;
      summary.video_fps_shown = static_cast<double>(summary.video_frames_shown) / summary.seconds;
    }
  }
  if (!work_ms.empty()) {
    double total = 0;
    for (double ms : work_ms) total += ms;
    summary.mean_frame_work_ms = total / static_cast<double>(work_ms.size());
    std::sort(work_ms.begin(), work_ms.end());
    summary.p95_frame_work_ms = work_ms[std::min(work_ms.size() - 1, work_ms.size() * 95 / 100)];
  }
  delete_texture(screen.texture);
  // The worker has stopped: the game's end, the recording closed with the game's last log.
  worker.stop();
  pipe.finish();
  if (recording && recording->failed()) summary.recording_failure = recording->failure();
  if (game && o.game && o.game->log_out) io::write_file_atomically(*o.game->log_out, game->log_json().dump(1) + "\n");
  return summary;
}

}  // namespace diskref::ui
