#include "engine/rules/movement.h"

#include <algorithm>
#include <cmath>
#include <set>

#include <fmt/format.h>

#include "engine/rules/collisions.h"
#include "engine/rules/damage.h"
#include "engine/rules/order_execution.h"
#include "engine/rules/phase_turns.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/table_geometry.h"
#include "engine/rules/text.h"
#include "engine/rules/torpedoes.h"

namespace diskref::rules {

namespace {

geom::FlipOutput ship_path(const Ctx& ctx, const ShipState& ship, int flips, double heading_deg) {
  geom::FlipInput in;
  in.mover = placed(ship);
  in.flips = flips;
  in.heading_deg = heading_deg;
  in.others = obstacles_except(ctx.state, ship.id);
  in.play_area_mm = ctx.state.play_area_mm;
  return geom::flip_path(in);
}

bool is_torpedo(const GameState& state, const std::string& id) {
  return std::any_of(state.torpedoes.begin(), state.torpedoes.end(), [&](const Torpedo& t) { return t.id == id; });
}

// Ships and terrain (not torpedoes) the ship overlaps where it stands.
std::vector<std::string> overlapping_disks(const GameState& state, const ShipState& ship) {
  std::vector<std::string> out;
  geom::PlacedShape me = placed(ship);
  for (const geom::Obstacle& o : obstacles_except(state, ship.id))
    if (!o.is_torpedo && geom::overlaps(me, o.placed)) out.push_back(o.name);
  return out;
}

// Ships and terrain (not torpedoes) a path ends overlapping.
std::vector<std::string> end_collisions(const GameState& state, const geom::FlipOutput& path) {
  std::vector<std::string> out;
  for (const geom::EndOverlap& o : path.end_overlaps)
    if (!is_torpedo(state, o.disk)) out.push_back(o.disk);
  return out;
}

// "If your ship is about to collide with a ship, planet or obstruction, you may declare 'Evasive
// Action.'" Refuses when the rules do not allow it here.
void check_evasive_allowed(const Ctx& ctx, const ShipState& ship, const Evasive& evasive) {
  if (ctx.state.phase.number == 3)
    refuse(RefusalKind::wrong_step, "You may not take evasive action on the third order phase of a turn");
  if (ship.speed == 0) refuse(RefusalKind::illegal_value, ship.id + " is at Full Stop and not about to collide");
  if (evasive.after_flip < 0 || evasive.after_flip > ship.speed)
    refuse(RefusalKind::illegal_value, "evasive action turns after 0.." + std::to_string(ship.speed) + " flips");
  double turn = std::fabs(geom::angle_difference_deg(evasive.heading_deg, ship.pose.heading_deg()));
  if (!std::isfinite(evasive.heading_deg) || turn > ctx.params().evasive_max_turn_deg)
    refuse(RefusalKind::illegal_value, "evasive action turns at most " +
                                           std::to_string(ctx.params().evasive_max_turn_deg) +
                                           " degrees (docs/rules.md, open parameter 22)");
  geom::FlipOutput straight = ship_path(ctx, ship, ship.speed, ship.pose.heading_deg());
  if (!end_collisions(ctx.state, straight).empty()) return;
  if (!straight.torpedo_contacts.empty())
    refuse(RefusalKind::illegal_value, "Evasive action also can't be taken to avoid running into a torpedo");
  refuse(RefusalKind::illegal_value, ship.id + " is not about to collide with a ship, planet or obstruction");
}

// Flips `flips` times along `heading_deg`, meeting torpedoes and the table's edge on the way.
// Returns the path, or nothing if the ship was destroyed on the way.
std::optional<geom::FlipOutput> flip_along(Ctx& ctx, ShipState& ship, int flips, double heading_deg,
                                           std::set<std::string>& struck) {
  geom::FlipOutput path = ship_path(ctx, ship, flips, heading_deg);
  for (int flip = 1; flip <= flips; ++flip) {
    ship.pose = path.landings[static_cast<std::size_t>(flip - 1)];
    if (path.first_flip_outside && *path.first_flip_outside == flip) {
      destroy_ship(ctx, ship, "it moved out of the play area");
      return std::nullopt;
    }
    for (const geom::TorpedoContact& c : path.torpedo_contacts) {
      if (c.flip != flip || struck.count(c.disk) || find_torpedo(ctx.state, c.disk) == nullptr) continue;
      if (!torpedo_can_strike(ctx, ship)) continue;
      struck.insert(c.disk);
      torpedo_strikes(ctx, c.disk, ship);
      if (ship.destroyed) return std::nullopt;
    }
  }
  return path;
}

// The flips as the table showed them, from landing `from` (0-based) up to `to`, with the contacts
// the referee ruled (or the exact ones). Returns false when the ship was destroyed on the way.
bool flip_on_table(Ctx& ctx, ShipState& ship, const TableRun& run, const TableRulings& rulings, std::size_t from,
                   std::size_t to, std::set<std::string>& struck) {
  for (std::size_t i = from; i < to; ++i) {
    int flip = static_cast<int>(i) + 1;
    ship.pose = run.landings[i];
    if (rulings.left_play_area_at && *rulings.left_play_area_at == flip) {
      destroy_ship(ctx, ship, "it moved out of the play area");
      return false;
    }
    for (const Contact& c : rulings.contacts) {
      if (c.flip != flip || struck.count(c.disk)) continue;
      if (find_torpedo(ctx.state, c.disk) == nullptr)
        refuse(RefusalKind::unknown_name, "no torpedo " + in_quotes(c.disk) + " in flight for " + ship.id + " to meet");
      if (!torpedo_can_strike(ctx, ship)) continue;
      struck.insert(c.disk);
      torpedo_strikes(ctx, c.disk, ship);
      if (ship.destroyed) return false;
    }
  }
  return true;
}

// The move as the table showed it: its landings, and the referee's rulings on what it met.
void move_on_table(Ctx& ctx, ShipState& ship, const Move& action, std::vector<std::string>& overlapped) {
  const TableRun& run = *action.run;
  for (const geom::Pose& p : run.landings)
    if (!geom::is_valid(p)) refuse(RefusalKind::illegal_value, "a landing of " + ship.id + " is not a finite pose");
  TableRulings rulings = run.rulings ? *run.rulings : exact_rulings(ctx.state, ship, run.landings);
  if (run.rulings) ctx.ruled.insert(ship.id);
  std::size_t flips = run.landings.size();
  if (static_cast<int>(flips) != ship.speed)
    ctx.emit(event::FlipCount{ship.id, flips, ship.speed},
             ship.id + " flipped " + std::to_string(flips) + " time" + (flips == 1 ? "" : "s") +
                 " on the table (speed " + std::to_string(ship.speed) + "): the books keep where it lies");
  std::set<std::string> struck;
  std::size_t first_leg =
      action.evasive ? std::min<std::size_t>(flips, static_cast<std::size_t>(action.evasive->after_flip)) : flips;
  if (!flip_on_table(ctx, ship, run, rulings, 0, first_leg, struck)) return;
  if (action.evasive) {
    ctx.emit(event::Evasive{ship.id}, ship.id + " takes evasive action");
    change_heading(ctx, ship, first_leg < flips ? run.landings[first_leg].heading_deg() : action.evasive->heading_deg,
                   "evasive action");
    if (!flip_on_table(ctx, ship, run, rulings, first_leg, flips, struck)) return;
    remove_remaining_orders(ctx, ship, "evasive action");
  }
  for (const std::string& id : rulings.end_overlaps) {
    if (find_ship(ctx.state, id) == nullptr && find_terrain(ctx.state, id) == nullptr)
      refuse(RefusalKind::unknown_name, "no ship or terrain " + in_quotes(id) + " for " + ship.id + " to end on");
    overlapped.push_back(id);
  }
}

}  // namespace

TableRulings exact_rulings(const GameState& state, const ShipState& ship, const std::vector<geom::Pose>& landings) {
  TableRulings out;
  std::set<std::string> met;
  for (std::size_t i = 0; i < landings.size(); ++i) {
    geom::PlacedShape at{ship.shape, landings[i]};
    int flip = static_cast<int>(i) + 1;
    if (!out.left_play_area_at) {
      const geom::Vec2 c = landings[i].position;
      if (c.x < 0 || c.y < 0 || c.x > state.play_area_mm.x || c.y > state.play_area_mm.y) out.left_play_area_at = flip;
    }
    for (const Torpedo& t : state.torpedoes)
      if (!met.count(t.id) && geom::overlaps(at, placed(t))) {
        met.insert(t.id);
        out.contacts.push_back({flip, t.id});
      }
  }
  if (!landings.empty()) {
    ShipState end = ship;
    end.pose = landings.back();
    out.end_overlaps = overlapping_disks(state, end);
  }
  return out;
}

void move_ship(Ctx& ctx, const Move& action) {
  ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, action.ship);
  begin_acting(ctx, ship);
  if (ship.moved) refuse(RefusalKind::already_done, ship.id + " has already moved this phase");
  if (action.evasive) check_evasive_allowed(ctx, ship, *action.evasive);
  ship.moved = true;
  int speed = ship.speed;
  ctx.emit(event::Move{ship.id, speed, action.run.has_value()},
           speed == 0 ? ship.id + " is at Full Stop and does not move"
                      : ship.id + " flips " + std::to_string(speed) + " time" + (speed == 1 ? "" : "s"));
  std::set<std::string> struck;
  std::vector<std::string> overlapped;
  if (action.run) {
    move_on_table(ctx, ship, action, overlapped);
    if (ship.destroyed) return;
  } else if (speed > 0) {
    int first_leg = action.evasive ? action.evasive->after_flip : speed;
    if (first_leg > 0 && !flip_along(ctx, ship, first_leg, ship.pose.heading_deg(), struck)) return;
    if (action.evasive) {
      ctx.emit(event::Evasive{ship.id}, ship.id + " takes evasive action");
      change_heading(ctx, ship, action.evasive->heading_deg, "evasive action");
      if (speed > first_leg && !flip_along(ctx, ship, speed - first_leg, ship.pose.heading_deg(), struck)) return;
      remove_remaining_orders(ctx, ship, "evasive action");
    }
    overlapped = overlapping_disks(ctx.state, ship);
  }
  if (!overlapped.empty() || action.reposition) resolve_collisions(ctx, ship, overlapped, action.reposition);
  finish_if_done(ctx, ship);
}

