#pragma once
// Ship movement: "A ship moves by flipping end-over-end in a straight line. It flips a number of
// times equal to its current speed." Torpedo contacts along the way, leaving the play area,
// evasive action and the collisions where it ends. All geometry comes from flip_path.

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

void move_ship(Ctx& ctx, const Move& action);

// "If your ship's current speed is 0, it may change its heading at any time, without executing a
// Change Heading order."
void turn_at_full_stop(Ctx& ctx, const TurnAtFullStop& action);

}  // namespace diskref::rules
