#include "engine/rules/order_execution.h"

#include <cmath>
#include <cstdlib>

#include "engine/geometry/vec2.h"
#include "engine/rules/activation.h"
#include "engine/rules/attack.h"
#include "engine/rules/need.h"
#include "engine/rules/phase_turns.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"
#include "engine/rules/torpedoes.h"

namespace diskref::rules {

void change_speed(Ctx& ctx, ShipState& ship, int new_speed) {
  int change = std::abs(new_speed - ship.speed);
  if (change < 1 || change > 2)
    refuse(RefusalKind::illegal_value, "Change Speed raises or lowers the speed by one or two (" +
                                           std::to_string(ship.speed) + " -> " + std::to_string(new_speed) + ")");
  int most = max_speed(ctx.state, ctx.data, ship);
  if (new_speed < 0) refuse(RefusalKind::illegal_value, "speed cannot fall below 0");
  if (new_speed > ship.speed && new_speed > most)
    refuse(RefusalKind::illegal_value, ship.id + "'s maximum speed is " + std::to_string(most));
  int old = ship.speed;
  ship.speed = new_speed;
  ctx.emit(event::Speed{ship.id, new_speed, new_speed == 0}, ship.id + " changes speed " + std::to_string(old) +
                                                                 " -> " + std::to_string(new_speed) +
                                                                 (new_speed == 0 ? " (Full Stop)" : ""));
}

void change_heading(Ctx& ctx, ShipState& ship, double heading_deg, const std::string& how) {
  if (!std::isfinite(heading_deg)) refuse(RefusalKind::illegal_value, "the heading must be a finite angle");
  double old = ship.pose.heading_deg();
  ship.pose.rotation = geom::Rot::from_degrees(geom::wrap_degrees(heading_deg));
  ctx.emit(event::Heading{ship.id, ship.pose.heading_deg()},
           ship.id + " turns from " + std::to_string(std::lround(old)) + " to " +
               std::to_string(std::lround(ship.pose.heading_deg())) + " degrees (" + how + ")");
}

void raise_shields(Ctx& ctx, ShipState& ship, const RaiseShields& order) {
  int most = max_shields(ctx.data, ship);
  int value = order.value.value_or(most);
  if (value < 0 || value > most)
    refuse(RefusalKind::illegal_value, "shields go from 0 up to their maximum strength (" + std::to_string(most) + ")");
  if (ctx.params().raise_shields == RaiseShieldsRule::maximum && value != most)
    refuse(RefusalKind::illegal_value, "Raise Shields sets the maximum value (" + std::to_string(most) +
                                           ") under this game's parameters (docs/rules.md, open parameter 11)");
  if (ship.cloaked && value > 0)
    refuse(RefusalKind::cloaked, "while the cloak is raised the ship's shields are reduced to 0");
  int old = ship.shields;
  ship.shields = value;
  ctx.emit(event::Shields{ship.id, value},
           ship.id + " sets shields " + std::to_string(old) + " -> " + std::to_string(value));
}

namespace {

// The heading of a Change Heading order: given, or towards the centre of the disk to face.
double heading_to(Ctx& ctx, const ShipState& ship, const ChangeHeading& order) {
  if (order.face.empty()) {
    if (!order.heading_deg)
      need_choice(
          "Change Heading needs the new heading (or a disk to face); the referee reads it "
          "from the table when the ship is turned");
    return *order.heading_deg;
  }
  const geom::Pose* target = nullptr;
  if (const ShipState* other = find_ship(ctx.state, order.face))
    target = &other->pose;
  else if (const Terrain* terrain = find_terrain(ctx.state, order.face))
    target = &terrain->pose;
  else if (const Torpedo* torpedo = find_torpedo(ctx.state, order.face))
    target = &torpedo->pose;
  if (target == nullptr) refuse(RefusalKind::unknown_name, "nothing called " + in_quotes(order.face) + " to face");
  return geom::rad_to_deg(
      std::atan2(target->position.y - ship.pose.position.y, target->position.x - ship.pose.position.x));
}

void take_pending(Ctx& ctx, ShipState& ship, OrderKind kind) {
  for (auto it = ship.pending.begin(); it != ship.pending.end(); ++it) {
    if (it->kind != kind) continue;
    ctx.emit(event::OrderExecuted{ship.id, kind, it->source},
             ship.id + " executes " + std::string(display_name(kind)) +
                 (it->source == "panel" ? "" : " (issued by " + it->source + ")"));
    ship.pending.erase(it);
    return;
  }
  std::string have;
  for (const PendingOrder& p : ship.pending) have += (have.empty() ? "" : ", ") + std::string(display_name(p.kind));
  refuse(RefusalKind::order_not_available, ship.id + " has no " + std::string(display_name(kind)) +
                                               " order to execute now (pending: " + (have.empty() ? "none" : have) +
                                               ")");
}

}  // namespace

void execute_order(Ctx& ctx, const ExecuteOrder& action) {
  ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, action.ship);
  begin_acting(ctx, ship);
  if (!ship.order_revealed) reveal_phase_order(ctx, ship);
  take_pending(ctx, ship, order_kind_of(action.body));
  std::visit(
      [&](const auto& body) {
        using T = std::decay_t<decltype(body)>;
        if constexpr (std::is_same_v<T, ChangeSpeed>)
          change_speed(ctx, ship, body.speed);
        else if constexpr (std::is_same_v<T, ChangeHeading>)
          change_heading(ctx, ship, heading_to(ctx, ship, body), "Change Heading order");
        else if constexpr (std::is_same_v<T, RaiseShields>)
          raise_shields(ctx, ship, body);
        else if constexpr (std::is_same_v<T, BeamAttack>)
          fire_beam(ctx, ship, body);
        else if constexpr (std::is_same_v<T, LaunchTorpedo>)
          launch_torpedo(ctx, ship, body);
        else if constexpr (std::is_same_v<T, Transport>)
          transport_crew(ctx, ship, body);
        else
          execute_activate(ctx, ship, body);
      },
      action.body);
  finish_if_done(ctx, ship);
}

}  // namespace diskref::rules
