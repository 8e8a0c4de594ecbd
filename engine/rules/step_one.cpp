#include <algorithm>

#include "engine/rules/early_steps.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

CrewTechDisk& handled_disk_or_refuse(Ctx& ctx, const std::string& id) {
  CrewTechDisk& disk = disk_or_refuse(ctx.state, id);
  bool mine = false;
  if (card_of(ctx.data, disk).kind == DiskKindOfCard::crew) {
    mine = disk.owner == ctx.player;
  } else {
    const ShipState* ship = find_ship(ctx.state, disk.location);
    mine = ship != nullptr && ship->controller == ctx.player;
  }
  if (!mine) refuse(RefusalKind::not_yours, ctx.player + " cannot reveal or conceal " + id);
  return disk;
}

}  // namespace

void reveal_or_conceal(Ctx& ctx, const RevealConceal& action) {
  if (ctx.state.step != Step::reveal) refuse(RefusalKind::wrong_step, "disks are revealed or concealed in Step One");
  if (find_player(ctx.state, ctx.player) == nullptr)
    refuse(RefusalKind::unknown_name, "no player " + in_quotes(ctx.player));
  auto& done = ctx.state.reveal_done;
  if (std::find(done.begin(), done.end(), ctx.player) != done.end())
    refuse(RefusalKind::already_done, ctx.player + " has finished Step One this turn");
  for (const std::string& id : action.reveal) {
    if (std::find(action.conceal.begin(), action.conceal.end(), id) != action.conceal.end())
      refuse(RefusalKind::bad_choice, id + " cannot be both revealed and concealed");
    handled_disk_or_refuse(ctx, id).revealed = true;
  }
  for (const std::string& id : action.conceal) handled_disk_or_refuse(ctx, id).revealed = false;
  done.push_back(ctx.player);
  std::string text = ctx.player + " finishes Step One";
  if (!action.reveal.empty()) {
    text += ", revealing";
    for (const std::string& id : action.reveal) text += " " + id;
  }
  if (!action.conceal.empty()) text += ", concealing " + std::to_string(action.conceal.size()) + " disk(s)";
  ctx.emit(event::Reveal{ctx.player, action.reveal, action.conceal}, text);
}

}  // namespace diskref::rules
