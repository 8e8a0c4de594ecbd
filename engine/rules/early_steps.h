#pragma once
// Step One (reveal or conceal crew and tech) and Step Two (assign orders).

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

// Step One: the player reveals and conceals his disks; once every player has, Step Two begins.
// Crew are revealed by their owner; tech by the player controlling its ship.
void reveal_or_conceal(Ctx& ctx, const RevealConceal& action);

// Step Two: "Each player chooses three orders he wants to execute during the turn and places them
// face down during this step." Fixed once placed; one disk per order
// (docs/rules.md, open parameter 15).
void place_orders(Ctx& ctx, const PlaceOrders& action);

}  // namespace diskref::rules
