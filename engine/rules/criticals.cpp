#include "engine/rules/criticals.h"

#include "engine/rules/damage.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

std::vector<std::string> criticals_taking_effect(const std::vector<std::string>& showing, bool hull_damage) {
  std::size_t most = hull_damage ? 2 : 1;
  if (showing.empty() || showing.size() > most) return {};
  return showing;
}

void critical_check(Ctx& ctx, ShipState& ship, bool hull_damage) {
  DropRequest request{DropPurpose::critical, ship.id, static_cast<int>(ctx.data.crit_types.size()), {}};
  for (const CritType& c : ctx.data.crit_types) request.typed_counters.push_back(c.id);
  DropOutcome drop = ctx.drop(request);
  std::vector<std::string> showing = drop.crit_types(request);
  std::vector<std::string> effective = criticals_taking_effect(showing, hull_damage);
  if (effective.empty()) {
    ctx.emit(event::NoCritical{ship.id, showing, hull_damage},
             "no critical on " + ship.id + ": " + std::to_string(showing.size()) + " showing after " +
                 (hull_damage ? "hull damage (one or two needed)" : "shield-only damage (exactly one needed)"));
    return;
  }
  for (const std::string& id : effective) {
    if (ship.destroyed) break;
    take_critical(ctx, ship, *ctx.data.crit(id));
  }
}

namespace {

void apply_effect(Ctx& ctx, ShipState& ship, const CritEffect& effect, const CritType& crit) {
  switch (effect.type) {
    case CritEffectType::remove_revealed_crew: {
      std::vector<std::string> removed;
      for (CrewTechDisk* d : disks_aboard(ctx.state, ship.id)) {
        const DiskCard& card = card_of(ctx.data, *d);
        if (card.kind == DiskKindOfCard::crew && d->revealed && card.has_keyword(effect.keyword)) {
          d->in_play = false;
          removed.push_back(d->id);
        }
      }
      ctx.emit(event::CrewRemoved{ship.id, removed},
               removed.empty() ? crit.name + ": no revealed " + effect.keyword + " crew aboard " + ship.id
                               : crit.name + ": " + std::to_string(removed.size()) + " revealed " + effect.keyword +
                                     " crew removed from play");
      break;
    }
    case CritEffectType::shields_down:
      ship.shields = 0;
      ctx.emit(event::Shields{ship.id, 0}, crit.name + ": " + ship.id + "'s shields drop to 0");
      break;
    case CritEffectType::full_stop:
      ship.speed = 0;
      ctx.emit(event::Speed{ship.id, 0, std::nullopt}, crit.name + ": " + ship.id + " comes to Full Stop");
      break;
    case CritEffectType::max_speed_penalty:
      ship.max_speed_penalty += effect.amount;
      ctx.emit(event::MaxSpeed{ship.id, max_speed(ctx.state, ctx.data, ship)},
               crit.name + ": " + ship.id + "'s maximum speed falls by " + std::to_string(effect.amount));
      break;
  }
}

}  // namespace

void take_critical(Ctx& ctx, ShipState& ship, const CritType& crit) {
  int count = ++ship.crits[crit.id];
  ctx.emit(event::Critical{ship.id, crit.id, count},
           ship.id + " takes a " + crit.name + " critical (" + std::to_string(count) + " of this type)");
  if (count >= 2) {
    destroy_ship(ctx, ship, "a second " + crit.name + " critical");
    return;
  }
  for (const CritEffect& e : crit.effects) apply_effect(ctx, ship, e, crit);
}

}  // namespace diskref::rules
