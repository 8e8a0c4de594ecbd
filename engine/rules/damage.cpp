#include "engine/rules/damage.h"

#include <algorithm>

#include "engine/rules/criticals.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

DamageResult split_hits(int shields, int hull, int hits) {
  DamageResult r;
  r.to_shields = std::min(shields, hits);
  r.to_hull = std::min(hull, hits - r.to_shields);
  r.destroyed = hull - r.to_hull <= 0;
  return r;
}

void destroy_ship(Ctx& ctx, ShipState& ship, const std::string& why) {
  if (ship.destroyed) return;
  ship.destroyed = true;
  ship.pending.clear();
  for (CrewTechDisk* d : disks_aboard(ctx.state, ship.id)) d->in_play = false;
  PhaseState& phase = ctx.state.phase;
  auto it = std::find(phase.to_act.begin(), phase.to_act.end(), ship.id);
  if (it != phase.to_act.end()) {
    int index = static_cast<int>(it - phase.to_act.begin());
    phase.to_act.erase(it);
    if (index < phase.option) --phase.option;
    if (phase.option >= static_cast<int>(phase.to_act.size())) phase.option = 0;
  }
  if (phase.acting == ship.id) {
    phase.acting.reset();
    phase.option = 0;
  }
  ctx.emit(event::Destroyed{ship.id, why}, ship.id + " is destroyed: " + why);
}

namespace {

DamageResult finish(Ctx& ctx, ShipState& ship, DamageResult r, const std::string& cause, bool crit_check) {
  ship.shields -= r.to_shields;
  ship.hull -= r.to_hull;
  ctx.emit(event::Damage{ship.id, cause, r.to_shields, r.to_hull, ship.shields, ship.hull},
           ship.id + " takes " + std::to_string(r.to_shields + r.to_hull) + " damage from " + cause + ": shields " +
               std::to_string(ship.shields + r.to_shields) + " -> " + std::to_string(ship.shields) + ", hull " +
               std::to_string(ship.hull + r.to_hull) + " -> " + std::to_string(ship.hull));
  if (ship.hull <= 0) {
    destroy_ship(ctx, ship, "hull reached 0");
    return r;
  }
  if (crit_check && r.to_shields + r.to_hull > 0) critical_check(ctx, ship, r.to_hull > 0);
  r.destroyed = ship.destroyed;
  return r;
}

}  // namespace

DamageResult apply_hits(Ctx& ctx, ShipState& ship, int hits, const std::string& cause) {
  if (hits <= 0 || ship.destroyed) return {};
  return finish(ctx, ship, split_hits(ship.shields, ship.hull, hits), cause, true);
}

DamageResult apply_hull_hits(Ctx& ctx, ShipState& ship, int hits, const std::string& cause, bool crit_check) {
  if (hits <= 0 || ship.destroyed) return {};
  return finish(ctx, ship, split_hits(0, ship.hull, hits), cause, crit_check);
}

DamageResult weapon_damage(Ctx& ctx, ShipState& target, int rating, const std::string& cause) {
  DropOutcome drop = ctx.drop({DropPurpose::damage, target.id, rating, {}});
  ctx.emit(
      event::Hits{target.id, cause, drop.hits(), rating},
      cause + " scores " + std::to_string(drop.hits()) + " hit" + (drop.hits() == 1 ? "" : "s") + " on " + target.id);
  DamageResult r = apply_hits(ctx, target, drop.hits(), cause);
  r.scored = drop.hits();
  return r;
}

}  // namespace diskref::rules
