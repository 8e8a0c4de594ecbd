// track_bench: diskref's tracker against the plain AprilTag baseline, in one process, on the same
// video (docs/design/tracker.md; figures: docs/figures/track_bench.md).
//
//   build/bench/track_bench [VIDEO_DIR...] [--renders DIR]   (default: sample_videos/duel)
//   build/bench/track_bench --video V --table T --disks D [--calib C] [--truth TRUTH] [--frames N]
//
// Each VIDEO_DIR is measured in turn, in one process; --renders DIR also renders the family of
// varied sessions (simulator/session_variety.h) into DIR (kept for the next run) and tracks each.
// A closing table puts the figures issue 13 asks for side by side: false-settled frames, settle
// latency, landings found, sigma's coverage per axis, the end-to-end rate and its ratio to the
// baseline run just before it.
//
// VIDEO_DIR holds video.mp4, table.json, disks.json, camera.json (optional, used as --calib) and
// truth.jsonl, as `diskref render` writes them. Compared, on the same frames:
//   (a) baseline: apriltag (tagStandard41h12) over every whole frame with its defaults
//       (quad_decimate 2, apriltag's own pool of 2 threads), after the grey conversion it needs;
//   (b) diskref's tracker (change detection, planned regions, grey conversion of those, detection,
//       measurement, tracking), 2 threads (two single-threaded detectors sharing the regions).
// Passes, each decoding the video afresh: decoding alone (OpenCV/FFmpeg, the cost every program
// pays); (a) and (b) end to end as `diskref track` runs (a thread decoding ahead); then (a) and
// (b) on frames decoded beforehand in chunks of 30, for the work alone. Also recall against the truth (a (frame, disk)
// the truth calls visible counts as found by (a) when one of the disk's tags was detected, by (b)
// when the output calls it visible) and the peak memory (getrusage ru_maxrss).

#include <sys/resource.h>

#include <chrono>
#include <cstdio>
#include <filesystem>
#include <map>
#include <set>
#include <string>
#include <unordered_map>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/camera_model.h"
#include "engine/io/input_error.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "simulator/session_variety.h"
#include "simulator/track_evaluation.h"
#include "vision/apriltag_detector.h"
#include "vision/frame_source.h"
#include "vision/prefetching_source.h"
#include "vision/tracker.h"

