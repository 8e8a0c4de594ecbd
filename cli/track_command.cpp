// `diskref track VIDEO --table TABLE.json --disks DISKS.json [--calib CAMERA.json] --out OUT.jsonl`
// (spec §5): one JSON line per video frame, written and flushed as it goes, so that a crash loses
// nothing already recorded. Progress on stderr, a closing summary, bad input -> status 2.
//
// Extensions (docs/reference/commands/track.md): --camera DEVICE for a live camera (with
// --camera-size, --camera-fps, --exposure, --frames), --table-pose FILE for a fixed table pose,
// --lost-after S, --truth FILE to compare the output with ground truth, --tag-family, --threads.

#include <atomic>
#include <chrono>
#include <csignal>
#include <cstdio>
#include <fstream>
#include <memory>
#include <set>
#include <string>

#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "cli/camera_settings.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "cli/progress.h"
#include "engine/io/input_error.h"
#include "engine/io/line_file.h"
#include "engine/io/write_error.h"
#include "engine/model/bounds.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "simulator/track_evaluation.h"
#include "vision/apriltag_detector.h"
#include "vision/frame_source.h"
#include "vision/live_camera.h"
#include "vision/prefetching_source.h"
#include "vision/tracker.h"

namespace diskref::cli {
namespace {

struct TrackOptions {
  std::string video;
  std::string table;
  std::string disks;
  std::string calib;
  std::string out;
  std::string camera;
  CameraSettingsText camera_settings;
  long long max_frames = -1;
  std::string table_pose;
  double lost_after_s = model::kDefaultLostAfterSeconds;
  std::string truth;
  std::string family = "tagStandard41h12";
  int threads = 2;
  bool quiet = false;
};

std::atomic<bool> g_stop{false};
// The live camera, told to stop waiting when Ctrl-C comes while it is away (an atomic store:
// safe in a signal handler).
std::atomic<vision::FrameSource*> g_live_source{nullptr};
extern "C" void on_interrupt(int) {
  g_stop = true;
  if (vision::FrameSource* s = g_live_source.load()) s->interrupt();
}

std::unique_ptr<vision::FrameSource> open_source(const TrackOptions& o, vision::LiveCameraSource** live) {
  // A file is decoded ahead on a thread of its own while the tracker works.
  if (o.camera.empty()) return vision::prefetching(vision::open_video_file(o.video));
  vision::CameraOptions camera = camera_options(o.camera, o.camera_settings, "track");
  camera.lock_after_s.reset();  // locked once the table is found (below)
  std::unique_ptr<vision::LiveCameraSource> source = vision::open_live_camera(camera);
  *live = source.get();
  return source;
}

void print_summary(const vision::Tracker& tracker, const vision::FrameSource& source, long long frames, double seconds,
                   const std::set<std::string>& seen) {
  const auto& s = tracker.stats();
  std::fprintf(stderr, "%s: %lld frames in %.1f s (%.1f frames per second)\n", source.description().c_str(), frames,
               seconds, seconds > 0 ? static_cast<double>(frames) / seconds : 0.0);
  std::string names;
  for (const auto& n : seen) names += (names.empty() ? "" : ", ") + n;
  std::fprintf(stderr, "disks seen: %zu of %zu%s%s\n", seen.size(), tracker.registry().disks().size(),
               seen.empty() ? "" : " (", seen.empty() ? "" : (names + ")").c_str());
  std::fprintf(stderr, "detections accepted: %lld; rejected: %lld", s.accepted, s.rejected_total());
  bool first = true;
  for (std::size_t r = 0; r < vision::kRejectReasonCount; ++r) {
    if (s.rejected[r] == 0) continue;
    std::fprintf(stderr, "%s%lld %s", first ? " (" : ", ", s.rejected[r],
                 std::string(vision::to_string(static_cast<vision::RejectReason>(r))).c_str());
    first = false;
  }
  std::fprintf(stderr, "%s\n", first ? "" : ")");
  std::fprintf(stderr, "corrupt frames skipped: %lld\n", source.corrupt_frames_skipped());
  if (s.frames_without_table_pose > 0)
    std::fprintf(stderr, "frames without a table pose (corner markers not seen): %lld\n", s.frames_without_table_pose);
}

int run_track(const TrackOptions& o) {
  if (o.video.empty() == o.camera.empty())
    throw io::InputError(
        "", "", o.video.empty() ? "give a VIDEO file or --camera DEVICE" : "give a VIDEO file or --camera, not both");
  check_settings_have_camera(o.camera_settings, o.camera);
  // Every input is read before the output is touched.
  model::TableSpec table = model::load_table(o.table);
  model::DiskRegistry registry = model::load_disk_registry(o.disks);
  std::optional<calib::CameraModel> lens;
  if (!o.calib.empty()) lens = calib::load_camera_model(o.calib);
  std::optional<calib::CameraPose> fixed_pose;
  if (!o.table_pose.empty()) fixed_pose = calib::load_camera_pose(o.table_pose);
  std::optional<std::vector<model::TrackFrame>> truth;
  if (!o.truth.empty()) truth = model::load_track_jsonl(o.truth);
  vision::LiveCameraSource* live = nullptr;
  std::unique_ptr<vision::FrameSource> source = open_source(o, &live);
  bool picture_lock_asked = false;
  // Files that do not fit what else was given are named, not blamed on the table later.
  const cv::Size frame_size = source->frame_size();
  const std::string images = o.camera.empty() ? "the video" : "the frames of " + source->description();
  if (lens) calib::check_camera_fits_image(*lens, frame_size, o.calib, images);
  if (fixed_pose) {
    calib::check_camera_fits_image(fixed_pose->camera, frame_size, o.table_pose, images);
    calib::check_camera_pose_fits_table(*fixed_pose, table, o.table_pose);
    if (!frame_size.empty() && fixed_pose->camera.image_size != frame_size)
      fixed_pose->camera = calib::scaled(fixed_pose->camera, frame_size);
  }

  vision::TrackerOptions options;
  options.detector.family = o.family;
  options.detector.threads = o.threads;
  options.disks.lost_after_s = o.lost_after_s;
  vision::Tracker tracker(table, registry, lens, options);
  if (fixed_pose) tracker.set_table_pose(*fixed_pose);

  // Every line written at once and checked: a kill loses at most the line being written, a full
  // disk stops the run with every line before it kept.
  io::LineFile out(o.out, io::LineFile::Mode::truncate);

  g_stop = false;
  g_live_source = live;
  auto previous_handler = std::signal(SIGINT, on_interrupt);
  Progress progress(source->frame_count(), o.quiet);
  std::set<std::string> seen;
  std::vector<model::TrackFrame> written;
  long long frames = 0;
  const auto start = std::chrono::steady_clock::now();
  while (!g_stop && (o.max_frames < 0 || frames < o.max_frames)) {
    std::optional<vision::Frame> frame = source->next();
    if (!frame) break;
    vision::TrackerResult result = tracker.process(frame->image, frame->index, frame->t);
    // The picture is locked once the table is found: focus and exposure have settled on it.
    if (live && result.table_pose && !picture_lock_asked) {
      live->request_picture_lock();
      picture_lock_asked = true;
    }
    for (const auto& note : result.notes) {
      if (!o.quiet) progress.finish();
      std::fprintf(stderr, "%s\n", note.c_str());  // notes name their frame
    }
    if (!out.write_line(model::to_jsonl_line(result.track))) {
      progress.finish();
      std::signal(SIGINT, previous_handler);
      g_live_source = nullptr;
      throw io::WriteError(out.failure() + " (frame " + std::to_string(frame->index) + " on was not tracked)");
    }
    for (const auto& d : result.track.disks) seen.insert(d.name);
    if (truth) written.push_back(std::move(result.track));
    ++frames;
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    progress.update(frame->index + 1, elapsed > 0 ? static_cast<double>(frames) / elapsed : 0.0);
  }
  std::signal(SIGINT, previous_handler);
  g_live_source = nullptr;
  progress.finish();
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  print_summary(tracker, *source, frames, seconds, seen);
  // A video that ends before the frames it announces was cut short (or its end is corrupt).
  const bool stopped_early = g_stop || (o.max_frames >= 0 && frames >= o.max_frames);
  if (!stopped_early && o.camera.empty() && source->frame_count() &&
      frames + source->corrupt_frames_skipped() < *source->frame_count())
    std::fprintf(
        stderr,
        "diskref track: warning: %s ended after %lld of the %lld frames it announces (cut short, or corrupt at "
        "its end); %s holds the %lld frames read\n",
        o.video.c_str(), frames + source->corrupt_frames_skipped(), *source->frame_count(), o.out.c_str(), frames);
  if (truth)
    std::fprintf(stderr, "compared with %s:\n%s", o.truth.c_str(),
                 simulator::format_evaluation(simulator::evaluate_tracks(written, *truth)).c_str());
  if (!tracker.table_pose()) {
    std::fprintf(stderr,
                 "diskref track: no table pose: the corner markers were never seen (is the table file right?)\n");
    return kExitFailure;
  }
  return kExitOk;
}

}  // namespace

RunFunction add_track_command(CLI::App& app) {
  auto o = std::make_shared<TrackOptions>();
  CLI::App* sub =
      app.add_subcommand("track", "Track the disks in a video (or a live camera) into JSON lines (spec §5)");
  sub->footer(
      "Examples:\n  diskref track game.mp4 --table table.json --disks disks.json --calib camera.json --out "
      "tracks.jsonl\n  diskref track --camera 0 --table table.json --disks disks.json --calib camera.json --out "
      "live.jsonl");
  sub->add_option("video", o->video, "Video file");
  sub->add_option("--table", o->table, "Table file (spec §3)")->required();
  sub->add_option("--disks", o->disks, "Disk registry (spec §4)")->required();
  sub->add_option("--calib", o->calib, "Camera calibration (spec §7); without it, no lens correction");
  sub->add_option("--out", o->out, "Output, one JSON object per frame (spec §5)")->required();
  sub->add_option(
      "--camera", o->camera,
      "A live camera instead of a video: its number (0), V4L2 device (/dev/video2) or URL (http://, rtsp://)");
  add_camera_settings(sub, o->camera_settings);
  sub->add_option("--frames", o->max_frames, "Stop after this many frames")->check(CLI::PositiveNumber);
  sub->add_option("--table-pose", o->table_pose, "Use this table pose file instead of finding the corner markers");
  sub->add_option("--lost-after", o->lost_after_s, "Seconds unseen before a disk is lost")
      ->check(finite_between(0, model::bounds::kMaxTimeS))
      ->capture_default_str();
  sub->add_option("--truth", o->truth, "Compare the output with this ground truth (truth.jsonl) and print the figures");
  sub->add_option("--tag-family", o->family, "AprilTag family")
      ->check(CLI::IsMember(vision::known_tag_families()))
      ->capture_default_str();
  sub->add_option("--threads", o->threads, "Detection threads")->check(CLI::Range(1, 64))->capture_default_str();
  sub->add_flag("--quiet", o->quiet, "No progress on stderr");
  return [o] { return run_track(*o); };
}

}  // namespace diskref::cli
