// referee_figures: how well `diskref referee` reads a game from a video (docs/guide/refereeing.md,
// "How well it reads a game"). Each directory given holds a rendered game — video.mp4, truth.jsonl,
// table.json, disks.json, camera.json, game.json, inputs.jsonl and, for a variant made to show a
// warning, expected.json ({"warning": KIND, "disk": ID, "designed_mm": D}) — as
// scripts/referee-figures.sh writes them.
//
//   build/bench/referee_figures [--verbose] DIR...
//
// Each game is refereed twice in this process with the same game file and inputs: from its truth
// (the tracks a perfect tracker would give) and from its video through the tracker. Compared:
//   - the table readings (moves, launches, headings...) in the same order, each with its flips;
//   - where each reading ends against the truth's pose of that disk at that moment;
//   - the final books against `diskref play` on the truth's game as a script (poses within 1 mm);
//   - every verdict whose margin exceeds 2 sigma called as on the truth;
//   - the warnings: the one the variant was made to show, with its distance, and any other;
//   - the time the referee takes on the frame the table settles (when it rules; CPU time of its
//     one thread), as a ratio to the tracker's median time per frame (wall, its threads in parallel).

#include <time.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "engine/io/input_error.h"
#include "engine/io/jsonl.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "engine/rules/script.h"
#include "engine/rules/state_json.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/referee.h"
#include "vision/frame_source.h"
#include "vision/prefetching_source.h"
#include "vision/tracker.h"

