#pragma once
// Who acts in a Step Three phase, and when a ship has finished. Ships act in initiative order
// (initiative.h); "The player controlling the first ship may opt to defer to the next player. That
// player may in turn defer to the next. The last player to go cannot defer, and must execute his or
// her first order. The option then passes back to the first player". A ship that has started to act
// (revealed, executed or moved) finishes before anyone else acts.

#include "engine/rules/context.h"

namespace diskref::rules {

// Makes `ship` the acting ship, or refuses: wrong stage, another ship holds the option or is
// acting, or the ship has finished this phase.
void begin_acting(Ctx& ctx, ShipState& ship);

// The option holder passes the option to the next ship in initiative order.
void defer_option(Ctx& ctx);

// Reveals the order disk of this phase and makes it the ship's pending order.
void reveal_phase_order(Ctx& ctx, ShipState& ship);

// "A player may opt to reveal his order, but not execute it": drops the pending orders.
void decline_orders(Ctx& ctx, ShipState& ship);

// Evasive action and collisions: "remove all remaining orders from your control panel and reduce
// your speed to zero".
void remove_remaining_orders(Ctx& ctx, ShipState& ship, const std::string& why);

// Ends the ship's part of the phase once it has revealed, moved and has no pending order; the
// option then passes back to the first ship still to act.
void finish_if_done(Ctx& ctx, ShipState& ship);

// Clears the per-phase flags of every ship (a ship whose order of this phase was removed has
// nothing to reveal).
void reset_ships_for_phase(GameState& state);

}  // namespace diskref::rules
