// recording_bench: what keeping the video of a session (spec §11, recording/video_recorder.h)
// costs the tracker, in one process, on the same video.
//
//   build/bench/recording_bench [VIDEO_DIR] [--out DIR] [--frames N] [--rounds R]
//        (default: sample_videos/duel; DIR default: the system's temp folder/diskref-recording-bench)
//
// VIDEO_DIR holds video.mp4, table.json, disks.json and camera.json (optional), as `diskref
// render` writes them. Each pass decodes the video afresh on a thread ahead (as `diskref track`
// runs) and tracks every frame with vision::Tracker:
//   (a) tracking alone;
//   (b) tracking, every frame also given to a VideoRecorder (default options: JPEG quality 90,
//       2 s segments, 60 frames' queue) writing DIR/video; the rate is the caller's (what the
//       tracker sees), the time finish() then takes to drain the queue is shown apart;
//   (c) the encoder alone: cv::imencode at quality 90 on frames decoded beforehand, one thread
//       (and the copy add() makes of a frame);
//   (d) as a live camera: (b) with each frame given at its own time (30 fps), not sooner.
// (a) and (b) are run R times, alternately (the machine may be shared: the median of each is
// compared, the best shown too). Printed: frames/s of (a) and (b), their ratio, frames dropped, MB written per
// second of video, the encoder's ms per frame, the CPU time of each pass; for (d), the frames
// dropped and those the tracker was given late.

#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_model.h"
#include "engine/io/input_error.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "recording/video_recorder.h"
#include "vision/frame_source.h"
#include "vision/prefetching_source.h"
#include "vision/tracker.h"

namespace {

using namespace diskref;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double cpu_seconds() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  auto s = [](const timeval& tv) { return static_cast<double>(tv.tv_sec) + static_cast<double>(tv.tv_usec) / 1e6; };
  return s(usage.ru_utime) + s(usage.ru_stime);
}

struct Setup {
  fs::path video;
  model::TableSpec table;
  model::DiskRegistry registry;
  std::optional<calib::CameraModel> lens;
  long long max_frames = -1;
};

struct Pass {
  long long frames = 0;
  double wall_s = 0;    // waiting for frames + tracking (+ add() in (b))
  double cpu_s = 0;     // the process's CPU time over the pass (every thread)
  double finish_s = 0;  // (b): finish() after the last frame
  long long written = 0, dropped = 0;
  long long late = 0;  // paced: frames given more than a frame period after their time
  std::uintmax_t bytes = 0;
  double video_s = 0;  // the frames' span of video time
  double fps() const { return wall_s > 0 ? static_cast<double>(frames) / wall_s : 0; }
};

std::uintmax_t folder_bytes(const fs::path& dir) {
  std::uintmax_t bytes = 0;
  for (const auto& entry : fs::directory_iterator(dir))
    if (entry.is_regular_file()) bytes += entry.file_size();
  return bytes;
}

// One pass as `diskref track` runs it; with `record_to`, every frame also goes to a VideoRecorder.
// `paced`: each frame is given no sooner than its time since the first (as a camera delivers).
Pass track_pass(const Setup& s, const std::optional<fs::path>& record_to, bool paced = false) {
  Pass pass;
  vision::Tracker tracker(s.table, s.registry, s.lens);
  std::optional<recording::VideoRecorder> recorder;
  if (record_to) {
    fs::remove_all(*record_to);
    recorder.emplace(*record_to);
  }
  auto source = vision::prefetching(vision::open_video_file(s.video));
  const double fps = source->frames_per_second();
  const double cpu0 = cpu_seconds();
  const auto t0 = Clock::now();
  while (s.max_frames < 0 || pass.frames < s.max_frames) {
    auto frame = source->next();
    if (!frame) break;
    if (paced) {
      const auto due = t0 + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(frame->t));
      if (Clock::now() < due)
        std::this_thread::sleep_until(due);
      else if (seconds_since(due) > 1.0 / fps)
        ++pass.late;
    }
    tracker.process(frame->image, frame->index, frame->t);
    if (recorder) recorder->add(frame->image, frame->index, frame->t);
    ++pass.frames;
  }
  pass.wall_s = seconds_since(t0);
  if (recorder) {
    const auto f0 = Clock::now();
    recorder->finish();
    pass.finish_s = seconds_since(f0);
    pass.written = recorder->frames_written();
    pass.dropped = recorder->frames_dropped();
    if (recorder->failed()) std::fprintf(stderr, "recording_bench: %s\n", recorder->failure().c_str());
    pass.bytes = folder_bytes(*record_to);
  }
  pass.cpu_s = cpu_seconds() - cpu0;
  pass.video_s = fps > 0 ? static_cast<double>(pass.frames) / fps : 0;
  return pass;
}

// (c): the encoder's own cost per frame, on frames decoded beforehand in chunks of 30; and the
// copy add() makes, in `copy_ms`.
double encode_ms_per_frame(const Setup& s, int quality, double& copy_ms) {
  auto source = vision::open_video_file(s.video);
  double seconds = 0, copy_s = 0;
  long long frames = 0;
  std::vector<unsigned char> jpeg;
  while (s.max_frames < 0 || frames < s.max_frames) {
    std::vector<cv::Mat> chunk;
    while (chunk.size() < 30)
      if (auto frame = source->next())
        chunk.push_back(std::move(frame->image));
      else
        break;
    if (chunk.empty()) break;
    const auto t0 = Clock::now();
    for (const cv::Mat& image : chunk) cv::imencode(".jpg", image, jpeg, {cv::IMWRITE_JPEG_QUALITY, quality});
    seconds += seconds_since(t0);
    const auto c0 = Clock::now();
    for (const cv::Mat& image : chunk) cv::Mat copy = image.clone();
    copy_s += seconds_since(c0);
    frames += static_cast<long long>(chunk.size());
  }
  copy_ms = frames > 0 ? 1000 * copy_s / static_cast<double>(frames) : 0;
  return frames > 0 ? 1000 * seconds / static_cast<double>(frames) : 0;
}

