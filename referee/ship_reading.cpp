// A ship read from the table (ship_reading.h): its move, flip by flip, until it has flipped its speed
// or something else moves; a Change Heading turned in place; a collided ship put down again.
#include <cmath>

#include <fmt/format.h>

#include "referee/referee_queries.h"
#include "referee/ship_reading.h"

namespace diskref::referee {

// --- A ship's move.

void ShipReader::start_move(const std::string& ship, const TableSettle& settle, double since) {
  const rules::ShipState* s = ship_in(books_.state, ship);
  model::Face face = model::Face::up;
  for (const model::DiskTrack& d : books_.previous_settled.disks)
    if (d.name == ship) face = d.face;
  pending_.emplace(PendingMove{ship, Rest{s->pose, face, books_.sigma_of_previous(ship), since}, {}});
  continue_move(ship, settle);
}

void ShipReader::continue_move(const std::string& ship, const TableSettle& settle) {
  PendingMove& p = std::get<PendingMove>(*pending_);
  for (const Rest& r : landings_.landings_of(settle, ship)) p.rests.push_back(r);
  if (std::optional<Rest> now = rest_of(ship, settle.snapshot)) {
    // Where it lies now ends the rests (it is the last landing, seen best).
    if (!p.rests.empty() &&
        geom::distance(p.rests.back().pose.position, now->pose.position) < landings_.flip_length(ship) / 2)
      p.rests.back() = *now;
    else
      p.rests.push_back(*now);
  }
  const rules::ShipState* s = ship_in(books_.state, ship);
  ReadingInput in{p.start,
                  p.rests,
                  landings_.flip_length(ship),
                  s ? s->speed : 0,
                  Turns::once,
                  options_.off_path_tolerance_mm,
                  options_.turn_tolerance_deg};
  MoveReading reading = read_move(in);
  // "While it has flipped fewer times than its speed, a further motion of it continues the move."
  if (reading.counted && s != nullptr && reading.flips < s->speed) return;
  finalize_move(settle.t);
}

void ShipReader::finalize_move(double t) {
  const PendingMove& p = std::get<PendingMove>(*pending_);
  const rules::ShipState* s = ship_in(books_.state, p.ship);
  if (s == nullptr) {
    pending_.reset();
    return;
  }
  ReadingInput in{p.start,
                  p.rests,
                  landings_.flip_length(p.ship),
                  s->speed,
                  Turns::once,
                  options_.off_path_tolerance_mm,
                  options_.turn_tolerance_deg};
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
    warnings.push_back(
        {"off_path", p.ship, reading.max_drift_mm,
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
  RunContext c{
      p.ship,          s->shape, false, &books_.state, [this](const std::string& n) { return books_.sigma_of(n); },
      options_.near_mm};
  // Read: the move is an action to complete.
  PendingAction read;
  read.disk = p.ship;
  read.verdicts = run_verdicts(reading, c);
  corrections_.apply_overrides(read.disk, books_.settle_index, read.decisions);
  read.action = action_for(books_.state, read.disk, move);
  read.observed = o;
  read.warnings = std::move(warnings);
  pending_.emplace(std::move(read));
  question_.try_complete(t);
}

// --- A Change Heading turned on the table.

void ShipReader::read_heading(const std::string& ship, const TableSettle& settle) {
  std::optional<Rest> now = rest_of(ship, settle.snapshot);
  const rules::ShipState* s = ship_in(books_.state, ship);
  if (!now || s == nullptr) return;
  double d = geom::distance(now->pose.position, s->pose.position);
  if (d > options_.off_path_tolerance_mm || !landings_.landings_of(settle, ship).empty()) {
    // It was flipped, not turned: the heading is not read; its move is.
    rulings_.warn(settle.t,
                  {"heading", ship, d,
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
  o.start = Rest{s->pose, now->face, books_.sigma_of_previous(ship), first_motion(settle, ship)};
  o.end = now;
  std::vector<std::size_t> inputs = p.entered.inputs;
  pending_.reset();
  rulings_.commit(action, settle.t, o, inputs);
}

// --- A collided ship put down again.

void ShipReader::read_placement(const std::string& ship, const TableSettle& settle) {
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
  question_.try_complete(settle.t);
}

}  // namespace diskref::referee
