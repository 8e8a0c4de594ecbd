#pragma once
// Activating crew and tech. "Some crew have order icons on their disk. In this case, the crew may
// be flipped to execute those orders." "Some disks require the Activate Crew/Tech order to use ...
// When activating such a disk, you must flip it." Flipping a disk activates it; "Activated disks
// can't use abilities, issue orders, be transported, or be used in any other way until readied
// again."

#include <string>

#include "engine/rules/actions.h"
#include "engine/rules/context.h"

namespace diskref::rules {

// Flips a ready disk to its activated side.
void flip_to_activated(Ctx& ctx, CrewTechDisk& disk, const std::string& why);

// Readies an activated disk (a cloaking device readied drops the cloak).
void ready_disk(Ctx& ctx, ShipState& ship, CrewTechDisk& disk, const std::string& why);

// Executes an Activate Crew/Tech order on `ship`: a crew's order row (its orders become pending),
// a disk's Activate Crew/Tech ability (Barclay: ready a tech), or a cloaking device.
void execute_activate(Ctx& ctx, ShipState& ship, const ActivateDisk& order);

}  // namespace diskref::rules
