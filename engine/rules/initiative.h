#pragma once
// Command initiative: "add up the total command value of the revealed crew on each of your ships.
// The ship with the highest command total goes first. Ties go to the ship with the lowest current
// speed. In the case of two or more ships having equal command going the same speed, use a random
// method such as the highest number of hits dropped on five damage counters"
// (docs/rules.md, open parameter 13: most hits first; still tied ships drop again).

#include <string>
#include <vector>

#include "engine/rules/context.h"

namespace diskref::rules {

// The ships in play in initiative order; ties are broken with drops.
std::vector<std::string> initiative_order(Ctx& ctx);

// The DetermineInitiative action: orders the phase and gives the first ship the option.
void determine_initiative(Ctx& ctx);

// Starts the ships' part of the phase in `order` (used also when initiative is kept for the turn).
void start_ships_stage(Ctx& ctx, std::vector<std::string> order);

}  // namespace diskref::rules
