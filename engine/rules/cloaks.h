#pragma once
// Cloaking devices, types I, II and III (tech disks with a "cloak" ability). The cloak is raised
// while its disk is activated: "While activated, the ship's shields are reduced to 0 and it cannot
// fire at other ships." Type I needs an Activate Crew/Tech order; types II and III may be raised
// before any Orders phase without one; "It may not be lowered the same phase it was raised."; type
// III raises the shields to full when dropped.

#include "engine/rules/context.h"

namespace diskref::rules {

// The ship's cloaking device (revealed and in play), or nullptr.
CrewTechDisk* cloak_device(GameState& state, const GameData& data, const ShipState& ship);
CloakType cloak_type(const GameData& data, const CrewTechDisk& device);

// Raises the cloak with `device` (ready). `by_order`: through an Activate Crew/Tech order; without
// one only types II and III may be raised.
void raise_cloak(Ctx& ctx, ShipState& ship, CrewTechDisk& device, bool by_order);

// Drops the cloak: the device is readied; shields stay at 0 (types I, II) or go to full (III).
void drop_cloak(Ctx& ctx, ShipState& ship, CrewTechDisk& device);

// The RaiseCloak / DropCloak actions: "At the beginning of any Orders phase, before revealing that
// phase's order".
void raise_cloak_action(Ctx& ctx, ShipState& ship);
void drop_cloak_action(Ctx& ctx, ShipState& ship);

}  // namespace diskref::rules
