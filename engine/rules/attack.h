#pragma once
// The Attack order: "When a ship executes an Attack order, it may do one of three things: fire its
// beam weapon, launch a photon torpedo, or transport any number of onboard crew to another ship."

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

// "To attack with beam weapons, there must be a target ship within range of your ship's weapons."
// Drops the beam rating in counters; with `refire`, a ready beam_refire ability (Pulse Phasers)
// that the hits satisfy is flipped and the beam fires again.
void fire_beam(Ctx& ctx, ShipState& ship, const BeamAttack& order);

// "To transport crew you must be within range of the target ship or terrain disk and your shields
// and the target's shields must be at 0". Range bonuses (Advanced Transporter) apply.
void transport_crew(Ctx& ctx, ShipState& ship, const Transport& order);

}  // namespace diskref::rules
