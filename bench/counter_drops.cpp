// counter_drops: how well drops of damage counters are read from the table (docs/design/drops.md;
// `scripts/figures.sh counter_drops build/bench/counter_drops` writes docs/figures/counter_drops.md).
// Renders the drop variants of simulator/drop_variety.h
// (kept in --root between runs), tracks each video with the tracker, reads every drop as the
// referee does — a settle of the counters (referee/settle_watch.h) after the drop, the counters
// that moved since it began (referee/counter_reading.h) — and compares each counter with the truth
// at that moment:
//
//   flat & clear   it lies flat on the table, wholly inside the play area, its tag uncovered and
//                  in view, touching no other disk: it must be read, with the face that is up;
//   not clear      leaning on a ship or a counter, lying on one, on its edge, with another on or
//                  against it, covered (a hand, another counter), across the play area's edge, or
//                  lying flat against or within a few millimetres of a counter the camera cannot
//                  see (its tag hidden): it must be reported unreadable (asked about), never read.
//                  Asking about a flat counter beside one out of sight is the right answer, not a
//                  miss: from the picture alone, its part and the hidden one's are not told apart
//                  (decided with issue 35; docs/design/drops.md);
//   misread        read with a face other than the one up: must never happen.
//
// The time from the counters settling (the truth's moment the last counter of the drop stopped
// moving) to the result (the frame of the first reading that said what the drop's last reading
// said — complete, or asking what it kept asking until the counters were gathered — plus the
// tracker's and the reading's work on that frame), per drop, over the drops no hand was held over.
//
//   build/bench/counter_drops [--root DIR] [--only NAME,...] [--verbose] [--crops DIR] [--reseed K]
//
// Each render's folder also holds game.json, to watch its drops on the companion screen:
//   build/diskref ui --video build/counter-drops/NAME/video.mp4 --game build/counter-drops/NAME/game.json
//
// --reseed K drops the counters anew (every variant's seed plus K; same cameras and light, other
// drops), rendered into their own root: drops no one has looked at, to see that the figures hold
// on drops the reading was not developed on.
//   build/bench/counter_drops --root DIR --scenarios     (writes DIR/NAME.json for diskref render)

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <string>
#include <tuple>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "engine/geometry/distance.h"
#include "engine/geometry/outline.h"
#include "engine/geometry/shape.h"
#include "engine/io/atomic_write.h"
#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "referee/counter_reading.h"
#include "referee/game_file.h"
#include "referee/settle_watch.h"
#include "simulator/drop_variety.h"
#include "simulator/scenario.h"
#include "simulator/scene.h"
#include "simulator/table_surface.h"
#include "simulator/timeline.h"
#include "simulator/truth.h"
#include "vision/frame_source.h"
#include "vision/prefetching_source.h"
#include "vision/tracker.h"

namespace {

using namespace diskref;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using nlohmann::json;

bool verbose = false;
fs::path crops_dir;  // --crops: a picture of every counter read wrong, or asked about though flat & clear

double seconds_since(Clock::time_point start) {
  return std::chrono::duration<double>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v.size() % 2 ? v[v.size() / 2] : (v[v.size() / 2 - 1] + v[v.size() / 2]) / 2;
}

// What the truth says of a dropped counter when its drop is read.
enum class Truth { flat_clear, leaning, on_disk, edge, under, covered, off_area, beside_unseen, gone };
const char* to_string(Truth t) {
  switch (t) {
    case Truth::flat_clear:
      return "flat & clear";
    case Truth::leaning:
      return "leaning";
    case Truth::on_disk:
      return "on a disk";
    case Truth::edge:
      return "on its edge";
    case Truth::under:
      return "under another";
    case Truth::covered:
      return "covered";
    case Truth::off_area:
      return "across the edge";
    case Truth::beside_unseen:
      return "beside one out of sight";
    case Truth::gone:
      return "gone";
  }
  return "?";
}

struct Tally {
  int drops = 0, counters = 0;
  int clear = 0, read_right = 0, misread = 0, clear_asked = 0;
  int not_clear = 0, reported = 0, read_not_clear = 0;
  std::map<Truth, int> by_truth;
  int read_before_rest = 0;            // a drop read while one of its counters still moved (must be 0)
  int complete = 0;                    // drops read whole (every counter read): what the rules would be given
  int complete_right = 0;              // ...whose hits are the truth's
  int unread_drops = 0;                // drops never read (no settle after them)
  std::vector<double> latency_s;       // drops no hand was held over
  std::vector<double> hand_latency_s;  // drops a hand was held over
  std::vector<double> work_ms;         // the tracker's and the reading's work on the result's frame
  double px_per_cell = 0;

