// What the referee reads from the table at each settle (table_reading.h): where every disk lay
// when the game began, what moved since the last settle and how it is read (a ship's move or a turn at
// Full Stop, ship_reading.h; a launch or the torpedoes' runs, torpedo_reading.h; a motion held
// while the game waits; anything else out of turn), and the disks no part of the game.
#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/referee_queries.h"
#include "referee/table_reading.h"

namespace diskref::referee {

TableReader::TableReader(const Fixed& fixed, const std::vector<TableSettle>& settles, Books& books,
                         std::optional<Pending>& pending, Rulings& rulings, const Landings& landings, ShipReader& ships,
                         TorpedoReader& torpedoes)
    : game_(fixed.game),
      registry_(fixed.registry),
      options_(fixed.options),
      settles_(settles),
      books_(books),
      pending_(pending),
      rulings_(rulings),
      landings_(landings),
      ships_(ships),
      torpedoes_(torpedoes) {}

// --- The game's start: every disk where the table has it.

void TableReader::setup_from(const TableSettle& settle) {
  books_.set_up = true;
  Entry e;
  e.kind = Entry::Kind::setup;
  e.t = settle.t;
  e.reading = books_.settle_index;
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
          warnings.push_back(
              {"start", id, off,
               fmt::format("{} starts {:.1f} mm from where the game file expects it: the table's pose is "
                           "taken",
                           id, off)});
      }
      pose = d.rest->pose;
    } else {
      warnings.push_back(
          {"not_on_table", id, 0,
           id + " is not on the table as the game starts" +
               (d.expected ? ": the game file's pose is kept until it is seen" : ": it has no pose yet")});
    }
    e.setup.push_back(d);
  };
  for (rules::ShipState& s : books_.state.ships) place(s.id, s.pose);
  for (rules::Terrain& t : books_.state.terrain) place(t.id, t.pose);
  books_.initial_from_table = books_.state;
  books_.log.push_back(e);
  for (Warning& w : warnings) rulings_.warn(settle.t, std::move(w));
}

// --- A settle: what moved since the last one.

void TableReader::read_table(const TableSettle& settle) {
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
    bool landed = !landings_.landings_of(settle, name).empty();
    if (landed || d > std::max(options_.moved_mm, 3 * now->sigma_mm) || turn > options_.turned_deg) add(name);
  };
  for (const rules::ShipState& s : books_.state.ships)
    if (!s.destroyed) check(s.id, s.pose);
  for (const rules::Terrain& t : books_.state.terrain)
    if (t.in_play) check(t.id, t.pose);
  for (const rules::Torpedo& t : books_.state.torpedoes) check(t.id, t.pose);
  // A torpedo disk not in play that moved: the one a launch waits for, or a stray.
  for (const DiskMotion& m : settle.moved) {
    const model::DiskSpec* spec = registry_.find(m.name);
    if (spec != nullptr && spec->kind == model::DiskKind::torpedo && !torpedo_in_flight(books_.state, m.name))
      add(m.name);
  }
  std::sort(moved.begin(), moved.end(), [](const Moved& a, const Moved& b) { return a.since < b.since; });

  // The torpedoes' runs at the end of a phase are all read together.
  if (!pending_ && books_.state.step == rules::Step::execute &&
      books_.state.phase.stage == rules::PhaseStage::torpedoes)
    torpedoes_.begin_torpedo_runs(settle.t);

  for (const Moved& m : moved) read_disk(m.name, settle, m.since);
  // Readings that end with the table: a launch or the torpedoes' runs complete at a settle.
  if (pending_as<PendingLaunch>(pending_)) torpedoes_.read_launch(settle);
  if (pending_as<PendingTorpedoRuns>(pending_)) torpedoes_.read_torpedo_runs(settle);
}

void TableReader::read_disk(const std::string& name, const TableSettle& settle, double since) {
  const model::DiskSpec* spec = registry_.find(name);
  const bool torpedo_disk = spec != nullptr && spec->kind == model::DiskKind::torpedo;
  if (PendingLaunch* launch = pending_as<PendingLaunch>(pending_);
      launch && torpedo_disk && (launch->torpedo.empty() || launch->torpedo == name) &&
      !torpedo_in_flight(books_.state, name)) {
    if (launch->torpedo.empty()) launch->torpedo = name;
    return;  // read at the end of the settle (read_launch)
  }
  if (const auto* runs = pending_as<PendingTorpedoRuns>(pending_); runs && runs->runs.count(name))
    return;  // read_torpedo_runs
  if (const auto* action = pending_as<PendingAction>(pending_);
      action && action->need == Need::placement && name == action->placing) {
    ships_.read_placement(name, settle);
    return;
  }
  if (const auto* heading = pending_as<PendingHeading>(pending_); heading && name == heading->ship) {
    ships_.read_heading(name, settle);
    return;
  }
  if (const auto* move = pending_as<PendingMove>(pending_)) {
    if (name == move->ship) {
      ships_.continue_move(name, settle);
      return;
    }
    ships_.finalize_move(settle.t);
  }
  if (torpedo_disk && !torpedo_in_flight(books_.state, name)) {
    // A torpedo disk moved while no launch waits for it: off the game (a spare, or one removed).
    return;
  }
  const rules::ShipState* ship = ship_in(books_.state, name);
  if (ship != nullptr && name == books_.ship_to_act() && !ship->moved && !pending_) {
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    double d = now ? geom::distance(now->pose.position, ship->pose.position) : 0;
    if (ship->speed == 0 && d <= options_.off_path_tolerance_mm && landings_.landings_of(settle, name).size() <= 1) {
      // "If your ship's current speed is 0, it may change its heading at any time."
      rules::TurnAtFullStop turn{name, now->pose.heading_deg()};
      Observed o;
      o.disk = name;
      o.start = Rest{ship->pose, now->face, books_.sigma_of(name), since};
      o.end = now;
      rulings_.commit(action_for(books_.state, name, turn), settle.t, o, {});
      return;
    }
    ships_.start_move(name, settle, since);
    return;
  }
  if (ship != nullptr && ship->speed == 0) {
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    if (now && geom::distance(now->pose.position, ship->pose.position) <= options_.off_path_tolerance_mm &&
        landings_.landings_of(settle, name).size() <= 1) {
      Observed o;
      o.disk = name;
      o.start = Rest{ship->pose, now->face, books_.sigma_of(name), since};
      o.end = now;
      rulings_.commit(action_for(books_.state, name, rules::TurnAtFullStop{name, now->pose.heading_deg()}), settle.t, o,
                      {});
      return;
    }
  }
  const PendingAction* awaiting = pending_as<PendingAction>(pending_);
  const bool waits_for_referee =
      awaiting != nullptr &&
      (awaiting->need == Need::drops || awaiting->need == Need::decision || awaiting->need == Need::choice);
  if (ship != nullptr && name == books_.ship_to_act() && !ship->moved && waits_for_referee &&
      !std::holds_alternative<rules::Move>(awaiting->action.body)) {
    // Its turn, but an action of this turn waits for the referee (drops, a decision, a choice): the
    // motion is its move, read once the wait ends.
    hold_motion(name, settle, since);
    return;
  }
  displaced(name, settle,
            ship != nullptr && name == books_.ship_to_act() ? "it has already moved this phase" : "it is not its turn");
}

