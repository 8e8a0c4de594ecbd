// Torpedoes read from the table (torpedo_reading.h): a torpedo put in the launcher's bay and flipped on its
// launch run, and every torpedo's run at the end of a phase.
#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "engine/rules/table_geometry.h"
#include "referee/input_places.h"
#include "referee/referee_queries.h"
#include "referee/torpedo_reading.h"

namespace diskref::referee {

// --- A torpedo put in the bay and launched.

void TorpedoReader::read_launch(const TableSettle& settle) {
  PendingLaunch& p = std::get<PendingLaunch>(*pending_);
  if (p.torpedo.empty()) return;
  std::vector<Rest> rests = landings_.landings_of(settle, p.torpedo);
  std::optional<Rest> now = rest_of(p.torpedo, settle.snapshot);
  bool visible = false;
  for (const model::DiskTrack& d : settle.snapshot.disks)
    if (d.name == p.torpedo) visible = d.state == model::TrackState::visible;
  if (now && visible &&
      (rests.empty() ||
       geom::distance(rests.back().pose.position, now->pose.position) >= landings_.flip_length(p.torpedo) / 2))
    rests.push_back(*now);
  else if (now && visible && !rests.empty())
    rests.back() = *now;
  geom::Shape shape = registry_.find(p.torpedo)->shape;
  const rules::ShipState* launcher = ship_in(books_.state, p.launcher);
  // The bay: touching the middle of the launcher's front, facing its heading.
  std::optional<geom::Pose> bay;
  if (launcher != nullptr) {
    geom::Vec2 dir = launcher->pose.heading_dir();
    double front = geom::dot(geom::support(rules::placed(*launcher), dir) - launcher->pose.position, dir);
    double back = -geom::support_local(shape, {-1, 0}).x;
    bay = geom::Pose{launcher->pose.position + (front + back) * dir, launcher->pose.rotation};
  }
  for (const Rest& r : rests) {
    if (!p.placed) {
      // Its first rest is where it was put in the bay; when that rest lies a flip or more from
      // the bay, the placement was not seen (it was flipped before the table settled, under a
      // hand): the bay stands in for it, known to half the tolerance.
      if (bay && geom::distance(r.pose.position, bay->position) >= landings_.flip_length(p.torpedo) / 2) {
        p.placed = Rest{*bay, r.face, options_.off_path_tolerance_mm / 2, r.t};
        p.placement_seen = false;
        p.rests.push_back(r);
        continue;
      }
      p.placed = r;
      continue;
    }
    p.rests.push_back(r);
  }
  if (!p.placed) return;
  ReadingInput in{*p.placed,  p.rests,           landings_.flip_length(p.torpedo),
                  p.movement, Turns::every_flip, options_.off_path_tolerance_mm,
                  180};
  in.start_face_known = p.placement_seen;
  MoveReading reading = read_move(in);
  const RunContext c = run_context(p.torpedo, shape);
  std::vector<Verdict> verdicts = run_verdicts(reading, c);
  bool struck = std::any_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) {
    return v.kind == VerdictKind::torpedo_contact && v.call != Call::no;
  });
  bool done = reading.flips >= p.movement || (reading.flips > 0 && (struck || !visible));
  if (!done) return;

  auto& exec = std::get<rules::ExecuteOrder>(p.entered.action.body);
  auto& launch = std::get<rules::LaunchTorpedo>(exec.body);
  if (!launch.torpedo.empty() && launch.torpedo != p.torpedo && !p.entered.inputs.empty())
    rulings_.warn(
        settle.t,
        {"input", p.torpedo, 0,
         fmt::format("{}: {} was named, {} was put in the bay: the table's is taken",
                     member_place(effective_[p.entered.inputs.front()], "torpedo"), launch.torpedo, p.torpedo)},
        {p.entered.inputs.front()});
  launch.torpedo = p.torpedo;
  launch.shape = shape;
  launch.placed = p.placed->pose;
  launch.run = rules::TableRun{};
  for (const ReadLanding& l : reading.landings) launch.run->landings.push_back(l.pose);
  Observed o;
  o.disk = p.torpedo;
  o.start = p.placed;
  for (const ReadLanding& l : reading.landings) o.landings.push_back(l.seen);
  o.legal_landings = reading.legal;
  o.drift_mm = reading.drift_mm;
  o.end = reading.end;
  std::vector<Warning> warnings;
  if (reading.max_drift_mm > options_.off_path_tolerance_mm)
    warnings.push_back(
        {"off_path", p.torpedo, reading.max_drift_mm,
         fmt::format("{} landed {:.1f} mm off a flip length on its launch run: the books keep where it lies", p.torpedo,
                     reading.max_drift_mm)});
  if (bay && p.placement_seen) {
    double off = geom::distance(bay->position, p.placed->pose.position);
    if (off > options_.off_path_tolerance_mm)
      warnings.push_back({"off_path", p.torpedo, off,
                          fmt::format("{} was put {:.1f} mm from {}'s bay: the books keep where it lies", p.torpedo,
                                      off, p.launcher)});
  }
  // Read: the launch is an action to complete.
  PendingAction read;
  static_cast<ActionDraft&>(read) = std::move(p.entered);
  read.disk = p.launcher;
  read.verdicts = verdicts;
  corrections_.apply_overrides(p.torpedo, books_.settle_index, read.decisions);
  read.observed = o;
  read.warnings = std::move(warnings);
  pending_.emplace(std::move(read));
  question_.try_complete(settle.t);
}

