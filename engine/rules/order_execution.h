#pragma once
// Executing an order in Step Three: the ship's revealed panel order or an order a crew issued.
// "A ship can execute an order and move in any sequence."; "each order may occur before or after
// movement." Orders are never executed in the middle of movement (a move is one action).

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

void execute_order(Ctx& ctx, const ExecuteOrder& action);

// Change Speed: "Raise or lower your current speed by one or two", never above the maximum.
void change_speed(Ctx& ctx, ShipState& ship, int new_speed);
// Change Heading: "rotate your ship in any direction up to 360º".
void change_heading(Ctx& ctx, ShipState& ship, double heading_deg, const std::string& how);
// Raise Shields: any value 0..max, or the maximum (docs/rules.md, open parameter 11).
void raise_shields(Ctx& ctx, ShipState& ship, const RaiseShields& order);

}  // namespace diskref::rules
