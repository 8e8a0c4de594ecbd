#include "engine/rules/initiative.h"

#include <algorithm>
#include <map>

#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

namespace {

// Orders `tied` ships by drops: most hits first; ships still tied drop again.
std::vector<std::string> break_tie(Ctx& ctx, const std::vector<std::string>& tied) {
  if (tied.size() < 2) return tied;
  std::map<int, std::vector<std::string>, std::greater<>> by_hits;
  for (const std::string& id : tied)
    by_hits[ctx.drop({DropPurpose::initiative, id, ctx.params().initiative_tie_counters, {}}).hits()].push_back(id);
  std::vector<std::string> out;
  for (auto& [hits, ids] : by_hits)
    for (const std::string& id : break_tie(ctx, ids)) out.push_back(id);
  return out;
}

}  // namespace

std::vector<std::string> initiative_order(Ctx& ctx) {
  struct Entry {
    std::string id;
    int command;
    int speed;
  };
  std::vector<Entry> entries;
  for (const ShipState& s : ctx.state.ships)
    if (!s.destroyed) entries.push_back({s.id, command_total(ctx.state, ctx.data, s), s.speed});
  std::stable_sort(entries.begin(), entries.end(), [](const Entry& a, const Entry& b) {
    return a.command != b.command ? a.command > b.command : a.speed < b.speed;
  });
  std::vector<std::string> order;
  for (std::size_t i = 0; i < entries.size();) {
    std::size_t j = i;
    std::vector<std::string> group;
    while (j < entries.size() && entries[j].command == entries[i].command && entries[j].speed == entries[i].speed)
      group.push_back(entries[j++].id);
    for (const std::string& id : break_tie(ctx, group)) order.push_back(id);
    i = j;
  }
  std::vector<event::InitiativeShip> ranked;
  std::string text;
  for (const std::string& id : order) {
    const Entry& e = *std::find_if(entries.begin(), entries.end(), [&](const Entry& x) { return x.id == id; });
    ranked.push_back({id, e.command, e.speed});
    text += (text.empty() ? "" : ", ") + id + " (command " + std::to_string(e.command) + ", speed " +
            std::to_string(e.speed) + ")";
  }
  ctx.emit(event::Initiative{ctx.state.phase.number, std::move(ranked)},
           "initiative for phase " + std::to_string(ctx.state.phase.number) + ": " + text);
  return order;
}

void start_ships_stage(Ctx& ctx, std::vector<std::string> order) {
  PhaseState& phase = ctx.state.phase;
  phase.initiative = order;
  phase.to_act = std::move(order);
  phase.option = 0;
  phase.acting.reset();
  phase.stage = PhaseStage::ships;
  if (!phase.to_act.empty())
    ctx.emit(event::Option{phase.to_act.front()}, phase.to_act.front() + " has the first option to act");
}

void determine_initiative(Ctx& ctx) {
  if (ctx.state.step != Step::execute || ctx.state.phase.stage != PhaseStage::initiative)
    refuse(RefusalKind::wrong_step, "command initiative is determined at the start of an orders phase");
  start_ships_stage(ctx, initiative_order(ctx));
}

}  // namespace diskref::rules