namespace {

using namespace diskref;
using Clock = std::chrono::steady_clock;
namespace fs = std::filesystem;
using nlohmann::json;

bool verbose = false;  // --verbose: every settle's time and every pose's error on stderr

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

// The referee runs on one thread: its CPU time is its work, whatever else the machine is doing
// (a busy machine's preemptions would otherwise land in one frame or another at random).
double thread_cpu_seconds() {
  timespec ts{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
  return static_cast<double>(ts.tv_sec) + static_cast<double>(ts.tv_nsec) * 1e-9;
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

struct Game {
  fs::path dir;
  model::TableSpec table;
  model::DiskRegistry registry;
  std::optional<calib::CameraModel> lens;
  std::vector<model::TrackFrame> truth;
  json expected = json::object();
};

Game load_game(const fs::path& dir) {
  Game g;
  g.dir = dir;
  g.table = model::load_table(dir / "table.json");
  g.registry = model::load_disk_registry(dir / "disks.json");
  if (fs::exists(dir / "camera.json")) g.lens = calib::load_camera_model(dir / "camera.json");
  g.truth = model::load_track_jsonl(dir / "truth.jsonl");
  if (fs::exists(dir / "expected.json")) g.expected = json::parse(std::ifstream(dir / "expected.json"));
  return g;
}

std::unique_ptr<referee::Referee> new_referee(const Game& g) {
  auto ref = std::make_unique<referee::Referee>(referee::load_game_file(g.dir / "game.json", g.table, g.registry),
                                                g.table, g.registry);
  for (referee::Input& in : referee::load_inputs(g.dir / "inputs.jsonl")) ref->add_input(std::move(in));
  return ref;
}

struct VideoRun {
  std::unique_ptr<referee::Referee> ref;
  std::vector<double> track_s;    // the tracker's time per frame
  std::vector<double> settle_s;   // the referee's time on the frames the table settled (it reads and rules)
  std::vector<double> other_s;    // ...and on the others
  std::size_t settles_ruled = 0;  // settles on whose frame the log grew
};

VideoRun referee_video(const Game& g, const std::string& name) {
  VideoRun run;
  run.ref = new_referee(g);
  std::unique_ptr<vision::FrameSource> source = vision::prefetching(vision::open_video_file(g.dir / "video.mp4"));
  vision::Tracker tracker(g.table, g.registry, g.lens);
  const long long total = source->frame_count().value_or(0);
  bool was_settled = false;
  while (std::optional<vision::Frame> frame = source->next()) {
    Clock::time_point t0 = Clock::now();
    vision::TrackerResult result = tracker.process(frame->image, frame->index, frame->t);
    run.track_s.push_back(seconds_since(t0));
    const std::size_t before = run.ref->log().size();
    const double cpu0 = thread_cpu_seconds();
    run.ref->feed(result.track);
    const double took = thread_cpu_seconds() - cpu0;
    const bool settled = result.track.settled.value_or(false);
    const bool settles = settled && !was_settled;
    was_settled = settled;
    (settles ? run.settle_s : run.other_s).push_back(took);
    if (settles && run.ref->log().size() > before) ++run.settles_ruled;
    if (settles && verbose) std::fprintf(stderr, "\n  settle at %.3f s: referee %.3f ms\n", frame->t, took * 1e3);
    if (frame->index % 30 == 0) std::fprintf(stderr, "\r%s: frame %lld/%lld", name.c_str(), frame->index + 1, total);
  }
  std::fprintf(stderr, "\r%s: %zu frames tracked          \n", name.c_str(), run.track_s.size());
  run.ref->finish();
  return run;
}

std::unique_ptr<referee::Referee> referee_truth(const Game& g) {
  auto ref = new_referee(g);
  for (const model::TrackFrame& f : g.truth) {
    Clock::time_point t0 = Clock::now();
    ref->feed(f);
    if (verbose && seconds_since(t0) > 2e-3)
      std::fprintf(stderr, "  truth at %.3f s: referee %.3f ms\n", f.t, seconds_since(t0) * 1e3);
  }
  ref->finish();
  return ref;
}

// The entries read from the table, in order.
std::vector<json> readings(const json& log) {
  std::vector<json> out;
  for (const json& e : log["log"])
    if (e.contains("observed") && e.contains("action")) out.push_back(e);
  return out;
}
std::string what(const json& e) {
  return e["action"]["do"].get<std::string>() + " " + e["action"].value("ship", e["action"].value("disk", ""));
}
std::size_t flips(const json& e) {
  return e["observed"].contains("landings") ? e["observed"]["landings"].size() : 0;
}

// The truth's pose of `disk` in the frame nearest `t`.
std::optional<model::DiskTrack> truth_at(const Game& g, const std::string& disk, double t) {
  auto it = std::lower_bound(g.truth.begin(), g.truth.end(), t,
                             [](const model::TrackFrame& f, double v) { return f.t < v - 1e-6; });
  if (it == g.truth.end()) return std::nullopt;
  for (const model::DiskTrack& d : it->disks)
    if (d.name == disk && d.x && d.y) return d;
  return std::nullopt;
}

struct Warning {
  std::string kind, disk;
  double distance_mm = 0;
};
std::vector<Warning> warnings(const json& log) {
  std::vector<Warning> out;
  for (const json& e : log["log"])
    if (e.contains("warning"))
      out.push_back({e["warning"]["kind"], e["warning"]["disk"], e["warning"]["distance_mm"].get<double>()});
  return out;
}
bool same_kind(const Warning& a, const Warning& b) {
  return a.kind == b.kind && a.disk == b.disk;
}

// The books, with every pose taken out and compared apart (within `tolerance_mm`).
struct Books {
  json without_poses;
  std::map<std::string, std::pair<double, double>> poses;
};
Books books_of(json state) {
  Books b;
  for (const char* group : {"ships", "torpedoes", "terrain"}) {
    if (!state.contains(group)) continue;
    for (json& piece : state[group]) {
      if (!piece.contains("pose")) continue;
      b.poses[piece.value("id", "")] = {piece["pose"]["x"].get<double>(), piece["pose"]["y"].get<double>()};
      piece.erase("pose");
    }
  }
  b.without_poses = std::move(state);
  return b;
}
// Equal books but for poses; the largest pose difference, or nullopt when the books differ.
std::optional<double> books_match(const json& a, const json& b) {
  Books ba = books_of(a), bb = books_of(b);
  if (ba.without_poses != bb.without_poses || ba.poses.size() != bb.poses.size()) return std::nullopt;
  double worst = 0;
  for (const auto& [id, p] : ba.poses) {
    auto it = bb.poses.find(id);
    if (it == bb.poses.end()) return std::nullopt;
    worst = std::max(worst, std::hypot(p.first - it->second.first, p.second - it->second.second));
  }
  return worst;
}

struct Row {
  std::string name;
  std::size_t frames = 0;
  std::size_t readings_video = 0, readings_truth = 0;
  bool same_readings = true;
  std::size_t moves = 0, flips_right = 0;
  double end_error_max = 0;
  std::optional<double> final_pose_diff;  // nullopt: the books differ
  bool truth_books_are_play = false;      // the truth's referee ends as `play` on its script does
  std::size_t calls_clear = 0, calls_right = 0, too_close = 0;
  std::string expected_warning = "-";
  std::vector<std::string> other_warnings;
  bool expected_ok = true;
};

// The truth referee's game as a play script, played: its final state.
json played_final_state(const referee::Referee& truth, const fs::path& scratch) {
  std::ofstream(scratch) << truth.as_play_script().dump(1);
  rules::PlayResult played = rules::run_script(rules::load_script(scratch));
  fs::remove(scratch);
  return rules::state_to_json(played.final_state);
}

Row compare(const Game& g, const std::string& name, const VideoRun& video, const referee::Referee& truth) {
  Row row;
  row.name = name;
  row.frames = video.track_s.size();
  const json lv = video.ref->log_json(), lt = truth.log_json();
  std::vector<json> rv = readings(lv), rt = readings(lt);
  row.readings_video = rv.size();
  row.readings_truth = rt.size();
  for (std::size_t i = 0; i < std::max(rv.size(), rt.size()); ++i) {
    if (i >= rv.size() || i >= rt.size() || what(rv[i]) != what(rt[i])) {
      row.same_readings = false;
      break;
    }
    const json& v = rv[i];
    const json& t = rt[i];
    if (v["action"]["do"] == "move" || v["observed"].contains("landings")) {
      ++row.moves;
      if (flips(v) == flips(t)) ++row.flips_right;
    }
    // Every pose it read, against the truth at that pose's moment: each landing seen (at its time),
    // the end (at its last landing, or when read), where a collided ship was put down (when read).
    const std::string disk = v["observed"].value("disk", "");
    auto report = [&](const json& pose, double at, double x, double y) {
      const double e = std::hypot(pose["x"].get<double>() - x, pose["y"].get<double>() - y);
      row.end_error_max = std::max(row.end_error_max, e);
      if (verbose)
        std::fprintf(stderr, "  %s %s at %.3f s: %.2f mm from the truth\n", what(v).c_str(), disk.c_str(), at, e);
    };
    // A pose at a moment: the truth's in the frame nearest it.
    auto check = [&](const json& pose, double at) {
      if (pose.is_null() || !pose.contains("x")) return;
      if (auto truth_pose = truth_at(g, disk, at)) report(pose, at, *truth_pose->x, *truth_pose->y);
    };
    // A landing: the truth's landing of that disk nearest in time (the tracker dates a landing by
    // its rest, the truth by the frame the flip ends: a frame or two apart, a flip length away).
    auto check_landing = [&](const json& pose, double at) {
      if (pose.is_null() || !pose.contains("x")) return;
      const model::Landing* nearest = nullptr;
      for (const model::TrackFrame& f : g.truth)
        for (const model::Landing& l : f.landings)
          if (l.name == disk && std::fabs(l.t - at) < 1.0 &&
              (!nearest || std::fabs(l.t - at) < std::fabs(nearest->t - at)))
            nearest = &l;
      if (nearest)
        report(pose, at, nearest->x, nearest->y);
      else
        check(pose, at);
    };
    double end_t = v["t"].get<double>();
    bool landed = false;
    if (v["observed"].contains("landings"))
      for (const json& l : v["observed"]["landings"])
        if (!l.is_null()) {
          check_landing(l, l["t"].get<double>());
          end_t = l["t"].get<double>();
          landed = true;
        }
    if (v["observed"].contains("end")) {
      if (landed)
        check_landing(v["observed"]["end"], end_t);
      else
        check(v["observed"]["end"], end_t);
    }
    if (v["observed"].contains("placed")) check(v["observed"]["placed"], v["t"].get<double>());
    std::map<std::string, std::string> calls;
    for (const json& vt : t["observed"]["verdicts"])
      calls[fmt::format("{}|{}|{}", vt["kind"].get<std::string>(), vt.value("with", ""), vt.value("flip", 0))] =
          vt["call"];
    for (const json& vv : v["observed"]["verdicts"]) {
      if (vv["call"] == "too_close") ++row.too_close;
      if (!(std::fabs(vv["margin_mm"].get<double>()) > 2 * vv["sigma_mm"].get<double>())) continue;
      auto it =
          calls.find(fmt::format("{}|{}|{}", vv["kind"].get<std::string>(), vv.value("with", ""), vv.value("flip", 0)));
      if (it == calls.end()) continue;
      ++row.calls_clear;
      if (vv["call"] == it->second) ++row.calls_right;
    }
  }
  const json played = played_final_state(truth, g.dir / "truth-as-script.json");
  row.truth_books_are_play = books_match(played, lt["final_state"]).value_or(1.0) < 1e-6;
  row.final_pose_diff = books_match(played, lv["final_state"]);

  std::vector<Warning> wv = warnings(lv), wt = warnings(lt);
  std::optional<Warning> wanted;
  if (g.expected.contains("warning"))
    wanted = Warning{g.expected["warning"], g.expected["disk"], g.expected["designed_mm"].get<double>()};
  if (wanted) {
    auto find = [&](const std::vector<Warning>& ws) {
      return std::find_if(ws.begin(), ws.end(), [&](const Warning& w) { return same_kind(w, *wanted); });
    };
    auto in_video = find(wv), in_truth = find(wt);
    if (in_video == wv.end()) {
      row.expected_warning = fmt::format("{} {}: **missing**", wanted->kind, wanted->disk);
      row.expected_ok = false;
    } else {
      const double truth_mm = in_truth != wt.end() ? in_truth->distance_mm : std::nan("");
      row.expected_ok = in_truth != wt.end() && std::fabs(in_video->distance_mm - truth_mm) <= 3.0;
      row.expected_warning = fmt::format("{} {}: {:.2f} mm (truth {:.2f}, made {:.2f})", wanted->kind, wanted->disk,
                                         in_video->distance_mm, truth_mm, wanted->distance_mm);
    }
  }
  for (const Warning& w : wv) {
    if (wanted && same_kind(w, *wanted)) continue;
    const bool in_truth = std::any_of(wt.begin(), wt.end(), [&](const Warning& x) { return same_kind(w, x); });
    row.other_warnings.push_back(
        fmt::format("{} {} {:.1f} mm{}", w.kind, w.disk, w.distance_mm, in_truth ? "" : " (video only)"));
  }
  for (const Warning& w : wt)
    if (!(wanted && same_kind(w, *wanted)) &&
        std::none_of(wv.begin(), wv.end(), [&](const Warning& x) { return same_kind(w, x); }))
      row.other_warnings.push_back(fmt::format("{} {} (truth only)", w.kind, w.disk));
  return row;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : "; ") + p;
  return out.empty() ? "none" : out;
}

int run(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: referee_figures DIR...   (scripts/referee-figures.sh renders them)\n");
    return 2;
  }
  std::vector<Row> rows;
  if (std::string(argv[1]) == "--verbose") {
    verbose = true;
    ++argv;
    --argc;
  }
  std::vector<double> track_all, settle_all, other_all;
  std::size_t settles_ruled = 0;
  for (int i = 1; i < argc; ++i) {
    const fs::path dir = argv[i];
    const std::string name = dir.filename().string();
    Game g = load_game(dir);
    VideoRun video = referee_video(g, name);
    std::unique_ptr<referee::Referee> truth = referee_truth(g);
    rows.push_back(compare(g, name, video, *truth));
    track_all.insert(track_all.end(), video.track_s.begin(), video.track_s.end());
    settle_all.insert(settle_all.end(), video.settle_s.begin(), video.settle_s.end());
    settles_ruled += video.settles_ruled;
    other_all.insert(other_all.end(), video.other_s.begin(), video.other_s.end());
  }

  std::printf(
      "| game | frames | readings (video / truth) | flips right | poses read vs truth, max | final books vs play on "
      "the truth | calls right where margin > 2σ | too close | the warning it was made to show | other warnings |\n");
  std::printf("|---|---:|---|---|---:|---|---|---:|---|---|\n");
  bool all_ok = true;
  for (const Row& r : rows) {
    const bool ok = r.same_readings && r.flips_right == r.moves && r.end_error_max <= 1.0 && r.final_pose_diff &&
                    *r.final_pose_diff <= 1.0 && r.truth_books_are_play && r.calls_right == r.calls_clear &&
                    r.expected_ok;
    all_ok = all_ok && ok;
    std::printf(
        "| %s | %zu | %zu / %zu%s | %zu / %zu | %.2f mm | %s%s | %zu / %zu | %zu | %s | %s |\n", r.name.c_str(),
        r.frames, r.readings_video, r.readings_truth, r.same_readings ? "" : " **differ**", r.flips_right, r.moves,
        r.end_error_max,
        r.final_pose_diff ? fmt::format("equal (poses within {:.2f} mm)", *r.final_pose_diff).c_str() : "**differ**",
        r.truth_books_are_play ? "" : " (truth's own books differ from play!)", r.calls_right, r.calls_clear,
        r.too_close, r.expected_warning.c_str(), join(r.other_warnings).c_str());
  }
  const double track_median = median(track_all);
  const double settle_max = settle_all.empty() ? 0 : *std::max_element(settle_all.begin(), settle_all.end());
  std::printf(
      "\nverdict latency: %zu settles of the table, %zu of them ruled on at once (the others: nothing to "
      "read); the referee's CPU time on the settling frame: median %.3f ms, max %.3f ms = %.3f x the "
      "tracker's median (wall) time per frame (%.2f ms); on the other frames median %.4f ms\n",
      settle_all.size(), settles_ruled, median(settle_all) * 1e3, settle_max * 1e3,
      track_median > 0 ? settle_max / track_median : 0, track_median * 1e3, median(other_all) * 1e3);
  std::printf("%s\n", all_ok ? "every game read as its truth" : "NOT every game read as its truth (see the table)");
  return all_ok ? 0 : 1;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const io::InputError& e) {
    std::fprintf(stderr, "referee_figures: %s\n", e.what());
    return 2;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "referee_figures: %s\n", e.what());
    return 1;
  }
}