// --- The torpedoes' runs at the end of a phase.

void TorpedoReader::begin_torpedo_runs(double t) {
  PendingTorpedoRuns p;
  for (const rules::Torpedo& torpedo : books_.state.torpedoes) {
    TorpedoRun run;
    run.start = Rest{torpedo.pose, model::Face::up, books_.sigma_of(torpedo.id), t};
    for (const model::DiskTrack& d : books_.last_settled.disks)
      if (d.name == torpedo.id) run.start.face = d.face;
    run.movement = torpedo.movement;
    p.runs[torpedo.id] = run;
  }
  pending_.emplace(std::move(p));
}

void TorpedoReader::read_torpedo_runs(const TableSettle& settle) {
  PendingTorpedoRuns& p = std::get<PendingTorpedoRuns>(*pending_);
  bool all_done = true;
  std::map<std::string, MoveReading> readings;
  for (auto& [id, run] : p.runs) {
    std::vector<Rest> rests = landings_.landings_of(settle, id);
    std::optional<Rest> now;
    bool visible = false;
    for (const model::DiskTrack& d : settle.snapshot.disks)
      if (d.name == id) visible = d.state == model::TrackState::visible;
    if (visible) now = rest_of(id, settle.snapshot);
    if (now && (rests.empty() ||
                geom::distance(rests.back().pose.position, now->pose.position) >= landings_.flip_length(id) / 2))
      rests.push_back(*now);
    else if (now && !rests.empty())
      rests.back() = *now;
    run.rests.insert(run.rests.end(), rests.begin(), rests.end());
    if (!visible && !run.rests.empty()) run.gone = true;
    ReadingInput in{run.start,    run.rests,       landings_.flip_length(id),
                    run.movement, Turns::at_start, options_.off_path_tolerance_mm,
                    180};
    readings[id] = read_move(in);
    const MoveReading& r = readings[id];
    // A run ends after its movement, or where it struck a ship (the player then takes it off).
    bool struck = false;
    if (!r.landings.empty()) {
      const rules::Torpedo* t = nullptr;
      for (const rules::Torpedo& torpedo : books_.state.torpedoes)
        if (torpedo.id == id) t = &torpedo;
      const RunContext c = run_context(id, t->shape);
      for (const Verdict& v : run_verdicts(r, c))
        struck = struck || (v.kind == VerdictKind::torpedo_contact && v.call != Call::no && v.flip == r.flips);
    }
    if (!(r.flips >= run.movement || run.gone || struck)) all_done = false;
  }
  if (!all_done) return;
  rules::MoveTorpedoes move;
  std::vector<Verdict> verdicts;
  std::vector<Warning> warnings;
  Observed o;
  for (auto& [id, r] : readings) {
    rules::TableRun run;
    for (const ReadLanding& l : r.landings) run.landings.push_back(l.pose);
    if (!r.landings.empty()) {
      const rules::Torpedo* t = nullptr;
      for (const rules::Torpedo& torpedo : books_.state.torpedoes)
        if (torpedo.id == id) t = &torpedo;
      const RunContext c = run_context(id, t->shape);
      for (const Verdict& v : run_verdicts(r, c)) verdicts.push_back(v);
      if (r.max_drift_mm > options_.off_path_tolerance_mm)
        warnings.push_back(
            {"off_path", id, r.max_drift_mm,
             fmt::format("{} landed {:.1f} mm off its run: the books keep where it lies", id, r.max_drift_mm)});
    }
    move.runs[id] = run;
    if (o.disk.empty()) {
      o.disk = id;
      o.start = p.runs.at(id).start;
      for (const ReadLanding& l : r.landings) o.landings.push_back(l.seen);
      o.legal_landings = r.legal;
      o.drift_mm = r.drift_mm;
      o.end = r.end;
    }
  }
  // Read: the runs are an action to complete (no player's: the torpedoes run by themselves).
  PendingAction read;
  read.action.body = move;
  for (const auto& [id, run] : p.runs) read.runs_read.push_back(id);
  read.observed = o;
  read.verdicts = std::move(verdicts);
  read.warnings = std::move(warnings);
  pending_.emplace(std::move(read));
  question_.try_complete(settle.t);
}

RunContext TorpedoReader::run_context(const std::string& torpedo, const geom::Shape& shape) const {
  return {torpedo,         shape, true, &books_.state, [this](const std::string& n) { return books_.sigma_of(n); },
          options_.near_mm};
}

}  // namespace diskref::referee