namespace {

// The baseline as anyone else would run apriltag on two cores: its own worker pool of two threads
// over the whole frame. (diskref's own detectors stay single-threaded: apriltag_detector.h says why.)
diskref::vision::DetectorOptions apriltag_as_others_run_it() {
  diskref::vision::DetectorOptions options;
  options.library_threads = 2;
  return options;
}

using namespace diskref;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double peak_memory_mb() {
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  return static_cast<double>(usage.ru_maxrss) / 1024.0;  // kB on Linux
}

struct Inputs {
  fs::path video, table, disks, calib, truth;
  long long max_frames = -1;
};

struct PassTimes {
  long long frames = 0;
  double decode_s = 0;
  double work_s = 0;
  double work_fps() const { return work_s > 0 ? static_cast<double>(frames) / work_s : 0; }
  double total_fps() const { return decode_s + work_s > 0 ? static_cast<double>(frames) / (decode_s + work_s) : 0; }
};

// Recall per kind of a set of (frame -> disk names found) against the truth's visible disks.
std::map<model::DiskKind, std::pair<long long, long long>> recall(
    const std::vector<model::TrackFrame>& truth, const std::unordered_map<long long, std::set<std::string>>& found) {
  std::map<model::DiskKind, std::pair<long long, long long>> out;  // kind -> (found, truth visible)
  for (const auto& f : truth) {
    auto it = found.find(f.frame);
    for (const auto& d : f.disks) {
      if (d.state != model::TrackState::visible) continue;
      auto& counts = out[d.kind];
      ++counts.second;
      if (it != found.end() && it->second.count(d.name)) ++counts.first;
    }
  }
  return out;
}

// The disks an output calls visible, per frame.
std::unordered_map<long long, std::set<std::string>> visible_by_frame(const std::vector<model::TrackFrame>& output) {
  std::unordered_map<long long, std::set<std::string>> found;
  for (const auto& f : output)
    for (const auto& d : f.disks)
      if (d.state == model::TrackState::visible) found[f.frame].insert(d.name);
  return found;
}

void print_recall(const char* label, const std::map<model::DiskKind, std::pair<long long, long long>>& r) {
  std::printf("  recall %s:", label);
  for (const auto& [kind, counts] : r)
    std::printf("  %s %.2f %% (%lld/%lld)", std::string(to_string(kind)).c_str(),
                counts.second ? 100.0 * static_cast<double>(counts.first) / static_cast<double>(counts.second) : 100.0,
                counts.first, counts.second);
  std::printf("\n");
}

// Decodes up to `count` frames (nullopt at the end).
std::vector<vision::Frame> decode_chunk(vision::FrameSource& source, std::size_t count) {
  std::vector<vision::Frame> chunk;
  while (chunk.size() < count)
    if (auto frame = source.next())
      chunk.push_back(std::move(*frame));
    else
      break;
  return chunk;
}

// What the closing table shows of one input.
struct Figures {
  std::string name;
  cv::Size size;
  bool timed = false;  // (a) and (b) were both run end to end
  double baseline_fps = 0, tracker_fps = 0;
  double baseline_recall = 0, tracker_recall = 0;  // over every kind
  bool has_truth = false;
  simulator::TrackEvaluation evaluation;
};

double overall_recall(const std::map<model::DiskKind, std::pair<long long, long long>>& r) {
  long long found = 0, all = 0;
  for (const auto& [kind, counts] : r) {
    found += counts.first;
    all += counts.second;
  }
  return all ? static_cast<double>(found) / static_cast<double>(all) : 1.0;
}

// One pass as `diskref track` runs: a thread decodes ahead (vision/prefetching_source.h) while
// `work` is done on each frame (timed apart from the wait for it); then `keep` its result (not
// timed). The time waiting for frames plus the time working is the honest end-to-end rate.
template <class Work, class Keep>
void end_to_end_pass(const fs::path& video, long long max_frames, PassTimes& times, Work&& work, Keep&& keep) {
  auto source = vision::prefetching(vision::open_video_file(video));
  while (max_frames < 0 || times.frames < max_frames) {
    auto t0 = Clock::now();
    auto frame = source->next();
    times.decode_s += seconds_since(t0);
    if (!frame) break;
    t0 = Clock::now();
    auto result = work(*frame);
    times.work_s += seconds_since(t0);
    keep(*frame, std::move(result));
    ++times.frames;
  }
}

Figures run(const Inputs& in) {
  const model::TableSpec table = model::load_table(in.table);
  const model::DiskRegistry registry = model::load_disk_registry(in.disks);
  std::optional<calib::CameraModel> lens;
  if (!in.calib.empty()) lens = calib::load_camera_model(in.calib);
  std::vector<model::TrackFrame> truth;
  if (!in.truth.empty()) truth = model::load_track_jsonl(in.truth);
  auto limit = [&](long long n) { return in.max_frames < 0 || n < in.max_frames; };
  auto names_of = [&](const std::vector<vision::TagDetection>& tags) {
    std::set<std::string> names;
    for (const auto& tag : tags)
      if (auto ref = registry.find_tag(tag.id)) names.insert(registry.disks()[ref->disk_index].name);
    return names;
  };

  std::printf("video %s\n", in.video.string().c_str());
  // 1. Decoding alone.
  PassTimes decode;
  cv::Size size;
  {
    auto source = vision::open_video_file(in.video);
    size = source->frame_size();
    std::printf("  %dx%d, %.2f fps, %lld frames; tracker and baseline use 2 threads\n", size.width, size.height,
                source->frames_per_second(), source->frame_count().value_or(-1));
    auto t0 = Clock::now();
    while (limit(decode.frames) && source->next()) ++decode.frames;
    decode.decode_s = seconds_since(t0);
  }

  // 2. (a) and (b) as `diskref track` runs them.
  PassTimes baseline, tracker_times;
  std::unordered_map<long long, std::set<std::string>> baseline_found;
  {
    vision::AprilTagDetector detector(apriltag_as_others_run_it());
    cv::Mat grey;
    end_to_end_pass(
        in.video, in.max_frames, baseline,
        [&](const vision::Frame& frame) {
          cv::cvtColor(frame.image, grey, cv::COLOR_BGR2GRAY);
          return detector.detect(grey);
        },
        [&](const vision::Frame& frame, std::vector<vision::TagDetection> tags) {
          baseline_found[frame.index] = names_of(tags);
        });
  }
  std::vector<model::TrackFrame> output;
  long long pixels = 0;
  {
    vision::Tracker tracker(table, registry, lens);
    end_to_end_pass(
        in.video, in.max_frames, tracker_times,
        [&](const vision::Frame& frame) { return tracker.process(frame.image, frame.index, frame.t); },
        [&](const vision::Frame&, vision::TrackerResult r) { output.push_back(std::move(r.track)); });
    pixels = tracker.stats().pixels_searched;
  }
  const double streaming_memory = peak_memory_mb();

  // 3. The work alone: frames decoded in chunks first, then (a) and (b) timed on the chunk with
  // the decoder idle.
  PassTimes baseline_work, tracker_work;
  vision::StageTimes stages;
  std::map<double, long long> searched_by_decimation;  // full-resolution pixels searched at each quad_decimate
  {
    auto source = vision::open_video_file(in.video);
    vision::AprilTagDetector detector(apriltag_as_others_run_it());
    vision::Tracker tracker(table, registry, lens);
    cv::Mat grey;
    long long done = 0;
    while (limit(done)) {
      std::vector<vision::Frame> chunk = decode_chunk(*source, 30);
      if (chunk.empty()) break;
      auto t0 = Clock::now();
      for (const auto& frame : chunk) {
        cv::cvtColor(frame.image, grey, cv::COLOR_BGR2GRAY);
        detector.detect(grey);
      }
      baseline_work.work_s += seconds_since(t0);
      t0 = Clock::now();
      for (const auto& frame : chunk) {
        vision::TrackerResult r = tracker.process(frame.image, frame.index, frame.t);
        stages.change_ms += r.times.change_ms;
        stages.plan_ms += r.times.plan_ms;
        stages.grey_ms += r.times.grey_ms;
        stages.detect_ms += r.times.detect_ms;
        stages.table_ms += r.times.table_ms;
        stages.measure_ms += r.times.measure_ms;
        stages.track_ms += r.times.track_ms;
        for (const vision::SearchRegion& region : r.searched)
          searched_by_decimation[region.quad_decimate] += region.roi.area();
      }
      tracker_work.work_s += seconds_since(t0);
      baseline_work.frames += static_cast<long long>(chunk.size());
      tracker_work.frames += static_cast<long long>(chunk.size());
      done += static_cast<long long>(chunk.size());
    }
  }

  const double n = static_cast<double>(tracker_work.frames);
  std::printf("decoding alone:            %7.1f fps (%.2f ms per frame)\n",
              static_cast<double>(decode.frames) / decode.decode_s,
              1000 * decode.decode_s / static_cast<double>(decode.frames));
  std::printf("work alone (frames decoded beforehand):\n");
  std::printf("  (a) apriltag whole frames: %7.1f fps\n", baseline_work.work_fps());
  std::printf("  (b) diskref tracker:       %7.1f fps\n", tracker_work.work_fps());
  std::printf("  ratio (b)/(a):             %7.2f x\n", tracker_work.work_fps() / baseline_work.work_fps());
  std::printf("end to end (decoding ahead on a thread, as diskref track runs):\n");
  std::printf("  (a) apriltag whole frames: %7.1f fps\n", baseline.total_fps());
  std::printf("  (b) diskref tracker:       %7.1f fps\n", tracker_times.total_fps());
  std::printf("  ratio (b)/(a):             %7.2f x\n", tracker_times.total_fps() / baseline.total_fps());
  std::printf(
      "(b) per frame: change %.2f, plan %.2f, grey %.2f, detect %.2f, table %.2f, measure %.2f, track %.2f ms; "
      "%.1f %% of the pixels searched\n",
      stages.change_ms / n, stages.plan_ms / n, stages.grey_ms / n, stages.detect_ms / n, stages.table_ms / n,
      stages.measure_ms / n, stages.track_ms / n,
      100.0 * static_cast<double>(pixels) / (static_cast<double>(tracker_times.frames) * size.width * size.height));
  std::printf("(b) searched per frame, by quad_decimate:");
  for (const auto& [decimate, area] : searched_by_decimation)
    std::printf(" %g: %.1f %%", decimate,
                100.0 * static_cast<double>(area) / n / (static_cast<double>(size.width) * size.height));
  std::printf(" of the image\n");
  std::printf(
      "peak memory (ru_maxrss): %.0f MB for the decoding and end-to-end passes, %.0f MB with the decoded chunks\n",
      streaming_memory, peak_memory_mb());

  Figures figures;
  figures.size = size;
  figures.timed = true;
  figures.baseline_fps = baseline.total_fps();
  figures.tracker_fps = tracker_times.total_fps();
  if (!truth.empty()) {
    const auto baseline_recall = recall(truth, baseline_found),
               tracker_recall = recall(truth, visible_by_frame(output));
    print_recall("(a)", baseline_recall);
    print_recall("(b)", tracker_recall);
    figures.baseline_recall = overall_recall(baseline_recall);
    figures.tracker_recall = overall_recall(tracker_recall);
    figures.has_truth = true;
    figures.evaluation = simulator::evaluate_tracks(output, truth);
    std::printf("(b) against the truth:\n%s", simulator::format_evaluation(figures.evaluation).c_str());
  }
  return figures;
}

// A render of the varied family: the tracker alone, against its truth (no timing: these are for
// settles, landings and sigma).
Figures track_render(const Inputs& in) {
  vision::Tracker tracker(model::load_table(in.table), model::load_disk_registry(in.disks),
                          in.calib.empty() ? std::nullopt : std::optional(calib::load_camera_model(in.calib)));
  std::vector<model::TrackFrame> output;
  PassTimes times;
  Figures figures;
  end_to_end_pass(
      in.video, in.max_frames, times,
      [&](const vision::Frame& frame) { return tracker.process(frame.image, frame.index, frame.t); },
      [&](const vision::Frame& frame, vision::TrackerResult r) {
        figures.size = frame.image.size();
        output.push_back(std::move(r.track));
      });
  figures.tracker_fps = times.total_fps();
  const std::vector<model::TrackFrame> truth = model::load_track_jsonl(in.truth);
  figures.has_truth = true;
  figures.evaluation = simulator::evaluate_tracks(output, truth);
  figures.tracker_recall = overall_recall(recall(truth, visible_by_frame(output)));
  return figures;
}

// The closing table: one row per input, the renders pooled in a last row.
void print_summary(const std::vector<Figures>& rows) {
  fmt::print(
      "\nsummary (goals: false-settled 0; settle latency <= 300 ms; every landing whose tag was seen, within "
      "0.5 mm; 2 sigma 93-97 % per axis; crowded end to end >= 60 fps and >= 3x the baseline)\n");
  const std::string row = "{:<30} {:>9} {:>7} {:>16} {:>13} {:>8} {:>13} {:>13} {:>15} {:>7} {:>7} {:>7} {:>13}\n";
  fmt::print(fmt::runtime(row), "input", "size", "false-", "settle ms", "landings", "landing", "x within", "y within",
             "rests: x, y", "(b) fps", "(a) fps", "(b)/(a)", "recall %");
  fmt::print(fmt::runtime(row), "", "", "settled", "median/max(miss)", "found/seen(all)", "max mm", "1/2 sigma %",
             "1/2 sigma %", "2 sigma % (n)", "e2e", "e2e", "", "(a) / (b)");
  for (const Figures& f : rows) {
    const simulator::TrackEvaluation& e = f.evaluation;
    const std::string size = fmt::format("{}x{}", f.size.width, f.size.height);
    if (!f.has_truth) {
      fmt::print("{:<30} {:>9} (no truth)\n", f.name, size);
      continue;
    }
    const simulator::SettleFigures& s = e.settles;
    fmt::print(
        fmt::runtime(row), f.name, size, s.false_settled,
        fmt::format("{:.0f}/{:.0f}({})", 1000 * s.median_latency_s(), 1000 * s.max_latency_s(), s.missed),
        fmt::format("{}/{}({})", e.landings.found, e.landings.truth_seen, e.landings.truth),
        fmt::format("{:.3f}", e.landings.position_max_mm),
        fmt::format("{:.1f}/{:.1f}", 100 * e.axis_fraction_within_1_sigma(0), 100 * e.axis_fraction_within_2_sigma(0)),
        fmt::format("{:.1f}/{:.1f}", 100 * e.axis_fraction_within_1_sigma(1), 100 * e.axis_fraction_within_2_sigma(1)),
        fmt::format("{:.0f}, {:.0f} ({})", 100 * e.rest_axis_fraction_within_2_sigma(0),
                    100 * e.rest_axis_fraction_within_2_sigma(1), e.rests),
        fmt::format("{:.1f}", f.tracker_fps), f.timed ? fmt::format("{:.1f}", f.baseline_fps) : "-",
        f.timed ? fmt::format("{:.2f}", f.tracker_fps / f.baseline_fps) : "-",
        f.timed ? fmt::format("{:.2f}/{:.2f}", 100 * f.baseline_recall, 100 * f.tracker_recall)
                : fmt::format("-/{:.2f}", 100 * f.tracker_recall));
  }
}

}  // namespace

