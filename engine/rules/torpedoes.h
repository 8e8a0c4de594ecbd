#pragma once
// Torpedoes: launch into the bay, movement, lifetime and contact. "If a torpedo makes contact with
// any ship at any time, it inflicts its damage immediately and is removed from play ... This
// includes the possibility of a ship hitting a torpedo at any point during the ship's movement.
// Ships can hit their own torpedoes". Lifetime: docs/rules.md, open parameter 4 (moves at launch,
// then at the end of its launch phase and the next two; removed after the last).

#include <string>
#include <vector>

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

// Places a torpedo in the ship's bay (touching the middle of its front) and makes its launch move.
void launch_torpedo(Ctx& ctx, ShipState& ship, const LaunchTorpedo& order);

// The torpedo strikes `ship`: removed from play, then its damage is dropped and applied.
void torpedo_strikes(Ctx& ctx, const std::string& torpedo_id, ShipState& ship);

// End of phase: all torpedoes move simultaneously, flip by flip; each may first take a new heading.
// Torpedoes that have made their last move expire.
void move_all_torpedoes(Ctx& ctx, const MoveTorpedoes& action);

// Any torpedo touching a ship now strikes it (after turns, repositions, launches: "at any time"),
// except where the referee ruled this action's contacts on the table (Ctx::ruled).
void resolve_resting_contacts(Ctx& ctx);

// Whether a torpedo strikes this ship (docs/rules.md, open parameter 21: cloaked ships too, by
// default).
bool torpedo_can_strike(const Ctx& ctx, const ShipState& ship);

}  // namespace diskref::rules