void displace_disk(Ctx& ctx, const Displaced& action) {
  if (!geom::is_valid(action.pose)) refuse(RefusalKind::illegal_value, "the pose of " + action.disk + " is not finite");
  geom::Pose* pose = nullptr;
  if (ShipState* s = find_ship(ctx.state, action.disk); s != nullptr && !s->destroyed)
    pose = &s->pose;
  else if (Torpedo* torpedo = find_torpedo(ctx.state, action.disk))
    pose = &torpedo->pose;
  else if (Terrain* terrain = find_terrain(ctx.state, action.disk); terrain != nullptr && terrain->in_play)
    pose = &terrain->pose;
  if (pose == nullptr)
    refuse(RefusalKind::unknown_name, "no ship, torpedo or terrain " + in_quotes(action.disk) + " in play");
  double moved = geom::distance(pose->position, action.pose.position);
  double turned = std::fabs(geom::angle_difference_deg(action.pose.heading_deg(), pose->heading_deg()));
  *pose = action.pose;
  ctx.emit(event::Displaced{action.disk, moved, turned, action.pose.position.x, action.pose.position.y,
                            action.pose.heading_deg()},
           action.disk + " is found " + fmt::format("{:.1f}", moved) + " mm from its place (turned " +
               fmt::format("{:.1f}", turned) + " degrees): the books take where it lies");
}

void turn_at_full_stop(Ctx& ctx, const TurnAtFullStop& action) {
  ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, action.ship);
  if (ship.speed != 0)
    refuse(RefusalKind::order_not_available,
           ship.id + " is moving (speed " + std::to_string(ship.speed) + "): turning needs a Change Heading order");
  change_heading(ctx, ship, action.heading_deg, "at Full Stop, no order needed");
}

}  // namespace diskref::rules