int main(int argc, char** argv) {
  Inputs in;
  std::vector<fs::path> dirs;
  fs::path renders;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= argc) throw std::invalid_argument(a + " needs a value");
      return argv[++i];
    };
    if (a == "--video")
      in.video = value();
    else if (a == "--table")
      in.table = value();
    else if (a == "--disks")
      in.disks = value();
    else if (a == "--calib")
      in.calib = value();
    else if (a == "--truth")
      in.truth = value();
    else if (a == "--frames")
      in.max_frames = std::stoll(value());
    else if (a == "--renders")
      renders = value();
    else if (a == "--help" || a == "-h") {
      std::printf(
          "usage: track_bench [VIDEO_DIR...] [--renders DIR] [--video V --table T --disks D --calib C --truth TRUTH] "
          "[--frames N]\n");
      return 0;
    } else
      dirs.push_back(a);
  }
  // The inputs of a directory `diskref render` wrote; the lens only when asked for.
  auto inputs_of = [&](const fs::path& dir, bool with_lens) {
    Inputs d;
    d.max_frames = in.max_frames;
    d.video = dir / "video.mp4";
    d.table = dir / "table.json";
    d.disks = dir / "disks.json";
    if (with_lens && fs::exists(dir / "camera.json")) d.calib = dir / "camera.json";
    if (fs::exists(dir / "truth.jsonl")) d.truth = dir / "truth.jsonl";
    return d;
  };
  try {
    std::vector<Figures> rows;
    if (!in.video.empty()) {
      rows.push_back(run(in));
      rows.back().name = in.video.parent_path().filename().string();
    }
    if (dirs.empty() && in.video.empty() && renders.empty())
      dirs.push_back(fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "duel");
    for (const fs::path& dir : dirs) {
      rows.push_back(run(inputs_of(dir, true)));
      rows.back().name = dir.filename().string();
    }
    if (!renders.empty()) {
      Figures pooled;
      pooled.name = "renders pooled";
      pooled.has_truth = true;
      long long frames = 0;
      double seconds = 0;
      for (const simulator::SessionVariant& variant : simulator::standard_variants()) {
        std::fprintf(stderr, "track_bench: render %s\n", variant.name.c_str());
        const fs::path dir = simulator::render_variant(variant, renders);
        Figures f = track_render(inputs_of(dir, variant.lens_known));
        f.name = "render " + variant.name;
        simulator::accumulate(pooled.evaluation, f.evaluation);
        pooled.size = f.size;
        frames += f.evaluation.frames_compared;
        seconds += f.tracker_fps > 0 ? static_cast<double>(f.evaluation.frames_compared) / f.tracker_fps : 0;
        pooled.tracker_recall += f.tracker_recall;
        rows.push_back(std::move(f));
      }
      const auto count = static_cast<double>(simulator::standard_variants().size());
      pooled.tracker_recall /= count;
      pooled.tracker_fps = seconds > 0 ? static_cast<double>(frames) / seconds : 0;
      rows.push_back(std::move(pooled));
    }
    print_summary(rows);
    return 0;
  } catch (const diskref::io::InputError& e) {
    std::fprintf(stderr, "track_bench: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "track_bench: %s\n", e.what());
    return 1;
  }
}
