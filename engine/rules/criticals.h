#pragma once
// The critical check. "Whenever you inflict damage on a ship, select one of each critical counter,
// shake all five of them, and drop them on the table." "If your ship takes damage only to its
// shields, then a critical occurs if only one of the five damage disks shows a critical. If your
// ship takes any hull damage during an attack, then a critical occurs if one or two damage
// counters show a critical." "As soon as a ship takes a second Crit of the same type, it is
// destroyed."

#include <string>
#include <vector>

#include "engine/rules/context.h"

namespace diskref::rules {

// Which of the critical types showing take effect: shield-only damage needs exactly one showing;
// hull damage one or two (both apply); otherwise none.
std::vector<std::string> criticals_taking_effect(const std::vector<std::string>& showing, bool hull_damage);

// Drops one counter of each critical type for `ship` and applies the criticals that occur.
void critical_check(Ctx& ctx, ShipState& ship, bool hull_damage);

// Puts a counter of `crit` on the control panel and applies its effects; the second counter of a
// type destroys the ship.
void take_critical(Ctx& ctx, ShipState& ship, const CritType& crit);

}  // namespace diskref::rules