void print_pass(const char* name, const Pass& p) {
  std::printf("  %s %6.1f fps  (%lld frames in %.2f s; CPU %.2f s, %.0f %% of one core)", name, p.fps(), p.frames,
              p.wall_s, p.cpu_s, 100 * p.cpu_s / (p.wall_s + p.finish_s));
  if (p.bytes > 0)
    std::printf("; %lld written, %lld dropped, finish() %.0f ms, %.1f MB per second of video", p.written, p.dropped,
                1000 * p.finish_s, p.video_s > 0 ? static_cast<double>(p.bytes) / 1e6 / p.video_s : 0.0);
  std::printf("\n");
}

}  // namespace

int main(int argc, char** argv) {
  fs::path dir = fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "duel";
  fs::path out = fs::temp_directory_path() / "diskref-recording-bench";
  long long max_frames = -1;
  int rounds = 1;
  try {
    for (int i = 1; i < argc; ++i) {
      const std::string a = argv[i];
      auto value = [&]() -> std::string {
        if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
        return argv[++i];
      };
      if (a == "--out")
        out = value();
      else if (a == "--frames")
        max_frames = std::stoll(value());
      else if (a == "--rounds")
        rounds = std::max(1, std::stoi(value()));
      else if (a == "--help" || a == "-h") {
        std::printf("usage: recording_bench [VIDEO_DIR] [--out DIR] [--frames N] [--rounds R]\n");
        return 0;
      } else
        dir = a;
    }
    Setup s{dir / "video.mp4", model::load_table(dir / "table.json"), model::load_disk_registry(dir / "disks.json"),
            std::nullopt, max_frames};
    if (fs::exists(dir / "camera.json")) s.lens = calib::load_camera_model(dir / "camera.json");
    {
      auto probe = vision::open_video_file(s.video);
      const cv::Size size = probe->frame_size();
      std::printf("video %s: %dx%d, %.2f fps, %lld frames; recording to %s\n", s.video.string().c_str(), size.width,
                  size.height, probe->frames_per_second(), probe->frame_count().value_or(-1),
                  (out / "video").string().c_str());
    }
    std::vector<Pass> alone, recorded;
    for (int r = 0; r < rounds; ++r) {
      alone.push_back(track_pass(s, std::nullopt));
      print_pass("(a) tracking alone:         ", alone.back());
      recorded.push_back(track_pass(s, out / "video"));
      print_pass("(b) tracking and recording: ", recorded.back());
    }
    // The median pass of each by rate (the machine may be shared: single passes vary).
    auto median = [](std::vector<Pass> passes) {
      std::sort(passes.begin(), passes.end(), [](const Pass& x, const Pass& y) { return x.fps() < y.fps(); });
      return passes[passes.size() / 2];
    };
    auto best = [](const std::vector<Pass>& passes) {
      return *std::max_element(passes.begin(), passes.end(),
                               [](const Pass& x, const Pass& y) { return x.fps() < y.fps(); });
    };
    const Pass a = median(alone), b = median(recorded);
    std::printf(
        "median of %d: (a) %.1f fps, (b) %.1f fps: (b)/(a) = %.3f (recording costs %.1f %% of the tracking rate); "
        "best: (a) %.1f, (b) %.1f fps\n",
        rounds, a.fps(), b.fps(), b.fps() / a.fps(), 100 * (1 - b.fps() / a.fps()), best(alone).fps(),
        best(recorded).fps());
    std::printf("(b): %lld of %lld frames written, %lld dropped; %.2f MB per second of video (%.0f kB per frame)\n",
                b.written, b.frames, b.dropped, b.video_s > 0 ? static_cast<double>(b.bytes) / 1e6 / b.video_s : 0.0,
                b.written > 0 ? static_cast<double>(b.bytes) / 1e3 / static_cast<double>(b.written) : 0.0);
    double copy_ms = 0;
    const double encode_ms = encode_ms_per_frame(s, 90, copy_ms);
    std::printf(
        "(c) the encoder alone (cv::imencode, JPEG quality 90, one thread): %.2f ms per frame; add()'s copy %.2f ms\n",
        encode_ms, copy_ms);
    // (d) As a camera: the frames at their own rate, tracked and recorded.
    const Pass live = track_pass(s, out / "video", true);
    print_pass("(d) as a camera, recording: ", live);
    std::printf("    %lld frame(s) given late (more than a frame period after their time)\n", live.late);
    std::printf("goal: (b)/(a) >= 0.90 and (b) >= 30 fps: %s\n",
                b.fps() / a.fps() >= 0.9 && b.fps() >= 30 ? "met" : "NOT met");
    return 0;
  } catch (const io::InputError& e) {
    std::fprintf(stderr, "recording_bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "recording_bench: %s\n", e.what());
    return 1;
  }
}
