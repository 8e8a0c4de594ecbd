// live_cost: what refereeing a live camera costs the machine (issue: "the real camera"), as
// `diskref referee --camera URL --record DIR` runs it: a phone-like MJPEG stream on loopback at
// 30 frames a second by the wall clock, read, decoded, tracked, refereed (the skirmish game with
// its inputs) and recorded through the one pipeline (pipeline/pipeline.h). For 1080p30 (the
// sample as it is) and 4K30 (its frames upscaled twice: the same table in four times the pixels):
//
//   baseline     the stream only read and decoded (what any program showing the camera pays);
//   pipeline     the whole live referee;
//   CPU          CPU seconds (all threads) per second of video: 1.0 is one core busy, the machine
//                has `cores`; the ratio is the pipeline's over the baseline's, in the same run;
//   lost         frames the camera took that the program never got (not read in time: the
//                stream's app skips a frame its client is not ready for), of those it took.
//
//   build/bench/live_cost [--seconds S]   (default 10 s of video per run)

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>

#include "bench/paced_mjpeg_server.h"
#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "pipeline/pipeline.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "vision/live_camera.h"

namespace fs = std::filesystem;
using namespace diskref;

namespace {

constexpr double kCameraFps = 30;

double cpu_seconds() {
  rusage u{};
  ::getrusage(RUSAGE_SELF, &u);
  return static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) +
         static_cast<double>(u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
}

std::vector<std::vector<unsigned char>> frames_as_jpegs(const fs::path& video, int count, double scale) {
  cv::VideoCapture capture(video.string(), cv::CAP_FFMPEG);
  std::vector<std::vector<unsigned char>> out;
  cv::Mat frame, sized;
  while (static_cast<int>(out.size()) < count && capture.read(frame)) {
    if (scale != 1.0)
      cv::resize(frame, sized, {}, scale, scale, cv::INTER_LINEAR);
    else
      sized = frame;
    out.emplace_back();
    cv::imencode(".jpg", sized, out.back(), {cv::IMWRITE_JPEG_QUALITY, 90});  // a phone app's quality
  }
  return out;
}

struct RunResult {
  double cpu_per_video_s = 0;
  long long frames = 0;
  long long taken = 0;  // by the camera
};

vision::CameraOptions camera_at(const std::string& url) {
  vision::CameraOptions o;
  o.device = url;
  o.give_up_after_s = 1.0;  // the stream's end: the camera is gone
  o.on_event = [](const vision::CameraEvent&) {};
  return o;
}

RunResult run(const std::vector<std::vector<unsigned char>>& jpegs, bool whole_referee, const fs::path& sample,
              const fs::path& record_dir) {
  bench::PacedMjpegServer phone(jpegs, kCameraFps);
  std::unique_ptr<vision::LiveCameraSource> source = vision::open_live_camera(camera_at(phone.url()));
  const double cpu_before = cpu_seconds();
  long long frames = 0;
  if (!whole_referee) {
    while (std::optional<vision::Frame> f = source->next()) ++frames;
  } else {
    const model::TableSpec table = model::load_table(sample / "table.json");
    const model::DiskRegistry registry = model::load_disk_registry(sample / "disks.json");
    calib::CameraModel lens = calib::load_camera_model(sample / "camera.json");
    lens = calib::scaled(lens, source->frame_size());
    pipeline::RefereedGameOptions live;
    live.inputs_from_first_frame = true;
    auto game = std::make_shared<pipeline::RefereedGame>(
        referee::Referee(referee::load_game_file(sample / "game.json", table, registry), table, registry),
        referee::load_inputs(sample / "inputs.jsonl"), live);
    recording::SessionInfo info;
    info.source = "camera";
    info.tracks_from = "tracker";
    recording::SessionProvenance provenance;
    provenance.diskref_version = "live_cost";
    provenance.frames_copied = true;
    fs::remove_all(record_dir);
    auto recorder = std::make_unique<recording::RefereedSessionRecorder>(
        record_dir, info, recording::SessionFiles{sample / "table.json", sample / "disks.json", sample / "camera.json"},
        provenance, sample / "game.json");
    pipeline::Pipeline pipe(std::make_unique<vision::Tracker>(table, registry, lens), game, std::move(recorder));
    pipe.run_source(*source);
    pipe.finish();
    frames = pipe.stats().frames;
  }
  RunResult r;
  r.cpu_per_video_s = (cpu_seconds() - cpu_before) / (static_cast<double>(jpegs.size()) / kCameraFps);
  r.frames = frames;
  r.taken = static_cast<long long>(jpegs.size());
  return r;
}

}  // namespace

int main(int argc, char** argv) {
  double seconds = 10;
  for (int i = 1; i + 1 < argc; ++i)
    if (std::string(argv[i]) == "--seconds") seconds = std::stod(argv[i + 1]);
  const fs::path sample = fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
  const fs::path record_dir = fs::temp_directory_path() / "diskref-live-cost-recording";
  const int count = static_cast<int>(seconds * kCameraFps);
  std::printf("# What a live camera costs: the stream read, tracked, refereed and recorded\n\n");
  std::printf(
      "The skirmish sample served as a phone's MJPEG stream on loopback at %.0f frames a second for %.0f s "
      "(JPEG quality 90); %u cores. CPU is CPU seconds per second of video (1.0: one core busy).\n\n",
      kCameraFps, seconds, std::thread::hardware_concurrency());
  std::printf(
      "| stream | baseline CPU (read + decode) | pipeline CPU (the live referee) | ratio | frames lost (baseline) | "
      "frames lost (pipeline) |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto& [name, scale] : {std::pair<const char*, double>{"1080p30", 1.0}, {"4K30 (upscaled)", 2.0}}) {
    std::fprintf(stderr, "live_cost: %s: encoding %d frames\n", name, count);
    const std::vector<std::vector<unsigned char>> jpegs = frames_as_jpegs(sample / "video.mp4", count, scale);
    std::fprintf(stderr, "live_cost: %s: baseline\n", name);
    const RunResult base = run(jpegs, false, sample, record_dir);
    std::fprintf(stderr, "live_cost: %s: the whole live referee\n", name);
    const RunResult whole = run(jpegs, true, sample, record_dir);
    auto lost = [](const RunResult& r) {
      return fmt::format("{} of {} ({:.1f} %)", r.taken - r.frames, r.taken,
                         100.0 * static_cast<double>(r.taken - r.frames) / static_cast<double>(r.taken));
    };
    std::printf("| %s | %.2f | %.2f | %.1f× | %s | %s |\n", name, base.cpu_per_video_s, whole.cpu_per_video_s,
                base.cpu_per_video_s > 0 ? whole.cpu_per_video_s / base.cpu_per_video_s : 0.0, lost(base).c_str(),
                lost(whole).c_str());
    std::fflush(stdout);
  }
  fs::remove_all(record_dir);
  return 0;
}
