#include "engine/rules/attack.h"

#include <cmath>
#include <optional>

#include <fmt/format.h>

#include "engine/rules/activation.h"
#include "engine/rules/damage.h"
#include "engine/rules/need.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/table_geometry.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

std::string mm(double v) {
  return fmt::format("{:.1f} mm", v);
}

// `ruled`: the referee's call on the table (spec §9), which stands over the books' exact geometry
// (the call was taken from the measured poses and their uncertainty, or decided when too close).
geom::RangeOutput require_in_range(Ctx& ctx, const ShipState& from, const geom::PlacedShape& to,
                                   const std::string& to_id, int extra_ranges, std::optional<bool> ruled) {
  geom::RangeOutput range = range_between(ctx.params(), placed(from), to, extra_ranges);
  bool in_range = ruled.value_or(range.in_range);
  std::string by = ruled ? " (the referee's call on the table)" : "";
  if (!in_range)
    refuse(RefusalKind::out_of_range, to_id + " is out of range of " + from.id + ": gap " + mm(range.gap_mm) +
                                          ", the template reaches " + mm(range.reach_mm) + by);
  ctx.emit(event::InRange{from.id, to_id, range.gap_mm, range.reach_mm, range.margin_mm, ruled.has_value()},
           to_id + " is in range of " + from.id + " (margin " + mm(range.margin_mm) + ")" + by);
  return range;
}

// A ready beam_refire disk aboard whose condition `scored` satisfies.
CrewTechDisk* refire_disk(Ctx& ctx, const ShipState& ship, int scored) {
  for (CrewTechDisk* d : disks_aboard(ctx.state, ship.id)) {
    const Ability* a = card_of(ctx.data, *d).ability(AbilityType::beam_refire);
    bool sides_with_ship = card_of(ctx.data, *d).kind == DiskKindOfCard::tech || is_friendly_crew(ctx.state, ship, *d);
    if (a == nullptr || !in_effect(*d) || !sides_with_ship) continue;
    if (a->or_more ? scored >= a->amount : scored == a->amount) return d;
  }
  return nullptr;
}

}  // namespace

void fire_beam(Ctx& ctx, ShipState& ship, const BeamAttack& order) {
  if (ship.cloaked) refuse(RefusalKind::cloaked, "cloaked ships cannot fire (" + ship.id + " is cloaked)");
  ShipState& target = ship_or_refuse(ctx.state, order.target);
  if (target.id == ship.id) refuse(RefusalKind::bad_choice, "a ship cannot fire at itself");
  if (target.cloaked) refuse(RefusalKind::cloaked, "cloaked ships cannot be fired upon (" + target.id + " is cloaked)");
  const int rating = card_of(ctx.data, ship).beam;
  for (bool fire = true; fire;) {
    require_in_range(ctx, ship, placed(target), target.id, 0, order.in_range);
    ctx.emit(event::BeamFired{ship.id, target.id, rating},
             ship.id + " fires its beam weapon (rating " + std::to_string(rating) + ") at " + target.id);
    DamageResult r = weapon_damage(ctx, target, rating, "beam from " + ship.id);
    fire = false;
    if (!order.refire || target.destroyed) break;
    if (CrewTechDisk* disk = refire_disk(ctx, ship, r.scored)) {
      flip_to_activated(ctx, *disk, "fires again after " + std::to_string(r.scored) + " hits (no order required)");
      fire = true;
    }
  }
}

void transport_crew(Ctx& ctx, ShipState& ship, const Transport& order) {
  if (order.crew.empty()) need_choice("name the crew to transport");
  geom::PlacedShape target_shape;
  int target_shields = 0;
  if (ShipState* target = find_ship(ctx.state, order.target); target != nullptr && !target->destroyed) {
    if (target->id == ship.id) refuse(RefusalKind::bad_choice, "crew cannot transport to their own ship");
    target_shape = placed(*target);
    target_shields = target->shields;
  } else if (const Terrain* terrain = find_terrain(ctx.state, order.target);
             terrain != nullptr && terrain->in_play && terrain->kind != TerrainKind::obstruction) {
    target_shape = placed(*terrain);
  } else {
    refuse(RefusalKind::unknown_name, "no ship or terrain disk " + in_quotes(order.target) + " to transport to");
  }
  if (ship.shields != 0 || target_shields != 0)
    refuse(RefusalKind::shields_up, "transporting needs both shields at 0 (" + ship.id + ": " +
                                        std::to_string(ship.shields) + ", " + order.target + ": " +
                                        std::to_string(target_shields) + ")");
  int bonus = continuous_bonus(ctx.state, ctx.data, ship, AbilityType::transporter_range);
  require_in_range(ctx, ship, target_shape, order.target, bonus, order.in_range);
  std::vector<CrewTechDisk*> moving;
  for (const std::string& id : order.crew) {
    CrewTechDisk& disk = disk_or_refuse(ctx.state, id);
    if (card_of(ctx.data, disk).kind != DiskKindOfCard::crew) refuse(RefusalKind::bad_choice, id + " is not crew");
    if (disk.location != ship.id) refuse(RefusalKind::bad_choice, id + " is not aboard " + ship.id);
    if (!is_friendly_crew(ctx.state, ship, disk))
      refuse(RefusalKind::not_yours, id + " is not " + ship.controller + "'s crew");
    if (!in_effect(disk)) refuse(RefusalKind::disk_not_ready, "only ready crew may be transported (" + id + " is not)");
    moving.push_back(&disk);
  }
  for (CrewTechDisk* d : moving) d->location = order.target;
  ctx.emit(event::Transported{ship.id, order.target, order.crew, bonus},
           std::to_string(moving.size()) + " crew transported from " + ship.id + " to " + order.target +
               (bonus > 0 ? " (+" + std::to_string(bonus) + " transporter range)" : ""));
}

}  // namespace diskref::rules
