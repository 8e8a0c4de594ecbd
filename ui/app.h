#pragma once
// The companion screen's program: opens the source, starts the worker, runs the window until it
// is closed (or, for screenshots and measurements, until a number of frames has been shown).

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "net/live_feed.h"
#include "ui/screen.h"
#include "ui/session_setup.h"
#include "vision/frame_source.h"

namespace diskref::ui {

// `--game`: the referee runs live over the source (ui/live_game.h).
struct GameOptions {
  std::filesystem::path game_file;                  // the setup of a play script (spec §9)
  std::optional<std::filesystem::path> inputs;      // timed inputs given as the video reaches them
  std::optional<std::filesystem::path> inputs_out;  // every input given, spec §9 lines, flushed each
  std::optional<std::filesystem::path> log_out;     // the game's log (LOG.json) at the end
  // Tests and demos: {"t", ...input} lines given as if at the screen when the shown video reaches t.
  std::optional<std::filesystem::path> screen_inputs;
  // --serve, --tuio, --mqtt: the game on the network as it is refereed (net/live_feed.h).
  std::optional<net::LiveFeedOptions> feed;
};

struct AppOptions {
  SourceChoice source;
  vision::CameraOptions camera;                     // for SourceChoice::Kind::camera: the device and its settings
  std::optional<std::filesystem::path> record_dir;  // record the session here
  recording::SessionProvenance provenance;          // what the recording says made it
  // The game data (data/rules: the open parameters, among them the range template).
  std::filesystem::path rules_data;
  // Write a screenshot of the whole window once frame `frames - 1` is on the screen, then stop.
  std::optional<std::filesystem::path> screenshot;
  // With the screenshot: where each view and panel is on it (JSON), so tools and tests can find
  // a table point or an image pixel in the picture.
  std::optional<std::filesystem::path> views_json;
  long long frames = -1;      // stop after this many video frames (-1: run until closed / the end)
  long long start_frame = 0;  // a video: start at this frame (the setup screen hands the table over where it stopped)
  int width = 1280;
  int height = 800;
  DisputeChoice initial;  // preselected disks, template, ship and speed
  bool start_paused = false;
  bool exit_at_end = false;      // close when the video ends (measurements, the demo)
  double run_seconds = 0;        // close after this long on the screen (0: no limit)
  bool zoom_to_dispute = false;  // the table view starts zoomed to the dispute
  std::optional<GameOptions> game;
  // Open this photo at the start, in the dispute-from-a-photo panel over the views (--photo); a run
  // for a screenshot waits for its answer.
  std::optional<std::filesystem::path> photo;
};

struct RunSummary {
  long long ui_frames = 0;  // frames the screen rendered
  double seconds = 0;       // from the first video frame shown to the end
  double display_fps = 0;   // ui_frames / seconds (paced to at most 60)
  // Time the screen's thread spends on one frame (events, refresh, panels, OpenGL, swap): what
  // it could sustain without the pacing sleep is about 1000 / this.
  double mean_frame_work_ms = 0;
  double p95_frame_work_ms = 0;
  // CPU time the whole program used (every thread: screen, OpenGL's software rasterizer, worker
  // decoding and tracking) per second of wall time: 2.0 would be both cores of a 2-core machine.
  double cpu_cores_used = 0;
  long long video_frames_shown = 0;  // distinct video frames that reached the screen
  double video_fps_shown = 0;
  double source_fps = 0;       // the video's nominal rate
  double mean_process_ms = 0;  // the worker's per-frame tracking time
  long long last_frame_index = -1;
  std::optional<std::filesystem::path> recording;
  // Set when a write to the recording failed (a full disk): what was kept and what was lost.
  std::optional<std::string> recording_failure;
  std::vector<std::string> notes;  // what the screen said in its event log's warnings, etc.
};

// Throws InputError for bad input files, std::runtime_error when the window cannot be opened
// (e.g. no display).
RunSummary run_app(const AppOptions& options);

}  // namespace diskref::ui
