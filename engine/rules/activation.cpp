#include "engine/rules/activation.h"

#include "engine/rules/cloaks.h"
#include "engine/rules/need.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

void flip_to_activated(Ctx& ctx, CrewTechDisk& disk, const std::string& why) {
  disk.ready = false;
  ctx.emit(event::DiskActivated{disk.id}, disk.id + " is flipped (activated): " + why);
}

void ready_disk(Ctx& ctx, ShipState& ship, CrewTechDisk& disk, const std::string& why) {
  if (ship.cloaked && card_of(ctx.data, disk).ability(AbilityType::cloak) != nullptr) {
    drop_cloak(ctx, ship, disk);
    return;
  }
  disk.ready = true;
  ctx.emit(event::DiskReadied{disk.id}, disk.id + " is readied: " + why);
}

namespace {

// The disk, aboard this ship, on its controller's side, revealed and ready.
CrewTechDisk& usable_disk_or_refuse(Ctx& ctx, const ShipState& ship, const std::string& id) {
  CrewTechDisk& disk = disk_or_refuse(ctx.state, id);
  const DiskCard& card = card_of(ctx.data, disk);
  if (disk.location != ship.id) refuse(RefusalKind::not_yours, disk.id + " is not aboard " + ship.id);
  if (card.kind == DiskKindOfCard::crew && !is_friendly_crew(ctx.state, ship, disk))
    refuse(RefusalKind::not_yours, disk.id + " is enemy crew aboard " + ship.id);
  if (!disk.revealed) refuse(RefusalKind::disk_not_ready, disk.id + " is concealed");
  if (!disk.ready) refuse(RefusalKind::disk_not_ready, disk.id + " is activated and cannot be used until readied");
  return disk;
}

void activate_row(Ctx& ctx, ShipState& ship, CrewTechDisk& disk, const DiskCard& card, int row) {
  if (card.order_rows.empty()) refuse(RefusalKind::order_not_available, disk.id + " has no order icons");
  if (row < 0 || row >= static_cast<int>(card.order_rows.size()))
    refuse(RefusalKind::illegal_value, disk.id + " has order rows 0.." + std::to_string(card.order_rows.size() - 1));
  const auto& orders = card.order_rows[static_cast<std::size_t>(row)];
  flip_to_activated(ctx, disk, "issues its orders");
  std::string text;
  for (OrderKind k : orders) {
    ship.pending.push_back({k, disk.id});
    text += (text.empty() ? "" : " and ") + std::string(display_name(k));
  }
  ctx.emit(event::CrewOrders{ship.id, disk.id, row, orders}, disk.id + " issues " + text + " to " + ship.id);
}

void ready_a_tech(Ctx& ctx, ShipState& ship, CrewTechDisk& disk, const std::string& target_id) {
  if (target_id.empty()) need_choice(disk.id + " readies a tech: say which (ready_target)");
  CrewTechDisk& target = disk_or_refuse(ctx.state, target_id);
  if (card_of(ctx.data, target).kind != DiskKindOfCard::tech)
    refuse(RefusalKind::bad_choice, target.id + " is not a tech disk");
  if (target.location != ship.id) refuse(RefusalKind::bad_choice, target.id + " is not on " + ship.id);
  if (target.ready) refuse(RefusalKind::bad_choice, target.id + " is already ready");
  flip_to_activated(ctx, disk, "readies " + target.id);
  ready_disk(ctx, ship, target, "by " + disk.id);
}

}  // namespace

void execute_activate(Ctx& ctx, ShipState& ship, const ActivateDisk& order) {
  CrewTechDisk& disk = usable_disk_or_refuse(ctx, ship, order.disk);
  const DiskCard& card = card_of(ctx.data, disk);
  if (order.row) {
    activate_row(ctx, ship, disk, card, *order.row);
    return;
  }
  if (card.ability(AbilityType::ready_a_tech) != nullptr) {
    ready_a_tech(ctx, ship, disk, order.ready_target);
    return;
  }
  if (card.ability(AbilityType::cloak) != nullptr) {
    raise_cloak(ctx, ship, disk, true);
    return;
  }
  if (!card.order_rows.empty())
    need_choice(disk.id + " has " + std::to_string(card.order_rows.size()) + " order rows: choose one (row)");
  refuse(RefusalKind::order_not_available, disk.id + " has no orders and no Activate Crew/Tech ability");
}

}  // namespace diskref::rules
