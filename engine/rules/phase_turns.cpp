#include "engine/rules/phase_turns.h"

#include <algorithm>

#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

namespace {

void require_ships_stage(const GameState& state) {
  if (state.step != Step::execute)
    refuse(RefusalKind::wrong_step, "ships act in Step Three (now: " + std::string(to_string(state.step)) + ")");
  if (state.phase.stage == PhaseStage::initiative)
    refuse(RefusalKind::wrong_step,
           "determine command initiative for phase " + std::to_string(state.phase.number) + " first");
  if (state.phase.stage == PhaseStage::torpedoes)
    refuse(RefusalKind::wrong_step, "every ship has acted; the torpedoes move now");
}

}  // namespace

void begin_acting(Ctx& ctx, ShipState& ship) {
  require_ships_stage(ctx.state);
  PhaseState& phase = ctx.state.phase;
  if (phase.acting) {
    if (*phase.acting != ship.id)
      refuse(RefusalKind::not_your_option, *phase.acting + " is acting; " + ship.id + " waits until it finishes");
    return;
  }
  auto it = std::find(phase.to_act.begin(), phase.to_act.end(), ship.id);
  if (it == phase.to_act.end())
    refuse(RefusalKind::already_done, ship.id + " has finished phase " + std::to_string(phase.number));
  const std::string& holder = phase.to_act[static_cast<std::size_t>(phase.option)];
  if (holder != ship.id)
    refuse(RefusalKind::not_your_option, holder + " holds the option to act (it may act or defer)");
  phase.acting = ship.id;
  ctx.emit(event::Acts{ship.id}, ship.id + " acts in phase " + std::to_string(phase.number));
}

void defer_option(Ctx& ctx) {
  require_ships_stage(ctx.state);
  PhaseState& phase = ctx.state.phase;
  if (phase.acting) refuse(RefusalKind::cannot_defer, *phase.acting + " has started to act and must finish");
  const std::string holder = phase.to_act[static_cast<std::size_t>(phase.option)];
  const ShipState& ship = *find_ship(ctx.state, holder);
  if (ship.controller != ctx.player)
    refuse(RefusalKind::not_your_option, holder + " holds the option; only " + ship.controller + " may defer");
  if (phase.option + 1 >= static_cast<int>(phase.to_act.size()))
    refuse(RefusalKind::cannot_defer, "the last player to go cannot defer: " + holder + " must act");
  ++phase.option;
  const std::string& next = phase.to_act[static_cast<std::size_t>(phase.option)];
  ctx.emit(event::Defer{holder, next}, ship.controller + " defers with " + holder + "; the option passes to " + next);
}

void reveal_phase_order(Ctx& ctx, ShipState& ship) {
  OrderSlot& slot = ship.orders[static_cast<std::size_t>(ctx.state.phase.number - 1)];
  if (slot.removed)
    refuse(RefusalKind::already_done, ship.id + "'s order for this phase was removed; it only moves its speed");
  if (ship.order_revealed) refuse(RefusalKind::already_done, ship.id + " has already revealed its order this phase");
  ship.order_revealed = true;
  slot.revealed = true;
  ship.pending.push_back({slot.kind, "panel"});
  ctx.emit(event::OrderRevealed{ship.id, slot.kind, ctx.state.phase.number},
           ship.id + " reveals " + std::string(display_name(slot.kind)));
}

void decline_orders(Ctx& ctx, ShipState& ship) {
  if (!ship.order_revealed) reveal_phase_order(ctx, ship);
  if (ship.pending.empty()) refuse(RefusalKind::already_done, ship.id + " has no pending order to decline");
  std::vector<OrderKind> declined;
  for (const PendingOrder& p : ship.pending) declined.push_back(p.kind);
  ship.pending.clear();
  ctx.emit(event::Declined{ship.id, std::move(declined)}, ship.id + " does not execute its remaining orders");
}

void remove_remaining_orders(Ctx& ctx, ShipState& ship, const std::string& why) {
  int removed = 0;
  for (OrderSlot& slot : ship.orders)
    if (!slot.revealed && !slot.removed) {
      slot.removed = true;
      ++removed;
    }
  removed += static_cast<int>(ship.pending.size());
  ship.pending.clear();
  if (ctx.state.step == Step::execute) ship.order_revealed = true;  // nothing left to reveal this phase
  int old_speed = ship.speed;
  ship.speed = 0;
  ctx.emit(event::OrdersRemoved{ship.id, removed, 0},
           why + ": " + ship.id + " loses its " + std::to_string(removed) + " remaining order" +
               (removed == 1 ? "" : "s") + " and its speed drops from " + std::to_string(old_speed) + " to 0");
}

void finish_if_done(Ctx& ctx, ShipState& ship) {
  if (ship.destroyed || !ship.order_revealed || !ship.moved || !ship.pending.empty()) return;
  PhaseState& phase = ctx.state.phase;
  auto it = std::find(phase.to_act.begin(), phase.to_act.end(), ship.id);
  if (it == phase.to_act.end()) return;
  phase.to_act.erase(it);
  phase.acting.reset();
  phase.option = 0;
  ctx.emit(event::ShipDone{ship.id}, ship.id + " has finished phase " + std::to_string(phase.number));
}

void reset_ships_for_phase(GameState& state) {
  for (ShipState& s : state.ships) {
    s.moved = false;
    s.pending.clear();
    bool has_slot = static_cast<int>(s.orders.size()) >= state.phase.number;
    s.order_revealed = !has_slot || s.orders[static_cast<std::size_t>(state.phase.number - 1)].removed;
  }
}

}  // namespace diskref::rules
