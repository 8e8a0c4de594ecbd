#include "engine/rules/collisions.h"

#include <fmt/format.h>

#include "engine/rules/damage.h"
#include "engine/rules/need.h"
#include "engine/rules/phase_turns.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/table_geometry.h"

namespace diskref::rules {

namespace {

bool collision_check(Ctx& ctx, const ShipState& ship, const std::string& other) {
  DropOutcome drop = ctx.drop({DropPurpose::collision, ship.id, kCollisionCheckCounters, {}});
  bool collided = collision_check_collides(drop.crits());
  std::string text = ship.id + (collided ? " collides with " : " passes clear of ") + other + " (" +
                     std::to_string(drop.crits()) + " critical" + (drop.crits() == 1 ? "" : "s") + " showing)";
  if (collided)
    ctx.emit(event::Collision{ship.id, other, drop.crits()}, std::move(text));
  else
    ctx.emit(event::NoCollision{ship.id, other, drop.crits()}, std::move(text));
  return collided;
}

// Places the ship at `pose` after checking it touches, but does not overlap, `other`.
void place_adjacent(Ctx& ctx, ShipState& ship, const geom::Pose& pose, const geom::PlacedShape& other,
                    const std::string& other_id, const std::string& who) {
  ShipState moved = ship;
  moved.pose = pose;
  Adjacency a = adjacency(ctx.params(), placed(moved), other);
  if (!a.adjacent) {
    refuse(RefusalKind::bad_choice,
           "the reposition must be adjacent to " + other_id + " (touching, but not overlapping): its outline gap is " +
               fmt::format("{:.2f} mm", a.gap_mm) + (a.gap_mm < 0 ? " (overlapping)" : " (not touching)"));
  }
  ship.pose = pose;
  ctx.emit(event::Repositioned{ship.id, pose.position.x, pose.position.y, pose.heading_deg(), a.gap_mm},
           who + " places " + ship.id + " adjacent to " + other_id);
}

// The results a collision shares: hull hits, speed zero and orders removed "just as if you had
// declared evasive action". Returns false when the ship was destroyed.
bool collision_results(Ctx& ctx, ShipState& ship, int hull_hits, const std::string& other) {
  apply_hull_hits(ctx, ship, hull_hits, "collision with " + other, ctx.params().collision_damage_crit_check);
  if (ship.destroyed) return false;
  remove_remaining_orders(ctx, ship, "collision with " + other);
  return true;
}

}  // namespace

void resolve_collisions(Ctx& ctx, ShipState& ship, const std::vector<std::string>& overlapped,
                        const std::optional<geom::Pose>& reposition) {
  bool placed_again = false;
  for (const std::string& id : overlapped) {
    if (ship.destroyed || placed_again) break;
    if (ShipState* other = find_ship(ctx.state, id); other != nullptr && !other->destroyed) {
      // Ship-Ship: one hit to the hull; "the player whose ship you hit may pick your disk up and
      // place it anywhere adjacent to ... his ship".
      if (!collision_check(ctx, ship, id)) continue;
      // Offered once it collides, also when the collision's hull hit destroys the ship.
      if (!reposition && !ctx.placement_offered)
        ctx.placement_offered = NeededPlacement{ship.id, id, other->controller, true};
      if (!collision_results(ctx, ship, 1, id)) continue;
      if (reposition) {
        place_adjacent(ctx, ship, *reposition, placed(*other), id, other->controller);
        placed_again = true;
      } else {
        ctx.emit(event::NotRepositioned{ship.id}, other->controller + " leaves " + ship.id + " where it is");
      }
      continue;
    }
    Terrain* terrain = find_terrain(ctx.state, id);
    if (terrain == nullptr || !terrain->in_play) continue;
    if (terrain->kind == TerrainKind::obstruction) {
      // Ship-Obstruction: removed from play, and its damage value in hits (not random).
      terrain->in_play = false;
      ctx.emit(event::Obstruction{ship.id, id, terrain->damage}, ship.id + " hits obstruction " + id + " (damage " +
                                                                     std::to_string(terrain->damage) +
                                                                     "); the obstruction is removed from play");
      apply_hits(ctx, ship, terrain->damage, "obstruction " + id);
      continue;
    }
    // Ship-Planet: two hits to the hull, and "you reposition your ship adjacent to the planet".
    if (!collision_check(ctx, ship, id) || !collision_results(ctx, ship, 2, id)) continue;
    if (!reposition)
      need_placement({ship.id, id, ship.controller, false}, ship.id + " collided with " + id +
                                                                ": give the pose adjacent to it where " +
                                                                ship.controller + " places the ship (reposition)");
    place_adjacent(ctx, ship, *reposition, placed(*terrain), id, ship.controller);
    placed_again = true;
  }
  if (reposition && !placed_again && !ship.destroyed)
    refuse(RefusalKind::bad_choice, "a reposition was given but no collision placed " + ship.id + " again");
}

}  // namespace diskref::rules
