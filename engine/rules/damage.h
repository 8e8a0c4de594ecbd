#pragma once
// Damage: "Hits damage shields first, with residual points damaging the hull. A ship only suffers
// hull damage once its shields falls to zero. If your hull reaches 0, your ship is immediately
// destroyed." Every hit is followed by the critical check (criticals.h).

#include <string>

#include "engine/rules/context.h"

namespace diskref::rules {

struct DamageResult {
  int scored = 0;  // hits the drop scored (weapon_damage), before shields and hull absorb them
  int to_shields = 0;
  int to_hull = 0;
  bool destroyed = false;
};

// Pure arithmetic of shields-then-hull (no state change): how `hits` split.
DamageResult split_hits(int shields, int hull, int hits);

// Applies `hits` to shields then hull, destroys at hull 0, then makes the critical check.
// `cause` names the source for the log ("beam from enterprise").
DamageResult apply_hits(Ctx& ctx, ShipState& ship, int hits, const std::string& cause);

// Hits straight to the hull "regardless of its current shield rating" (collisions); the critical
// check follows when `crit_check` (docs/rules.md, open parameter 10).
DamageResult apply_hull_hits(Ctx& ctx, ShipState& ship, int hits, const std::string& cause, bool crit_check);

// Drops `counters` damage counters for a weapon's damage rating and applies the hits.
DamageResult weapon_damage(Ctx& ctx, ShipState& target, int rating, const std::string& cause);

// Marks the ship destroyed, removes the crew and tech aboard from play and takes it out of the
// phase. Idempotent.
void destroy_ship(Ctx& ctx, ShipState& ship, const std::string& why);

}  // namespace diskref::rules
