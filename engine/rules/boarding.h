#pragma once
// Step 4: Boarding. "Once Step 3 ends, Step 4 resolves crew combat on any ships containing crew
// disks belonging to opposing players." Sides are teams. A segment: each player drops counters
// equal to the combat total of his ready crew aboard; the side with most hits wins and every other
// side loses one crew of its choosing (revealed, never unrevealed); on a tie for most, every side
// loses one. Up to three segments, or until a side has no (revealed) crew left. At the end of
// Step 4 the player with the highest revealed command aboard controls the ship
// (docs/rules.md, open parameter 20).

#include <vector>

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

// The combats that Step 4 must resolve: ships holding crew of one team and revealed crew of
// another.
std::vector<BoardingCombat> find_combats(const GameState& state, const GameData& data);

// The BoardingSegment action.
void boarding_segment(Ctx& ctx, const BoardingSegment& action);

// End of Step 4: who controls each ship for the next turn.
void resolve_control(Ctx& ctx);

}  // namespace diskref::rules
