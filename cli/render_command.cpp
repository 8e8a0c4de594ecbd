// `diskref render SCENARIO.json --out DIR`: a synthetic table session with its exact ground truth
// (video.mp4, table.json, disks.json, camera.json, truth.jsonl). Scenario format:
// docs/reference/commands/render.md; what the webcam does on its own: docs/spec.md section 13.

#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "cli/commands.h"
#include "simulator/scenario.h"
#include "simulator/session.h"

namespace diskref::cli {
namespace {

struct RenderOptions {
  std::string scenario;
  std::string out;
  int max_frames = 0;
  std::vector<int> snapshots;
  bool quiet = false;
};

int run_render(const RenderOptions& options) {
  simulator::Scenario scenario = simulator::load_scenario(options.scenario);
  int total = options.max_frames > 0 ? std::min(options.max_frames, scenario.frame_count()) : scenario.frame_count();
  std::fprintf(stderr, "diskref render: %s: %d frames, %dx%d at %g fps\n", options.scenario.c_str(), total,
               scenario.rig.camera.image_size.width, scenario.rig.camera.image_size.height, scenario.fps);
  auto progress = [&](int done, int frames) {
    if (options.quiet) return;
    if (done % 10 == 0 || done == frames) std::fprintf(stderr, "\rdiskref render: frame %d/%d", done, frames);
    if (done == frames) std::fprintf(stderr, "\n");
  };
  simulator::SessionOptions session_options;
  session_options.max_frames = options.max_frames;
  session_options.snapshot_frames = options.snapshots;
  simulator::SessionSummary s = simulator::render_session(scenario, options.out, progress, session_options);
  std::printf(
      "rendered %d frames (%dx%d) in %.1f s: %.1f frames/s (tracing %.1f s, camera effects %.1f s, "
      "H.264 encoding %.1f s); %s/video.mp4 %.2f MB; truth: %d visible disk-frames\n",
      s.frames, s.size.width, s.size.height, s.seconds, s.frames_per_second(), s.trace_seconds, s.effects_seconds,
      s.encode_seconds, options.out.c_str(), static_cast<double>(s.video_bytes) / 1e6, s.visible_disk_frames);
  return kExitOk;
}

}  // namespace

RunFunction add_render_command(CLI::App& app) {
  auto options = std::make_shared<RenderOptions>();
  CLI::App* sub = app.add_subcommand(
      "render",
      "Render a synthetic table session with exact ground truth (video.mp4, truth.jsonl, table/disks/camera files)");
  sub->footer(
      "What the webcam does on its own (docs/spec.md section 13), in the scenario's \"webcam\" member:\n"
      "  flicker          mains light through a rolling shutter: {\"mains_hz\": 50|60, \"depth\", \"readout\", "
      "\"phase_deg\"}\n"
      "  auto_exposure    the gain steps while a hand is in view: {\"step\", \"delay_s\", \"steps\", "
      "\"step_interval_s\"}\n"
      "  knock            the boom knocked: {\"t\", \"swing_deg\", \"frequency_hz\", \"decay_s\", \"offset_deg\", "
      "\"axis_deg\"}\n"
      "  repeated_frames  share of frames delivered twice; lost_frames: share of moments lost\n"
      "and in \"effects\": jpeg_quality (MJPEG), exposure and noise_sigma (dim light).\n"
      "Example:\n  diskref render sample_videos/scenarios/duel.json --out /tmp/duel --frames 90 --snapshot 0,60");
  sub->add_option("scenario", options->scenario,
                  "Scenario file (JSON; format in docs/reference/commands/render.md; webcam behaviours in docs/spec.md "
                  "section 13)")
      ->required();
  sub->add_option("--out", options->out, "Output directory (created if needed)")->required();
  sub->add_option("--frames", options->max_frames, "Render only the first N frames")->check(CLI::PositiveNumber);
  sub->add_option("--snapshot", options->snapshots, "Also write these frames as DIR/frame_NNNNNN.png")
      ->delimiter(',')
      ->check(CLI::NonNegativeNumber);
  sub->add_flag("--quiet", options->quiet, "No progress on stderr");
  return [options] { return run_render(*options); };
}

}  // namespace diskref::cli
