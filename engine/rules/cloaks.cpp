#include "engine/rules/cloaks.h"

#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

CrewTechDisk* cloak_device(GameState& state, const GameData& data, const ShipState& ship) {
  for (CrewTechDisk* d : disks_aboard(state, ship.id))
    if (d->revealed && card_of(data, *d).ability(AbilityType::cloak) != nullptr) return d;
  return nullptr;
}

namespace {
std::string roman(CloakType type) {
  return type == CloakType::type_1 ? "I" : type == CloakType::type_2 ? "II" : "III";
}
}  // namespace

CloakType cloak_type(const GameData& data, const CrewTechDisk& device) {
  return card_of(data, device).ability(AbilityType::cloak)->cloak;
}

void raise_cloak(Ctx& ctx, ShipState& ship, CrewTechDisk& device, bool by_order) {
  if (ship.cloaked) refuse(RefusalKind::already_done, ship.id + "'s cloak is already raised");
  if (!in_effect(device)) refuse(RefusalKind::disk_not_ready, device.id + " is not ready");
  CloakType type = cloak_type(ctx.data, device);
  if (!by_order && type == CloakType::type_1)
    refuse(RefusalKind::illegal_value, "a Type I cloak needs an Activate Crew/Tech order to activate");
  device.ready = false;
  ship.cloaked = true;
  ship.cloak_raised_phase = ctx.state.phase_serial;
  ship.shields = 0;
  ctx.emit(event::CloakRaised{ship.id, device.id, type},
           ship.id + " raises its Type " + roman(type) + " cloak; shields reduced to 0");
}

void drop_cloak(Ctx& ctx, ShipState& ship, CrewTechDisk& device) {
  if (!ship.cloaked) refuse(RefusalKind::already_done, ship.id + " is not cloaked");
  if (ship.cloak_raised_phase == ctx.state.phase_serial)
    refuse(RefusalKind::wrong_step, "the cloak may not be lowered the same phase it was raised");
  CloakType type = cloak_type(ctx.data, device);
  device.ready = true;
  ship.cloaked = false;
  if (type == CloakType::type_3) ship.shields = max_shields(ctx.data, ship);
  ctx.emit(event::CloakDropped{ship.id, device.id, ship.shields},
           ship.id + " drops its cloak; shields " +
               (type == CloakType::type_3 ? "raise to full (" + std::to_string(ship.shields) + ")"
                                          : std::string("remain at 0 until raised")));
}

namespace {

CrewTechDisk& device_or_refuse(Ctx& ctx, const ShipState& ship) {
  CrewTechDisk* device = cloak_device(ctx.state, ctx.data, ship);
  if (device == nullptr) refuse(RefusalKind::order_not_available, ship.id + " has no revealed cloaking device");
  return *device;
}

void require_before_reveal(const Ctx& ctx, const ShipState& ship, const char* what) {
  if (ctx.state.step != Step::execute || ctx.state.phase.stage == PhaseStage::torpedoes)
    refuse(RefusalKind::wrong_step, std::string("a cloak is ") + what + " at the beginning of an Orders phase");
  const auto phase = static_cast<std::size_t>(ctx.state.phase.number);
  bool slot_revealed = ship.orders.size() >= phase && ship.orders[phase - 1].revealed;
  if (slot_revealed || ship.moved)
    refuse(RefusalKind::wrong_step, std::string("a cloak is ") + what + " before the ship reveals that phase's order");
}

}  // namespace

void raise_cloak_action(Ctx& ctx, ShipState& ship) {
  require_before_reveal(ctx, ship, "raised without an order");
  raise_cloak(ctx, ship, device_or_refuse(ctx, ship), false);
}

void drop_cloak_action(Ctx& ctx, ShipState& ship) {
  require_before_reveal(ctx, ship, "dropped");
  drop_cloak(ctx, ship, device_or_refuse(ctx, ship));
}

}  // namespace diskref::rules
