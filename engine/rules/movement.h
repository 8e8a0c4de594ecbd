#pragma once
// Ship movement: "A ship moves by flipping end-over-end in a straight line. It flips a number of
// times equal to its current speed." Torpedo contacts along the way, leaving the play area,
// evasive action and the collisions where it ends. All geometry comes from flip_path.

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

// With a table run, the landings are the table's and its rulings say what it met (spec §9); the
// legal path's checks (evasive action allowed, Full Stop) still hold.
void move_ship(Ctx& ctx, const Move& action);

// The rulings a run's landings give by exact geometry (no uncertainty): torpedoes overlapped at a
// landing (first time each), the first landing whose centre lies beyond the play area's edge, the
// ships and terrain overlapped where it ends. What `diskref play` uses for a run given without
// rulings, and the referee's starting point before it weighs each margin.
TableRulings exact_rulings(const GameState& state, const ShipState& ship, const std::vector<geom::Pose>& landings);

// "If your ship's current speed is 0, it may change its heading at any time, without executing a
// Change Heading order."
void turn_at_full_stop(Ctx& ctx, const TurnAtFullStop& action);

// A disk found elsewhere than its books say (spec §9: moved out of turn, bumped): the books take
// the table's pose, and say so. Anyone may do it (the referee's action).
void displace_disk(Ctx& ctx, const Displaced& action);

}  // namespace diskref::rules
