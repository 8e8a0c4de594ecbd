#pragma once
// Collisions at the end of a ship's movement: "If a ship ends its movement overlapping another
// disk, the two disks might collide. The collision types cover three possibilities: ship-ship,
// ship-planet, and ship-obstruction collisions."

#include <optional>
#include <string>
#include <vector>

#include "engine/rules/context.h"

namespace diskref::rules {

// The five damage disks of the collision check: collided when exactly one shows a critical.
inline constexpr int kCollisionCheckCounters = 5;
inline bool collision_check_collides(int crits_showing) {
  return crits_showing == 1;
}

// Resolves the collisions of `ship`, which ended its movement overlapping each of `overlapped`
// (ships and terrain, in the geometry engine's order). `reposition` is the pose a collision
// places the ship at; refuses when a ship-planet collision needs one and none is given, or when
// the pose given is not adjacent to the disk collided with.
void resolve_collisions(Ctx& ctx, ShipState& ship, const std::vector<std::string>& overlapped,
                        const std::optional<geom::Pose>& reposition);

}  // namespace diskref::rules
