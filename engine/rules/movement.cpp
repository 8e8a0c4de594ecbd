#include "engine/rules/movement.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/rules/collisions.h"
#include "engine/rules/damage.h"
#include "engine/rules/order_execution.h"
#include "engine/rules/phase_turns.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/table_geometry.h"
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

}  // namespace

void move_ship(Ctx& ctx, const Move& action) {
  ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, action.ship);
  begin_acting(ctx, ship);
  if (ship.moved) refuse(RefusalKind::already_done, ship.id + " has already moved this phase");
  if (action.evasive) check_evasive_allowed(ctx, ship, *action.evasive);
  ship.moved = true;
  int speed = ship.speed;
  ctx.emit("move", speed == 0 ? ship.id + " is at Full Stop and does not move"
                              : ship.id + " flips " + std::to_string(speed) + " time" + (speed == 1 ? "" : "s"),
           {{"ship", ship.id}, {"flips", speed}});
  std::set<std::string> struck;
  std::vector<std::string> overlapped;
  if (speed > 0) {
    int first_leg = action.evasive ? action.evasive->after_flip : speed;
    if (first_leg > 0 && !flip_along(ctx, ship, first_leg, ship.pose.heading_deg(), struck)) return;
    if (action.evasive) {
      ctx.emit("evasive", ship.id + " takes evasive action", {{"ship", ship.id}});
      change_heading(ctx, ship, action.evasive->heading_deg, "evasive action");
      if (speed > first_leg && !flip_along(ctx, ship, speed - first_leg, ship.pose.heading_deg(), struck)) return;
      remove_remaining_orders(ctx, ship, "evasive action");
    }
    overlapped = overlapping_disks(ctx.state, ship);
  }
  if (!overlapped.empty() || action.reposition) resolve_collisions(ctx, ship, overlapped, action.reposition);
  finish_if_done(ctx, ship);
}

void turn_at_full_stop(Ctx& ctx, const TurnAtFullStop& action) {
  ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, action.ship);
  if (ship.speed != 0)
    refuse(RefusalKind::order_not_available, ship.id + " is moving (speed " + std::to_string(ship.speed) +
                                                 "): turning needs a Change Heading order");
  change_heading(ctx, ship, action.heading_deg, "at Full Stop, no order needed");
}

}  // namespace diskref::rules