  void add(const Tally& o) {
    drops += o.drops, counters += o.counters, clear += o.clear, read_right += o.read_right, misread += o.misread;
    clear_asked += o.clear_asked, not_clear += o.not_clear, reported += o.reported, read_not_clear += o.read_not_clear;
    for (const auto& [k, n] : o.by_truth) by_truth[k] += n;
    read_before_rest += o.read_before_rest, unread_drops += o.unread_drops;
    complete += o.complete, complete_right += o.complete_right;
    latency_s.insert(latency_s.end(), o.latency_s.begin(), o.latency_s.end());
    hand_latency_s.insert(hand_latency_s.end(), o.hand_latency_s.begin(), o.hand_latency_s.end());
    work_ms.insert(work_ms.end(), o.work_ms.begin(), o.work_ms.end());
  }
};

// The scene of a rendered variant, for the truth.
struct Scene {
  explicit Scene(const fs::path& dir)
      : doc(json::parse(std::ifstream(dir / "scenario.json"))),
        scenario(simulator::parse_scenario(io::JsonCursor(doc, (dir / "scenario.json").string()), dir)),
        surface(scenario.table, scenario.surface, 1.0, 1),
        timeline(scenario) {
    model.surface = &surface;
    for (const model::DiskSpec& d : scenario.registry.disks()) model.disks.emplace_back(d);
  }
  json doc;
  simulator::Scenario scenario;
  simulator::TableSurface surface;
  simulator::SceneModel model;
  simulator::Timeline timeline;
};

struct Drop {
  double begins = 0;  // the hand comes (the drop asked for by then)
  double released = 0;
  double rested = 0;    // the last of its counters stopped moving
  double ends = 1e300;  // the next hand comes to gather them
  bool hand = false;    // a hand was held over it
  std::vector<const simulator::CounterLanding*> counters;
  std::optional<model::TrackFrame> baseline;
  std::optional<referee::CounterReading> reading;
  model::TrackFrame read_from;  // the table the reading was made from
  cv::Mat picture;              // ...and its frame (--crops)
  std::shared_ptr<const calib::CameraPose> table_pose;
  double read_t = 0, work_ms = 0;
  // Every reading until it was complete or the next hand came: (time, work on that frame, what it said).
  std::vector<std::tuple<double, double, std::string>> history;
};

// What a reading says, to tell when it stopped changing: each counter read (with its face) or
// asked about, the slots still open, the problem.
std::string says(const referee::CounterReading& r) {
  std::string out = r.problem;
  for (const referee::CounterSeen& c : r.counters) {
    out += '|';
    out += c.name;
    out += c.readable ? (c.face == model::Face::up ? ":up" : ":down") : "?";
  }
  for (const referee::DropSlot& slot : r.slots) out += slot.shows ? '+' : '-';
  return out;
}

geom::PlacedShape outline_at(const Scene& s, std::size_t disk, const simulator::DiskInstant& d) {
  return {s.scenario.registry.disks()[disk].shape,
          geom::Pose::from_degrees(d.translation[0], d.translation[1],
                                   std::atan2(d.rotation(1, 0), d.rotation(0, 0)) * 180 / CV_PI)};
}

// The truth of one counter of a drop at the moment it was read.
Truth truth_of(const Scene& s, const simulator::GroundTruth& gt, const simulator::SceneInstant& at,
               const simulator::CounterLanding& landing) {
  const simulator::DiskInstant* me = nullptr;
  for (const simulator::DiskInstant& d : at.disks)
    if (d.disk == landing.disk) me = &d;
  if (me == nullptr) return Truth::gone;
  switch (landing.kind) {
    case simulator::CounterRestKind::leaning:
      return Truth::leaning;
    case simulator::CounterRestKind::on_disk:
      return Truth::on_disk;
    case simulator::CounterRestKind::edge:
      return Truth::edge;
    case simulator::CounterRestKind::flat:
      break;
  }
  // Another lying on or against it (or, generated so, crossing its outline).
  const geom::PlacedShape self = outline_at(s, landing.disk, *me);
  const std::string& name = s.scenario.registry.disks()[landing.disk].name;
  for (const simulator::CounterLanding& other : s.timeline.counter_landings()) {
    if (other.on != name || other.t > at.t || other.released < landing.released) continue;
    // ...as it lies now: its latest landing, and it has not been gathered since.
    bool latest = true;
    for (const simulator::CounterLanding& later : s.timeline.counter_landings())
      if (later.disk == other.disk && later.released > other.released && later.released <= at.t) latest = false;
    if (!latest) continue;
    for (const simulator::DiskInstant& d : at.disks)
      if (d.disk == other.disk) return Truth::under;
  }
  for (const simulator::DiskInstant& d : at.disks) {
    if (d.disk == landing.disk) continue;
    if (geom::signed_distance(self, outline_at(s, d.disk, d)).distance < -0.5 && d.translation[2] > 0.5)
      return Truth::under;
  }
  if (!gt.tag_visible(at, *me)) return Truth::covered;
  const geom::Vec2 area = s.scenario.table.play_area_mm;
  for (geom::Vec2 dir : {geom::Vec2{1, 0}, geom::Vec2{-1, 0}, geom::Vec2{0, 1}, geom::Vec2{0, -1}}) {
    const geom::Vec2 p = geom::support(self, dir);
    if (p.x < 0 || p.y < 0 || p.x > area.x || p.y > area.y) return Truth::off_area;
  }
  // A counter out of sight beside it: the picture cannot say which of the two the pixels between
  // them belong to, so asking is right. "Beside": touching or within a few millimetres, the gap a
  // shadow and a blurred edge fill at the cameras' scale (0.5-1 mm a pixel).
  constexpr double kBesideMm = 3.0;
  for (const simulator::DiskInstant& d : at.disks) {
    if (d.disk == landing.disk || s.scenario.registry.disks()[d.disk].kind != model::DiskKind::counter) continue;
    if (gt.tag_visible(at, d)) continue;
    if (geom::signed_distance(self, outline_at(s, d.disk, d)).distance < kBesideMm) return Truth::beside_unseen;
  }
  return Truth::flat_clear;
}

// The frame around a counter, four times enlarged: the truth's outlines of it and of what it rests
// on (red), the foreign parts' outlines as the tracker gave them (green), the parts it gave as boxes (blue).
void write_crop(const fs::path& file, const cv::Mat& frame, const calib::CameraPose& pose,
                const model::TrackFrame& track, const Scene& scene, const simulator::SceneInstant& at,
                const std::string& name, const std::string& on) {
  const model::DiskRegistry& registry = scene.scenario.registry;
  const simulator::DiskInstant* me = nullptr;
  for (const simulator::DiskInstant& d : at.disks)
    if (registry.disks()[d.disk].name == name) me = &d;
  if (me == nullptr || frame.empty()) return;
  const double span = 45;
  std::vector<cv::Point3d> corners;
  for (double dx : {-span, span})
    for (double dy : {-span, span}) corners.emplace_back(me->translation[0] + dx, me->translation[1] + dy, 0.0);
  std::vector<cv::Point2d> px = calib::image_from_table(pose, corners);
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  for (const cv::Point2d& p : px)
    x0 = std::min(x0, p.x), y0 = std::min(y0, p.y), x1 = std::max(x1, p.x), y1 = std::max(y1, p.y);
  const cv::Rect roi = cv::Rect(cv::Point(static_cast<int>(x0), static_cast<int>(y0)),
                                cv::Point(static_cast<int>(x1), static_cast<int>(y1))) &
                       cv::Rect(cv::Point(), frame.size());
  if (roi.area() == 0) return;
  constexpr int k = 4;
  cv::Mat out;
  cv::resize(frame(roi), out, roi.size() * k, 0, 0, cv::INTER_NEAREST);
  auto to_out = [&](const cv::Point2d& p) {
    return cv::Point(static_cast<int>((p.x - roi.x) * k), static_cast<int>((p.y - roi.y) * k));
  };
  auto outline = [&](const std::vector<cv::Point3d>& ring, const cv::Scalar& colour) {
    std::vector<cv::Point> pts;
    for (const cv::Point2d& p : calib::image_from_table(pose, ring)) pts.push_back(to_out(p));
    cv::polylines(out, std::vector<std::vector<cv::Point>>{pts}, true, colour, 1);
  };
  for (const simulator::DiskInstant& d : at.disks) {
    const std::string& n = registry.disks()[d.disk].name;
    if (n != name && n != on) continue;
    std::vector<cv::Point3d> ring;
    for (const geom::Vec2& p : geom::outline_polygon(outline_at(scene, d.disk, d), 7.5))
      ring.emplace_back(p.x, p.y, d.translation[2]);
    outline(ring, cv::Scalar(0, 0, 255));
  }
  for (const model::ForeignBox& b : track.foreign) {
    std::vector<cv::Point3d> ring;
    if (b.outline.empty()) {
      ring = {{b.x0, b.y0, 0}, {b.x1, b.y0, 0}, {b.x1, b.y1, 0}, {b.x0, b.y1, 0}};
      outline(ring, cv::Scalar(255, 0, 0));
    } else {
      for (const geom::Vec2& p : b.outline) ring.emplace_back(p.x, p.y, 0.0);
      outline(ring, cv::Scalar(0, 200, 0));
    }
  }
  cv::imwrite(file.string(), out);
}

Tally run_variant(const simulator::DropVariant& v, const fs::path& root, const fs::path& samples) {
  (void)samples;
  std::fprintf(stderr, "%s: rendering (kept in %s)...\n", v.name.c_str(), (root / v.name).c_str());
  const Clock::time_point render_start = Clock::now();
  const fs::path dir = simulator::render_drop_variant(v, root);
  std::fprintf(stderr, "%s: rendered in %.0f s\n", v.name.c_str(), seconds_since(render_start));
  Scene scene(dir);
  const model::TableSpec table = model::load_table(dir / "table.json");
  model::DiskRegistry registry = model::load_disk_registry(dir / "disks.json");
  const calib::CameraModel lens = calib::load_camera_model(dir / "camera.json");
  simulator::GroundTruth gt(scene.model, scene.scenario.rig);
  // A game file beside the video, to watch these drops on the companion screen; loaded here as
  // the screen will load it.
  io::write_file_atomically(
      dir / "game.json", simulator::drop_variant_game(fs::path(DISKREF_SOURCE_DIR) / "data" / "rules").dump(1) + "\n");
  (void)referee::load_game_file(dir / "game.json", table, registry);

  // The drops, from the timeline.
  std::vector<Drop> drops;
  for (const simulator::CounterLanding& l : scene.timeline.counter_landings()) {
    if (l.drop >= drops.size()) drops.resize(l.drop + 1);
    Drop& d = drops[l.drop];
    if (d.counters.empty()) d.released = l.released;
    d.released = std::min(d.released, l.released);
    d.rested = std::max(d.rested, l.t);
    d.counters.push_back(&l);
  }
  for (Drop& d : drops) d.begins = d.released - 0.5;
  for (const simulator::ScenarioEvent& ev : scene.scenario.events) {
    if (std::holds_alternative<simulator::HandEvent>(ev.what))
      for (Drop& d : drops)
        if (ev.t > d.released && ev.t < d.rested + 0.5) d.hand = true;
    if (!std::holds_alternative<simulator::HandEvent>(ev.what))
      for (Drop& d : drops)
        if (ev.t > d.released) d.ends = std::min(d.ends, ev.t);
  }

  double largest = 0;
  for (const model::DiskSpec& d : registry.disks())
    if (d.kind == model::DiskKind::counter) largest = std::max(largest, 2 * geom::bounding_radius(d.shape));
  referee::SettleWatch watch({0.2, 2.5 * largest});
  vision::Tracker tracker(table, registry, lens);
  std::unique_ptr<vision::FrameSource> source = vision::prefetching(vision::open_video_file(dir / "video.mp4"));
  model::TrackFrame last_look;
  Tally tally;
  while (std::optional<vision::Frame> frame = source->next()) {
    const Clock::time_point t0 = Clock::now();
    vision::TrackerResult result = tracker.process(frame->image, frame->index, frame->t);
    for (Drop& d : drops)
      if (!d.baseline && frame->t >= d.begins) d.baseline = last_look;
    std::optional<referee::TableSettle> settle = watch.feed(result.track);
    if (settle) {
      last_look = settle->snapshot;
      // Every settle after the drop until the next hand comes reads it again, as the referee does
      // while the drop waits; the result is the first complete reading, else the last.
      for (Drop& d : drops) {
        if (!d.baseline || (d.reading && d.reading->complete()) || settle->t < d.released || settle->t >= d.ends)
          continue;
        referee::CounterReadingInput in;
        in.need.purpose = "damage";
        in.need.subject = "bench";
        in.need.counters = static_cast<int>(d.counters.size());
        in.now = settle->snapshot;
        in.baseline = *d.baseline;
        in.registry = &registry;
        in.play_area_mm = table.play_area_mm;
        referee::CounterReading reading = referee::read_counters(in);
        if (reading.nothing_dropped()) continue;
        d.history.emplace_back(settle->t, seconds_since(t0) * 1e3, says(reading));
        d.reading = std::move(reading);
        d.read_from = settle->snapshot;
        if (!crops_dir.empty()) {
          d.picture = frame->image.clone();
          d.table_pose = result.table_pose;
        }
      }
    }
    if (frame->index % 30 == 0) std::fprintf(stderr, "\r%s: tracking frame %lld", v.name.c_str(), frame->index);
    if (tally.px_per_cell == 0 && result.table_pose) {
      // Pixels per tag cell where the table's middle is, for the table.
      const double cell = 14.5 / 5;
      const double c = table.play_area_mm.x / 2;
      auto q = calib::image_from_table(*result.table_pose, {{c, c, 2.0}, {c + cell, c, 2.0}, {c, c + cell, 2.0}});
      tally.px_per_cell = std::sqrt(std::fabs((q[1] - q[0]).x * (q[2] - q[0]).y - (q[1] - q[0]).y * (q[2] - q[0]).x));
    }
  }
  std::fprintf(stderr, "\r%s: tracked                 \n", v.name.c_str());

  for (std::size_t k = 0; k < drops.size(); ++k) {
    Drop& d = drops[k];
    ++tally.drops;
    tally.counters += static_cast<int>(d.counters.size());
    if (!d.reading) {
      ++tally.unread_drops;
      std::fprintf(stderr, "%s: drop %zu never read\n", v.name.c_str(), k);
      continue;
    }
    // The result: the first reading that said what the last one says (the drop complete, or its
    // questions as they stayed until the counters were gathered).
    for (std::size_t k2 = d.history.size(); k2-- > 0;) {
      if (std::get<2>(d.history[k2]) != std::get<2>(d.history.back())) break;
      d.read_t = std::get<0>(d.history[k2]);
      d.work_ms = std::get<1>(d.history[k2]);
    }
    if (d.read_t < d.rested) ++tally.read_before_rest;
    const double latency = d.read_t - d.rested + d.work_ms / 1e3;
    (d.hand ? tally.hand_latency_s : tally.latency_s).push_back(latency);
    tally.work_ms.push_back(d.work_ms);
    if (d.reading->complete()) {
      // What the rules are given against the truth: the HIT! faces among the counters dropped.
      int truth_hits = 0;
      for (const simulator::CounterLanding* l : d.counters) {
        const model::CounterFace* f = model::counter_face(registry.disks()[l->disk], l->pose.face);
        truth_hits += f != nullptr && f->shows == model::CounterFace::Shows::hit;
      }
      ++tally.complete;
      if (d.reading->hits() == truth_hits) ++tally.complete_right;
    }
    const simulator::SceneInstant at = scene.timeline.at(d.read_t);
    for (const simulator::CounterLanding* l : d.counters) {
      const std::string& name = registry.disks()[l->disk].name;
      const Truth truth = truth_of(scene, gt, at, *l);
      ++tally.by_truth[truth];
      const referee::CounterSeen* seen = nullptr;
      for (const referee::CounterSeen& c : d.reading->counters)
        if (c.name == name) seen = &c;
      const bool read = seen != nullptr && seen->readable;
      const bool right = read && seen->face == l->pose.face;
      if (read && !right) ++tally.misread;
      if (truth == Truth::flat_clear) {
        ++tally.clear;
        if (right) ++tally.read_right;
        if (!read) ++tally.clear_asked;
      } else {
        ++tally.not_clear;
        if (read)
          ++tally.read_not_clear;
        else
          ++tally.reported;
      }
      if (verbose || (truth == Truth::flat_clear && !right) || (truth != Truth::flat_clear && read))
        std::fprintf(stderr, "  %s drop %zu %s (%s, truth face %s): %s%s\n", v.name.c_str(), k, name.c_str(),
                     to_string(truth), std::string(model::to_string(l->pose.face)).c_str(),
                     seen == nullptr ? "not seen"
                     : read          ? (right ? "read right" : "MISREAD")
                                     : "asked",
                     seen != nullptr && !seen->why.empty() ? (": " + seen->why).c_str() : "");
      if (!crops_dir.empty() && d.table_pose &&
          ((truth == Truth::flat_clear && !right) || (truth != Truth::flat_clear && read)))
        write_crop(crops_dir / fmt::format("{}-drop{}-{}.png", v.name, k, name), d.picture, *d.table_pose, d.read_from,
                   scene, at, name, l->on);
      if (verbose && l->on.empty() && truth != Truth::flat_clear)
        std::fprintf(stderr, "      it lies at (%.1f, %.1f)\n", l->pose.x, l->pose.y);
      if (verbose && !l->on.empty()) {
        // What the camera made of the disk it rests on or against, and the parts it could not explain.
        const model::TrackFrame& f = d.read_from;
        const std::size_t n_foreign = f.foreign.size();
        std::string on_seen = "not tracked";
        if (const model::DiskTrack* t = model::find_track(f, l->on))
          on_seen = fmt::format("{}{}", model::to_string(t->state),
                                t->x ? fmt::format(" at ({:.1f}, {:.1f})", *t->x, *t->y) : std::string());
        std::string on_truth;
        for (const simulator::DiskInstant& di : at.disks)
          if (registry.disks()[di.disk].name == l->on)
            on_truth = fmt::format(", truly at ({:.1f}, {:.1f}, z {:.1f})", di.translation[0], di.translation[1],
                                   di.translation[2]);
        std::fprintf(stderr, "      on %s (%s%s); it lies at (%.1f, %.1f); %zu foreign parts\n", l->on.c_str(),
                     on_seen.c_str(), on_truth.c_str(), l->pose.x, l->pose.y, static_cast<std::size_t>(n_foreign));
        for (const model::ForeignBox& b : f.foreign)
          std::fprintf(stderr, "        part (%.0f..%.0f, %.0f..%.0f) %zu points, against %s\n", b.x0, b.x1, b.y0, b.y1,
                       b.outline.size(), fmt::format("{}", fmt::join(b.against, ",")).c_str());
      }
    }
    if (verbose)
      std::fprintf(stderr, "  %s drop %zu: %zu counters, rest %.3f s, read %.3f s (%.0f ms)%s\n", v.name.c_str(), k,
                   d.counters.size(), d.rested, d.read_t, latency * 1e3, d.hand ? ", a hand held over it" : "");
  }
  return tally;
}

std::string percent(int part, int whole) {
  return whole == 0 ? "-" : fmt::format("{:.1f} %", 100.0 * part / whole);
}

void print_row(const std::string& name, const Tally& t) {
  std::string kinds;
  for (const auto& [k, n] : t.by_truth)
    if (k != Truth::flat_clear) kinds += fmt::format("{}{} {}", kinds.empty() ? "" : ", ", n, to_string(k));
  std::printf("| %s | %s | %d | %d | %d | %d / %d (%s) | %d | %d | %d | %s | %d / %d | %d | %s | %s |\n", name.c_str(),
              t.px_per_cell > 0 ? fmt::format("{:.1f}", t.px_per_cell).c_str() : "-", t.drops, t.counters, t.clear,
              t.read_right, t.clear, percent(t.read_right, t.clear).c_str(), t.misread, t.clear_asked, t.not_clear,
              kinds.empty() ? "-" : kinds.c_str(), t.reported, t.not_clear, t.read_not_clear,
              t.latency_s.empty() ? "-"
                                  : fmt::format("{:.0f} / {:.0f} ms", 1e3 * median(t.latency_s),
                                                1e3 * *std::max_element(t.latency_s.begin(), t.latency_s.end()))
                                        .c_str(),
              t.hand_latency_s.empty() ? "-" : fmt::format("{:.1f} s", median(t.hand_latency_s)).c_str());
}

}  // namespace

