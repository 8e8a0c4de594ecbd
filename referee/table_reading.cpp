// What the referee reads from the table at each settle, and how an action read from it is
// completed (drops, decisions, a collided ship put down) and entered in the books.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/rules/apply.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/table_geometry.h"
#include "referee/input_places.h"
#include "referee/referee.h"

namespace diskref::referee {
namespace {

// How many times an action read from the table is put to the rules at most before it is logged or
// waits. Each retry takes away one thing the rules would not take as the table showed it, each at
// most once: the line's drops set aside when the table shows that none is needed, an evasive turn
// read as drift where evasive action is not allowed. Three tries at most, and one to spare.
constexpr int kMostTriesToComplete = 4;

rules::Action action_for(const rules::GameState& state, const std::string& ship, rules::ActionBody body) {
  rules::Action a;
  for (const rules::ShipState& s : state.ships)
    if (s.id == ship) a.player = s.controller;
  a.body = std::move(body);
  return a;
}

const rules::ShipState* ship_in(const rules::GameState& state, const std::string& id) {
  for (const rules::ShipState& s : state.ships)
    if (s.id == id && !s.destroyed) return &s;
  return nullptr;
}

bool torpedo_in_flight(const rules::GameState& state, const std::string& id) {
  return std::any_of(state.torpedoes.begin(), state.torpedoes.end(), [&](const rules::Torpedo& t) { return t.id == id; });
}

double first_motion(const TableSettle& settle, const std::string& name) {
  for (const DiskMotion& m : settle.moved)
    if (m.name == name) return m.first_motion_t;
  return settle.unsettled_since;
}

}  // namespace

std::vector<Rest> Referee::landings_of(const TableSettle& settle, const std::string& name) const {
  const auto index = static_cast<std::size_t>(&settle - settles_.data());
  double unseen_until = -std::numeric_limits<double>::infinity();
  for (const UnseenRest& u : unseen_rests_)
    if (u.settle == index && u.disk == name) unseen_until = std::max(unseen_until, u.until);
  std::vector<Rest> out;
  for (const DiskMotion& m : settle.moved)
    if (m.name == name)
      for (const model::Landing& l : m.landings)
        if (l.t > unseen_until) out.push_back({geom::Pose::from_degrees(l.x, l.y, l.heading), l.face, l.sigma_mm, l.t});
  return out;
}

// --- The game's start: every disk where the table has it.

void Referee::setup_from(const TableSettle& settle) {
  set_up_ = true;
  Entry e;
  e.kind = Entry::Kind::setup;
  e.t = settle.t;
  e.reading = settle_index_;
  std::vector<Warning> warnings;
  auto place = [&](const std::string& id, geom::Pose& pose) {
    SetupDisk d;
    d.name = id;
    if (game_.expected_poses.count(id)) d.expected = pose;
    d.rest = rest_of(id, settle.snapshot);
    if (d.rest) {
      if (d.expected) {
        double off = geom::distance(d.rest->pose.position, d.expected->position);
        if (off > options_.start_tolerance_mm)
          warnings.push_back({"start", id, off,
                              fmt::format("{} starts {:.1f} mm from where the game file expects it: the table's pose is "
                                          "taken",
                                          id, off)});
      }
      pose = d.rest->pose;
    } else {
      warnings.push_back({"not_on_table", id, 0,
                          id + " is not on the table as the game starts" +
                              (d.expected ? ": the game file's pose is kept until it is seen" : ": it has no pose yet")});
    }
    e.setup.push_back(d);
  };
  for (rules::ShipState& s : state_.ships) place(s.id, s.pose);
  for (rules::Terrain& t : state_.terrain) place(t.id, t.pose);
  initial_from_table_ = state_;
  log_.push_back(e);
  for (Warning& w : warnings) warn(settle.t, std::move(w));
}

// --- A settle: what moved since the last one.

void Referee::read_table(const TableSettle& settle) {
  struct Moved {
    std::string name;
    double since;
  };
  std::vector<Moved> moved;
  auto add = [&](const std::string& name) {
    if (std::none_of(moved.begin(), moved.end(), [&](const Moved& m) { return m.name == name; }))
      moved.push_back({name, first_motion(settle, name)});
  };
  // Disks of the game whose books and table no longer agree, or that came to rest since.
  auto check = [&](const std::string& name, const geom::Pose& books) {
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    if (!now) return;
    double d = geom::distance(now->pose.position, books.position);
    double turn = std::fabs(geom::angle_difference_deg(now->pose.heading_deg(), books.heading_deg()));
    bool landed = !landings_of(settle, name).empty();
    if (landed || d > std::max(options_.moved_mm, 3 * now->sigma_mm) || turn > options_.turned_deg) add(name);
  };
  for (const rules::ShipState& s : state_.ships)
    if (!s.destroyed) check(s.id, s.pose);
  for (const rules::Terrain& t : state_.terrain)
    if (t.in_play) check(t.id, t.pose);
  for (const rules::Torpedo& t : state_.torpedoes) check(t.id, t.pose);
  // A torpedo disk not in play that moved: the one a launch waits for, or a stray.
  for (const DiskMotion& m : settle.moved) {
    const model::DiskSpec* spec = registry_.find(m.name);
    if (spec != nullptr && spec->kind == model::DiskKind::torpedo && !torpedo_in_flight(state_, m.name)) add(m.name);
  }
  std::sort(moved.begin(), moved.end(), [](const Moved& a, const Moved& b) { return a.since < b.since; });

  // The torpedoes' runs at the end of a phase are all read together.
  if (!pending_ && state_.step == rules::Step::execute && state_.phase.stage == rules::PhaseStage::torpedoes)
    begin_torpedo_runs(settle.t);

  for (const Moved& m : moved) read_disk(m.name, settle, m.since);
  // Readings that end with the table: a launch or the torpedoes' runs complete at a settle.
  if (pending_as<PendingLaunch>()) read_launch(settle);
  if (pending_as<PendingTorpedoRuns>()) read_torpedo_runs(settle);
}

void Referee::read_disk(const std::string& name, const TableSettle& settle, double since) {
  const model::DiskSpec* spec = registry_.find(name);
  const bool torpedo_disk = spec != nullptr && spec->kind == model::DiskKind::torpedo;
  if (PendingLaunch* launch = pending_as<PendingLaunch>();
      launch && torpedo_disk && (launch->torpedo.empty() || launch->torpedo == name) && !torpedo_in_flight(state_, name)) {
    if (launch->torpedo.empty()) launch->torpedo = name;
    return;  // read at the end of the settle (read_launch)
  }
  if (const auto* runs = pending_as<PendingTorpedoRuns>(); runs && runs->runs.count(name)) return;  // read_torpedo_runs
  if (const auto* action = pending_as<PendingAction>(); action && action->need == Need::placement && name == action->placing) {
    read_placement(name, settle);
    return;
  }
  if (const auto* heading = pending_as<PendingHeading>(); heading && name == heading->ship) {
    read_heading(name, settle);
    return;
  }
  if (const auto* move = pending_as<PendingMove>()) {
    if (name == move->ship) {
      continue_move(name, settle);
      return;
    }
    finalize_move(settle.t);
  }
  if (torpedo_disk && !torpedo_in_flight(state_, name)) {
    // A torpedo disk moved while no launch waits for it: off the game (a spare, or one removed).
    return;
  }
  const rules::ShipState* ship = ship_in(state_, name);
  if (ship != nullptr && name == ship_to_act() && !ship->moved && !pending_) {
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    double d = now ? geom::distance(now->pose.position, ship->pose.position) : 0;
    if (ship->speed == 0 && d <= options_.off_path_tolerance_mm && landings_of(settle, name).size() <= 1) {
      // "If your ship's current speed is 0, it may change its heading at any time."
      rules::TurnAtFullStop turn{name, now->pose.heading_deg()};
      Observed o;
      o.disk = name;
      o.start = Rest{ship->pose, now->face, sigma_of(name), since};
      o.end = now;
      commit(action_for(state_, name, turn), settle.t, o, {});
      return;
    }
    start_move(name, settle, since);
    return;
  }
  if (ship != nullptr && ship->speed == 0) {
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    if (now && geom::distance(now->pose.position, ship->pose.position) <= options_.off_path_tolerance_mm &&
        landings_of(settle, name).size() <= 1) {
      Observed o;
      o.disk = name;
      o.start = Rest{ship->pose, now->face, sigma_of(name), since};
      o.end = now;
      commit(action_for(state_, name, rules::TurnAtFullStop{name, now->pose.heading_deg()}), settle.t, o, {});
      return;
    }
  }
  const PendingAction* awaiting = pending_as<PendingAction>();
  const bool waits_for_referee = awaiting != nullptr && (awaiting->need == Need::drops || awaiting->need == Need::decision ||
                                                         awaiting->need == Need::choice);
  if (ship != nullptr && name == ship_to_act() && !ship->moved && waits_for_referee &&
      !std::holds_alternative<rules::Move>(awaiting->action.body)) {
    // Its turn, but an action of this turn waits for the referee (drops, a decision, a choice): the
    // motion is its move, read once the wait ends.
    hold_motion(name, settle, since);
    return;
  }
  displaced(name, settle, ship != nullptr && name == ship_to_act() ? "it has already moved this phase"
                                                                     : "it is not its turn");
}

void Referee::hold_motion(const std::string& name, const TableSettle& settle, double since) {
  const auto index = static_cast<std::size_t>(&settle - settles_.data());
  // Still lying where it was held (the books and the table differ until it is read): said once.
  const HeldMotion* last = nullptr;
  for (const HeldMotion& h : held_motions_)
    if (h.disk == name) last = &h;
  if (last != nullptr && landings_of(settle, name).empty()) {
    std::optional<Rest> then = rest_of(name, settles_[last->settle].snapshot);
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    if (then && now && geom::distance(then->pose.position, now->pose.position) <= options_.moved_mm &&
        std::fabs(geom::angle_difference_deg(then->pose.heading_deg(), now->pose.heading_deg())) <= options_.turned_deg)
      return;
  }
  held_motions_.push_back({name, index, since});
}

void Referee::read_held_motions() {
  // Read while nothing is pending, or while the move it continues is.
  auto may_read = [this](const HeldMotion& h) {
    const PendingMove* move = pending_as<PendingMove>();
    return !pending_ || (move != nullptr && move->ship == h.disk);
  };
  while (!held_motions_.empty() && may_read(held_motions_.front())) {
    const HeldMotion h = held_motions_.front();
    held_motions_.erase(held_motions_.begin());
    read_disk(h.disk, settles_[h.settle], h.since);
  }
}

void Referee::displaced(const std::string& name, const TableSettle& settle, const std::string& why) {
  std::optional<Rest> now = rest_of(name, settle.snapshot);
  std::optional<geom::Pose> books = books_pose(name);
  if (!now || !books) return;
  double d = geom::distance(now->pose.position, books->position);
  double turn = std::fabs(geom::angle_difference_deg(now->pose.heading_deg(), books->heading_deg()));
  Warning w{"out_of_turn", name, d,
            fmt::format("{} moved {:.1f} mm (turned {:.1f} degrees) when {}: the books take where it lies", name, d, turn,
                        why)};
  rules::Action a;
  a.body = rules::Displaced{name, now->pose};
  Observed o;
  o.disk = name;
  o.start = Rest{*books, now->face, sigma_of(name), settle.unsettled_since};
  o.end = now;
  warn(settle.t, w);
  commit(a, settle.t, o, {});
}

// A disk of the registry that this game does not use (a ship of another game, a spare planet) is
// never read as a move; it is said once, when the table first settles with it, so the referee
// knows why it is ignored. Spare torpedoes are part of every game that launches them.
void Referee::note_strangers(const TableSettle& settle) {
  std::vector<std::string> seen;
  for (const model::DiskTrack& d : settle.snapshot.disks) {
    if (d.state == model::TrackState::lost) continue;
    const model::DiskSpec* spec = registry_.find(d.name);
    bool in_game = spec == nullptr || spec->kind == model::DiskKind::torpedo || spec->kind == model::DiskKind::template_ ||
                   spec->kind == model::DiskKind::counter;
    for (const rules::ShipState& s : state_.ships) in_game = in_game || s.id == d.name;
    for (const rules::Terrain& t : state_.terrain) in_game = in_game || t.id == d.name;
    if (in_game) continue;
    seen.push_back(d.name);
    bool warned = std::find(strangers_.begin(), strangers_.end(), d.name) != strangers_.end();
    if (warned || d.state != model::TrackState::visible) {
      if (!warned) seen.pop_back();  // said when it is first seen plainly
      continue;
    }
    warn(settle.t, {"not_in_game", d.name, 0,
                    fmt::format("{} is on the table but is no part of this game: it is ignored (take it off the table, or "
                                "add it to the game file)",
                                d.name)});
  }
  strangers_ = std::move(seen);
}

// --- A ship's move.

void Referee::start_move(const std::string& ship, const TableSettle& settle, double since) {
  const rules::ShipState* s = ship_in(state_, ship);
  model::Face face = model::Face::up;
  for (const model::DiskTrack& d : previous_settled_.disks)
    if (d.name == ship) face = d.face;
  pending_.emplace(PendingMove{ship, Rest{s->pose, face, sigma_of_previous(ship), since}, {}});
  continue_move(ship, settle);
}

void Referee::continue_move(const std::string& ship, const TableSettle& settle) {
  PendingMove& p = std::get<PendingMove>(*pending_);
  for (const Rest& r : landings_of(settle, ship)) p.rests.push_back(r);
  if (std::optional<Rest> now = rest_of(ship, settle.snapshot)) {
    // Where it lies now ends the rests (it is the last landing, seen best).
    if (!p.rests.empty() && geom::distance(p.rests.back().pose.position, now->pose.position) < flip_length(ship) / 2)
      p.rests.back() = *now;
    else
      p.rests.push_back(*now);
  }
  const rules::ShipState* s = ship_in(state_, ship);
  ReadingInput in{p.start, p.rests, flip_length(ship), s ? s->speed : 0, Turns::once,
                  options_.off_path_tolerance_mm, options_.turn_tolerance_deg};
  MoveReading reading = read_move(in);
  // "While it has flipped fewer times than its speed, a further motion of it continues the move."
  if (reading.counted && s != nullptr && reading.flips < s->speed) return;
  finalize_move(settle.t);
}

void Referee::finalize_move(double t) {
  const PendingMove& p = std::get<PendingMove>(*pending_);
  const rules::ShipState* s = ship_in(state_, p.ship);
  if (s == nullptr) {
    pending_.reset();
    return;
  }
  ReadingInput in{p.start, p.rests, flip_length(p.ship), s->speed, Turns::once,
                  options_.off_path_tolerance_mm, options_.turn_tolerance_deg};
  MoveReading reading = read_move(in);
  rules::Move move;
  move.ship = p.ship;
  move.run = rules::TableRun{};
  for (const ReadLanding& l : reading.landings) move.run->landings.push_back(l.pose);
  if (reading.turned_after) move.evasive = rules::Evasive{*reading.turned_after, reading.turned_to_deg};

  Observed o;
  o.disk = p.ship;
  o.start = p.start;
  for (const ReadLanding& l : reading.landings) o.landings.push_back(l.seen);
  o.legal_landings = reading.legal;
  o.drift_mm = reading.drift_mm;
  o.end = reading.end;

  std::vector<Warning> warnings;
  if (!reading.counted)
    warnings.push_back({"uncounted", p.ship, reading.moved_mm,
                        fmt::format("{}'s flips cannot be counted ({}): the books take where it lies", p.ship,
                                    reading.uncounted_why)});
  if (reading.max_drift_mm > options_.off_path_tolerance_mm) {
    std::size_t worst = 0;
    for (std::size_t i = 0; i < reading.drift_mm.size(); ++i)
      if (reading.drift_mm[i] && *reading.drift_mm[i] == reading.max_drift_mm) worst = i;
    warnings.push_back({"off_path", p.ship, reading.max_drift_mm,
                        fmt::format("{} landed {:.1f} mm off its legal path at flip {} (tolerance {:.1f} mm): the books "
                                    "keep where it lies",
                                    p.ship, reading.max_drift_mm, worst + 1, options_.off_path_tolerance_mm)});
  }
  if (reading.counted && reading.flips != s->speed) {
    double off = reading.legal.empty() ? reading.moved_mm
                                       : geom::distance(reading.end.pose.position, reading.legal.back().position);
    warnings.push_back({"flip_count", p.ship, off,
                        fmt::format("{} flipped {} time{} at speed {}", p.ship, reading.flips,
                                    reading.flips == 1 ? "" : "s", s->speed)});
  }
  RunContext c{p.ship, s->shape, false, &state_, [this](const std::string& n) { return sigma_of(n); }, options_.near_mm};
  // Read: the move is an action to complete.
  PendingAction read;
  read.disk = p.ship;
  read.verdicts = run_verdicts(reading, c);
  apply_overrides(read.disk, read.decisions);
  read.action = action_for(state_, read.disk, move);
  read.observed = o;
  read.warnings = std::move(warnings);
  pending_.emplace(std::move(read));
  try_complete(t);
}

// --- A Change Heading turned on the table.

void Referee::read_heading(const std::string& ship, const TableSettle& settle) {
  std::optional<Rest> now = rest_of(ship, settle.snapshot);
  const rules::ShipState* s = ship_in(state_, ship);
  if (!now || s == nullptr) return;
  double d = geom::distance(now->pose.position, s->pose.position);
  if (d > options_.off_path_tolerance_mm || !landings_of(settle, ship).empty()) {
    // It was flipped, not turned: the heading is not read; its move is.
    warn(settle.t, {"heading", ship, d,
                    fmt::format("{} was moved {:.1f} mm, not turned in place: its Change Heading still waits to be "
                                "read; the motion is read as its move",
                                ship, d)});
    Pending waiting_heading = std::move(*pending_);
    pending_.reset();
    start_move(ship, settle, first_motion(settle, ship));
    if (!pending_) pending_ = std::move(waiting_heading);
    return;
  }
  const PendingHeading& p = std::get<PendingHeading>(*pending_);
  rules::Action action = p.entered.action;
  auto& body = std::get<rules::ExecuteOrder>(action.body);
  std::get<rules::ChangeHeading>(body.body).heading_deg = now->pose.heading_deg();
  Observed o;
  o.disk = ship;
  o.start = Rest{s->pose, now->face, sigma_of_previous(ship), first_motion(settle, ship)};
  o.end = now;
  std::vector<std::size_t> inputs = p.entered.inputs;
  pending_.reset();
  commit(action, settle.t, o, inputs);
}

// --- A torpedo put in the bay and launched.

void Referee::read_launch(const TableSettle& settle) {
  PendingLaunch& p = std::get<PendingLaunch>(*pending_);
  if (p.torpedo.empty()) return;
  std::vector<Rest> rests = landings_of(settle, p.torpedo);
  std::optional<Rest> now = rest_of(p.torpedo, settle.snapshot);
  bool visible = false;
  for (const model::DiskTrack& d : settle.snapshot.disks)
    if (d.name == p.torpedo) visible = d.state == model::TrackState::visible;
  if (now && visible &&
      (rests.empty() || geom::distance(rests.back().pose.position, now->pose.position) >= flip_length(p.torpedo) / 2))
    rests.push_back(*now);
  else if (now && visible && !rests.empty())
    rests.back() = *now;
  geom::Shape shape = registry_.find(p.torpedo)->shape;
  const rules::ShipState* launcher = ship_in(state_, p.launcher);
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
      if (bay && geom::distance(r.pose.position, bay->position) >= flip_length(p.torpedo) / 2) {
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
  ReadingInput in{*p.placed, p.rests, flip_length(p.torpedo), p.movement, Turns::every_flip,
                  options_.off_path_tolerance_mm, 180};
  in.start_face_known = p.placement_seen;
  MoveReading reading = read_move(in);
  RunContext c{p.torpedo, shape, true, &state_, [this](const std::string& n) { return sigma_of(n); }, options_.near_mm};
  std::vector<Verdict> verdicts = run_verdicts(reading, c);
  bool struck = std::any_of(verdicts.begin(), verdicts.end(), [](const Verdict& v) {
    return v.kind == VerdictKind::torpedo_contact && v.call != Call::no;
  });
  bool done = reading.flips >= p.movement || (reading.flips > 0 && (struck || !visible));
  if (!done) return;

  auto& exec = std::get<rules::ExecuteOrder>(p.entered.action.body);
  auto& launch = std::get<rules::LaunchTorpedo>(exec.body);
  if (!launch.torpedo.empty() && launch.torpedo != p.torpedo && !p.entered.inputs.empty())
    warn(settle.t,
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
    warnings.push_back({"off_path", p.torpedo, reading.max_drift_mm,
                          fmt::format("{} landed {:.1f} mm off a flip length on its launch run: the books keep where it lies",
                                      p.torpedo, reading.max_drift_mm)});
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
  apply_overrides(p.torpedo, read.decisions);
  read.observed = o;
  read.warnings = std::move(warnings);
  pending_.emplace(std::move(read));
  try_complete(settle.t);
}

// --- The torpedoes' runs at the end of a phase.

void Referee::begin_torpedo_runs(double t) {
  PendingTorpedoRuns p;
  for (const rules::Torpedo& torpedo : state_.torpedoes) {
    TorpedoRun run;
    run.start = Rest{torpedo.pose, model::Face::up, sigma_of(torpedo.id), t};
    for (const model::DiskTrack& d : last_settled_.disks)
      if (d.name == torpedo.id) run.start.face = d.face;
    run.movement = torpedo.movement;
    p.runs[torpedo.id] = run;
  }
  pending_.emplace(std::move(p));
}

void Referee::read_torpedo_runs(const TableSettle& settle) {
  PendingTorpedoRuns& p = std::get<PendingTorpedoRuns>(*pending_);
  bool all_done = true;
  std::map<std::string, MoveReading> readings;
  for (auto& [id, run] : p.runs) {
    std::vector<Rest> rests = landings_of(settle, id);
    std::optional<Rest> now;
    bool visible = false;
    for (const model::DiskTrack& d : settle.snapshot.disks)
      if (d.name == id) visible = d.state == model::TrackState::visible;
    if (visible) now = rest_of(id, settle.snapshot);
    if (now && (rests.empty() || geom::distance(rests.back().pose.position, now->pose.position) >= flip_length(id) / 2))
      rests.push_back(*now);
    else if (now && !rests.empty())
      rests.back() = *now;
    run.rests.insert(run.rests.end(), rests.begin(), rests.end());
    if (!visible && !run.rests.empty()) run.gone = true;
    ReadingInput in{run.start, run.rests, flip_length(id), run.movement, Turns::at_start,
                    options_.off_path_tolerance_mm, 180};
    readings[id] = read_move(in);
    const MoveReading& r = readings[id];
    // A run ends after its movement, or where it struck a ship (the player then takes it off).
    bool struck = false;
    if (!r.landings.empty()) {
      const rules::Torpedo* t = nullptr;
      for (const rules::Torpedo& torpedo : state_.torpedoes)
        if (torpedo.id == id) t = &torpedo;
      RunContext c{id, t->shape, true, &state_, [this](const std::string& n) { return sigma_of(n); }, options_.near_mm};
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
      for (const rules::Torpedo& torpedo : state_.torpedoes)
        if (torpedo.id == id) t = &torpedo;
      RunContext c{id, t->shape, true, &state_, [this](const std::string& n) { return sigma_of(n); }, options_.near_mm};
      for (Verdict v : run_verdicts(r, c)) verdicts.push_back(v);
      if (r.max_drift_mm > options_.off_path_tolerance_mm)
        warnings.push_back({"off_path", id, r.max_drift_mm,
                              fmt::format("{} landed {:.1f} mm off its run: the books keep where it lies", id,
                                          r.max_drift_mm)});
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
  try_complete(settle.t);
}

// --- A collided ship put down again.

void Referee::read_placement(const std::string& ship, const TableSettle& settle) {
  PendingAction& p = std::get<PendingAction>(*pending_);
  std::optional<Rest> now = rest_of(ship, settle.snapshot);
  bool visible = false;
  for (const model::DiskTrack& d : settle.snapshot.disks)
    if (d.name == ship) visible = d.state == model::TrackState::visible;
  // Put down means seen lying somewhere else than where its move ended: picked up (unseen), or not
  // yet moved, it is still to be put down.
  if (!now || !visible) return;
  if (p.observed && p.observed->end &&
      geom::distance(now->pose.position, p.observed->end->pose.position) <= options_.moved_mm &&
      std::fabs(geom::angle_difference_deg(now->pose.heading_deg(), p.observed->end->pose.heading_deg())) <=
          options_.turned_deg)
    return;
  auto& move = std::get<rules::Move>(p.action.body);
  move.reposition = now->pose;
  if (p.observed) p.observed->placed = now;
  try_complete(settle.t);
}

// --- Completing an action read from the table.

void Referee::try_complete(double t) {
  for (int attempt = 0; attempt < kMostTriesToComplete; ++attempt) {
    PendingAction& p = std::get<PendingAction>(*pending_);
    // Rulings, disk by disk (the torpedoes' runs rule several): the calls, with the referee's
    // decisions standing over them.
    std::vector<Verdict> undecided;
    std::map<std::string, rules::TableRulings> rulings;
    std::vector<std::string> movers;
    for (const Verdict& v : p.verdicts)
      if (std::find(movers.begin(), movers.end(), v.mover) == movers.end()) movers.push_back(v.mover);
    for (const std::string& mover : movers) {
      std::vector<Verdict> mine;
      for (const Verdict& v : p.verdicts)
        if (v.mover == mover) mine.push_back(v);
      rulings[mover] = rulings_from(mine, p.decisions, undecided);
      std::size_t k = 0;
      for (Verdict& v : p.verdicts)
        if (v.mover == mover) v = mine[k++];
    }
    auto rulings_of = [&](const std::string& mover) { return rulings[mover]; };
    if (!undecided.empty()) {
      p.need = Need::decision;
      std::string list;
      for (const Verdict& v : undecided)
        list += fmt::format("{}{} with {} ({:+.2f} ± {:.2f} mm)", list.empty() ? "" : "; ", to_string(v.kind), v.with,
                            v.margin_mm, v.sigma_mm);
      p.need_text = "too close to call, the referee decides: " + list;
      say_waiting(t);
      return;
    }
    rules::Action action = p.action;
    action.drops = p.drops;
    std::visit(
        [&](auto& body) {
          using T = std::decay_t<decltype(body)>;
          if constexpr (std::is_same_v<T, rules::Move>) {
            if (body.run) body.run->rulings = rulings_of(p.disk);
          } else if constexpr (std::is_same_v<T, rules::ExecuteOrder>) {
            std::visit(
                [&](auto& order) {
                  using O = std::decay_t<decltype(order)>;
                  if constexpr (std::is_same_v<O, rules::LaunchTorpedo>) {
                    if (order.run) order.run->rulings = rulings_of(order.torpedo);
                  } else if constexpr (std::is_same_v<O, rules::BeamAttack> || std::is_same_v<O, rules::Transport>) {
                    for (const Verdict& v : p.verdicts)
                      if (v.kind == VerdictKind::range) order.in_range = v.call == Call::yes;
                  }
                },
                body.body);
          } else if constexpr (std::is_same_v<T, rules::MoveTorpedoes>) {
            for (auto& [id, run] : body.runs) run.rulings = rulings_of(id);
          }
        },
        action.body);
    rules::ActionResult r = rules::apply_action(state_, game_.data, action);
    if (!r.applied()) {
      const rules::Refusal& why = *r.refusal;
      if (why.kind == rules::RefusalKind::missing_drop) {
        p.need = Need::drops;
        p.need_text = "drops: " + why.reason;
        p.needed_drop = why.needed_drop;
        if (has_counters_ && why.needed_drop && (!p.drop_asked || *p.drop_asked != why.needed_drop->index)) {
          // Asked for now: the counters that come to rest from here on are this drop's.
          p.drop_asked = why.needed_drop->index;
          p.drop_baseline = drop_look_;
          p.answers.clear();
          p.reading.reset();
        }
        if (p.reading) p.need_text += "; on the table: " + p.reading->tally() + "; " + p.reading->question();
        say_waiting(t);
        return;
      }
      if (why.kind == rules::RefusalKind::choice_needed && std::holds_alternative<rules::Move>(p.action.body)) {
        p.need = Need::placement;
        p.placing = p.disk;
        p.placement_optional = false;
        p.need_text = p.disk + " to be put down again: " + why.reason;
        say_waiting(t);
        return;
      }
      if (why.kind == rules::RefusalKind::choice_needed && !why.options.empty() &&
          std::holds_alternative<rules::BoardingSegment>(p.action.body)) {
        p.need = Need::choice;
        p.options = why.options;
        p.need_text = "a choice: " + why.reason;
        say_waiting(t);
        return;
      }
      if (why.kind == rules::RefusalKind::bad_choice && std::holds_alternative<rules::Move>(p.action.body) &&
          std::get<rules::Move>(p.action.body).reposition) {
        warn(t, {"placement", p.placing, 0, why.reason + ": put it down again"});
        std::get<rules::Move>(p.action.body).reposition.reset();
        if (p.observed) p.observed->placed.reset();
        p.need = Need::placement;
        return;
      }
      if (why.kind == rules::RefusalKind::unused_drops && why.drop == std::size_t{0} && p.line_drops > 0 &&
          p.line_drops == p.drops.size() && !p.verdicts.empty()) {
        // The line's drops were for what the table then did not show (an attack out of range, a
        // torpedo that struck nothing): set aside, said on that input, and the action goes on.
        std::string why_not = "the action, as the table shows it, needs no drop";
        for (const Verdict& v : p.verdicts)
          if (v.kind == VerdictKind::range && v.call == Call::no)
            why_not = v.with + " is out of range, as the table shows it";
        warn(t, {"input", p.disk, 0, fmt::format("{}: not used: {}", p.drop_sources.front(), why_not)}, {p.inputs.front()});
        p.drops.clear();
        p.drop_sources.clear();
        p.line_drops = 0;
        continue;
      }
      if (why.kind == rules::RefusalKind::illegal_value && std::holds_alternative<rules::Move>(p.action.body) &&
          std::get<rules::Move>(p.action.body).evasive) {
        p.warnings.push_back({"off_path", p.disk, 0,
                              p.disk + " turned mid-move, but evasive action is not allowed here (" + why.reason +
                                  "): read as a move that drifted off its path"});
        std::get<rules::Move>(p.action.body).evasive.reset();
        continue;
      }
      // Refused by the rules: logged with its evidence (a drop refused names where it came from);
      // the disk lies where it lies.
      const rules::Refusal named = naming_the_drop(why, p.drop_sources);
      rules::Action refused = action;
      std::optional<Observed> o = p.observed;
      std::vector<std::size_t> inputs = p.inputs;
      std::string mover = p.disk;
      std::vector<Warning> warnings = p.warnings;
      std::vector<DropRead> drops_read = std::move(p.drops_read);
      const bool line_drops_unused = p.line_drops > 0 && !why.drop;
      const std::string line_drops_place = p.line_drops > 0 ? p.drop_sources.front() : std::string();
      pending_.reset();
      refuse_entry(refused, named, t, o, inputs, std::move(drops_read));
      for (Warning& w : warnings) warn(t, std::move(w));
      if (line_drops_unused)  // refused as the table showed it (out of range): its drops say so too
        warn(t, {"input", mover, 0, fmt::format("{}: not used: the action is refused ({})", line_drops_place, why.reason)},
             {inputs.front()});
      if (o && o->end && books_pose(o->disk)) {
        rules::Action a;
        a.body = rules::Displaced{o->disk, o->end->pose};
        commit(a, t, std::nullopt, {});
      }
      read_held_motions();
      return;
    }
    // A ship-ship collision: the hit player may put the ship down elsewhere (or leave it).
    if (auto* move = std::get_if<rules::Move>(&p.action.body); move != nullptr && !move->reposition && !p.left_in_place) {
      for (const rules::Event& e : r.events) {
        if (e.type != "collision") continue;
        // Read once, through a copy and at(): gcc 12 sees a null dereference inside json.hpp's
        // value() when this file is compiled in one unity batch with referee.cpp.
        const nlohmann::json detail = e.detail;
        const std::string with =
            detail.is_object() && detail.contains("with") && detail.at("with").is_string() ? detail.at("with").get<std::string>() : "";
        const rules::ShipState* hit = ship_in(state_, with);
        if (hit == nullptr) continue;
        p.need = Need::placement;
        p.placing = p.disk;
        p.placement_optional = true;
        p.hit_player = hit->controller;
        p.need_text = fmt::format("{}'s player to put {} down touching {} (or leave it in place)", with, p.disk, with);
        say_waiting(t);
        return;
      }
    }
    rules::Action done = action;
    std::optional<Observed> o = p.observed;
    if (o) o->verdicts = p.verdicts;
    std::vector<std::size_t> inputs = p.inputs;
    std::vector<Warning> warnings = p.warnings;
    std::vector<DropRead> drops_read = std::move(p.drops_read);
    pending_.reset();
    commit(done, t, o, inputs, warnings, std::move(drops_read));
    read_held_motions();
    return;
  }
}

void Referee::say_waiting(double t) {
  PendingAction& p = std::get<PendingAction>(*pending_);
  const char* need = to_string(p.need);
  // Said once a wait: again only when it moves on (another drop, another ship to put down).
  std::string key = fmt::format("{}/{}/{}", need, p.needed_drop ? p.needed_drop->index : 0, p.placing);
  if (key == p.waiting_said) return;
  p.waiting_said = key;
  Entry e;
  e.kind = Entry::Kind::waiting;
  e.t = t;
  e.reading = settle_index_;
  e.inputs = p.inputs;
  e.waiting.need = need;
  e.waiting.disk = p.disk;
  e.waiting.text = p.need_text;
  if (p.need == Need::drops) e.waiting.drop = p.needed_drop;
  if (p.need == Need::choice) e.waiting.options = p.options;
  p.waiting_since = t;
  log_.push_back(std::move(e));
}

// --- A drop read from the counters on the table.

void Referee::read_drop(double t) {
  PendingAction* awaiting = pending_as<PendingAction>();
  if (!has_counters_ || awaiting == nullptr || awaiting->need != Need::drops || !awaiting->needed_drop ||
      !awaiting->drop_asked)
    return;
  PendingAction& p = *awaiting;
  CounterReadingInput in = counters_since(p.drop_baseline);
  in.need = *p.needed_drop;
  in.answers = p.answers;
  CounterReading reading = read_counters(in);
  counters_seen_ = CountersSeen{reading, true, settle_index_, t};
  if (reading.nothing_dropped()) {
    p.reading.reset();
    return;
  }
  if (!reading.complete()) {
    p.reading = std::move(reading);
    p.need_text = "drops: " + describe_need(*p.needed_drop) + "; on the table: " + p.reading->tally() + "; " +
                  p.reading->question();
    return;
  }
  DropRead read{settle_index_, t, reading, reading.drop(), std::nullopt, nullptr};
  // A correction made later stands over what was read here.
  for (const DropOverride& o : drop_overrides_)
    if (o.reading == settle_index_) {
      read.drop = o.drop;
      read.corrected = o.correction;
    }
  p.drops_read.push_back(read);
  p.drops.push_back(read.drop);
  p.drop_sources.push_back(fmt::format("the counters on the table at {:.2f} s", t));
  p.reading.reset();
  try_complete(t);
}

}  // namespace diskref::referee