void TableReader::hold_motion(const std::string& name, const TableSettle& settle, double since) {
  const auto index = static_cast<std::size_t>(&settle - settles_.data());
  // Still lying where it was held (the books and the table differ until it is read): said once.
  const HeldMotion* last = nullptr;
  for (const HeldMotion& h : held_motions_)
    if (h.disk == name) last = &h;
  if (last != nullptr && landings_.landings_of(settle, name).empty()) {
    std::optional<Rest> then = rest_of(name, settles_[last->settle].snapshot);
    std::optional<Rest> now = rest_of(name, settle.snapshot);
    if (then && now && geom::distance(then->pose.position, now->pose.position) <= options_.moved_mm &&
        std::fabs(geom::angle_difference_deg(then->pose.heading_deg(), now->pose.heading_deg())) <= options_.turned_deg)
      return;
  }
  held_motions_.push_back({name, index, since});
}

void TableReader::read_held_motions() {
  // Read while nothing is pending, or while the move it continues is.
  auto may_read = [this](const HeldMotion& h) {
    const PendingMove* move = pending_as<PendingMove>(pending_);
    return !pending_ || (move != nullptr && move->ship == h.disk);
  };
  while (!held_motions_.empty() && may_read(held_motions_.front())) {
    const HeldMotion h = held_motions_.front();
    held_motions_.erase(held_motions_.begin());
    read_disk(h.disk, settles_[h.settle], h.since);
  }
}

void TableReader::displaced(const std::string& name, const TableSettle& settle, const std::string& why) {
  std::optional<Rest> now = rest_of(name, settle.snapshot);
  std::optional<geom::Pose> books = books_.books_pose(name);
  if (!now || !books) return;
  double d = geom::distance(now->pose.position, books->position);
  double turn = std::fabs(geom::angle_difference_deg(now->pose.heading_deg(), books->heading_deg()));
  Warning w{"out_of_turn", name, d,
            fmt::format("{} moved {:.1f} mm (turned {:.1f} degrees) when {}: the books take where it lies", name, d,
                        turn, why)};
  rules::Action a;
  a.body = rules::Displaced{name, now->pose};
  Observed o;
  o.disk = name;
  o.start = Rest{*books, now->face, books_.sigma_of(name), settle.unsettled_since};
  o.end = now;
  rulings_.warn(settle.t, w);
  rulings_.commit(a, settle.t, o, {});
}

// A disk of the registry that this game does not use (a ship of another game, a spare planet) is
// never read as a move; it is said once, when the table first settles with it, so the referee
// knows why it is ignored. Spare torpedoes are part of every game that launches them.
void TableReader::note_strangers(const TableSettle& settle) {
  std::vector<std::string> seen;
  for (const model::DiskTrack& d : settle.snapshot.disks) {
    if (d.state == model::TrackState::lost) continue;
    const model::DiskSpec* spec = registry_.find(d.name);
    bool in_game = spec == nullptr || spec->kind == model::DiskKind::torpedo ||
                   spec->kind == model::DiskKind::template_ || spec->kind == model::DiskKind::counter;
    for (const rules::ShipState& s : books_.state.ships) in_game = in_game || s.id == d.name;
    for (const rules::Terrain& t : books_.state.terrain) in_game = in_game || t.id == d.name;
    if (in_game) continue;
    seen.push_back(d.name);
    bool warned = std::find(strangers_.begin(), strangers_.end(), d.name) != strangers_.end();
    if (warned || d.state != model::TrackState::visible) {
      if (!warned) seen.pop_back();  // said when it is first seen plainly
      continue;
    }
    rulings_.warn(
        settle.t,
        {"not_in_game", d.name, 0,
         fmt::format("{} is on the table but is no part of this game: it is ignored (take it off the table, or "
                     "add it to the game file)",
                     d.name)});
  }
  strangers_ = std::move(seen);
}

}  // namespace diskref::referee