int main(int argc, char** argv) {
  fs::path root = "build/counter-drops";
  fs::path samples = fs::path(DISKREF_SOURCE_DIR) / "sample_videos";
  std::vector<std::string> only;
  bool root_given = false;
  uint64_t reseed = 0;
  bool scenarios_only = false;
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--root" && i + 1 < argc) {
      root = argv[++i];
      root_given = true;
    } else if (a == "--reseed" && i + 1 < argc) {
      const std::string k = argv[++i];
      if (k.empty() || k.find_first_not_of("0123456789") != std::string::npos) {
        std::fprintf(stderr, "counter_drops: --reseed takes a whole number, not '%s'\n", k.c_str());
        return 2;
      }
      reseed = std::stoull(k);
    } else if (a == "--only" && i + 1 < argc) {
      std::string list = argv[++i];
      for (std::size_t p = 0; p != std::string::npos;) {
        const std::size_t q = list.find(',', p);
        only.push_back(list.substr(p, q == std::string::npos ? q : q - p));
        p = q == std::string::npos ? q : q + 1;
      }
    } else if (a == "--crops" && i + 1 < argc) {
      crops_dir = argv[++i];
      fs::create_directories(crops_dir);
    } else if (a == "--verbose") {
      verbose = true;
    } else if (a == "--scenarios") {
      scenarios_only = true;
    } else {
      std::fprintf(
          stderr,
          "usage: counter_drops [--root DIR] [--only NAME,...] [--verbose] [--crops DIR] [--reseed K] [--scenarios]\n");
      return 2;
    }
  }
  std::vector<simulator::DropVariant> variants = simulator::standard_drop_variants(samples);
  if (reseed != 0) {
    for (simulator::DropVariant& v : variants) v.seed += reseed;
    if (!root_given) root += fmt::format("-reseed-{}", reseed);
    std::printf("drops anew: every variant's seed plus %llu, rendered in %s\n\n",
                static_cast<unsigned long long>(reseed), root.string().c_str());
  }
  fs::create_directories(root);
  if (scenarios_only) {
    // Only the scenarios, for `diskref render`: ROOT/NAME.json.
    for (const simulator::DropVariant& v : variants)
      std::ofstream(root / (v.name + ".json")) << simulator::varied_drops(v).dump(1) << "\n";
    return 0;
  }
  Tally all;
  std::vector<std::pair<std::string, Tally>> rows;
  for (const simulator::DropVariant& v : variants) {
    if (!only.empty() && std::find(only.begin(), only.end(), v.name) == only.end()) continue;
    Tally t = run_variant(v, root, samples);
    rows.emplace_back(v.name, t);
    all.add(t);
  }
  std::printf(
      "| camera | px/cell (middle) | drops | counters | flat & clear | read right | misread | flat & clear asked | not "
      "clear | "
      "which | reported unreadable | read though not clear | rest → result, median / max | with a hand held still |\n");
  std::printf("|---|---:|---:|---:|---:|---|---:|---:|---:|---|---|---:|---|---|\n");
  for (const auto& [name, t] : rows) print_row(name, t);
  print_row("**all**", all);
  std::printf(
      "\nmisread: %d; read though not flat & clear: %d; drops read while a counter still moved: %d; drops never read: "
      "%d\n",
      all.misread, all.read_not_clear, all.read_before_rest, all.unread_drops);
  std::printf(
      "drops read whole (every counter read, no question: the rules given the drop): %d of %d, their hits the truth's: "
      "%d\n",
      all.complete, all.drops, all.complete_right);
  const auto slow = std::count_if(all.latency_s.begin(), all.latency_s.end(), [](double s) { return s > 0.3; });
  std::printf("drops no hand was held over, read: %zu; their result more than 300 ms after the counters settled: %ld\n",
              all.latency_s.size(), static_cast<long>(slow));
  std::printf("work on the result's frame (tracker + reading): median %.1f ms, max %.1f ms\n", median(all.work_ms),
              all.work_ms.empty() ? 0.0 : *std::max_element(all.work_ms.begin(), all.work_ms.end()));
  return 0;
}
