#include "engine/rules/boarding.h"

#include <algorithm>
#include <map>

#include "engine/rules/need.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

std::vector<const CrewTechDisk*> crew_aboard(const GameState& state, const GameData& data, const std::string& ship) {
  std::vector<const CrewTechDisk*> out;
  for (const CrewTechDisk* d : disks_aboard(state, ship))
    if (card_of(data, *d).kind == DiskKindOfCard::crew) out.push_back(d);
  return out;
}

// Teams with revealed crew aboard (the only crew that can fight or be killed).
std::vector<std::string> teams_with_revealed_crew(const GameState& state, const GameData& data,
                                                  const std::string& ship) {
  std::vector<std::string> teams;
  for (const CrewTechDisk* d : crew_aboard(state, data, ship)) {
    std::string team = team_of(state, d->owner);
    if (d->revealed && std::find(teams.begin(), teams.end(), team) == teams.end()) teams.push_back(team);
  }
  return teams;
}

bool combat_on(const GameState& state, const GameData& data, const ShipState& ship) {
  // "your crew occupies an enemy ship that also contains revealed opposing crew"
  auto crew = crew_aboard(state, data, ship.id);
  for (const CrewTechDisk* boarder : crew) {
    if (same_team(state, boarder->owner, ship.controller)) continue;
    for (const CrewTechDisk* other : crew)
      if (other->revealed && !same_team(state, other->owner, boarder->owner)) return true;
  }
  return false;
}

}  // namespace

std::vector<BoardingCombat> find_combats(const GameState& state, const GameData& data) {
  std::vector<BoardingCombat> out;
  for (const ShipState& s : state.ships)
    if (!s.destroyed && combat_on(state, data, s)) out.push_back({s.id, 0, false});
  return out;
}

void boarding_segment(Ctx& ctx, const BoardingSegment& action) {
  if (ctx.state.step != Step::boarding) refuse(RefusalKind::wrong_step, "crew combat is resolved in Step 4");
  auto combat = std::find_if(ctx.state.boarding.begin(), ctx.state.boarding.end(),
                             [&](const BoardingCombat& c) { return c.ship == action.ship; });
  if (combat == ctx.state.boarding.end())
    refuse(RefusalKind::unknown_name, "no crew combat on " + in_quotes(action.ship));
  if (combat->over) refuse(RefusalKind::already_done, "the crew combat on " + action.ship + " is over");
  const GameData& data = ctx.data;

  // Each player drops the combat total of his ready crew aboard; hits add up per team.
  std::map<std::string, int> team_hits;
  for (const std::string& team : teams_with_revealed_crew(ctx.state, data, action.ship)) team_hits[team] = 0;
  for (const Player& p : ctx.state.players) {
    int total = 0;
    bool present = false;
    for (const CrewTechDisk* d : crew_aboard(ctx.state, data, action.ship)) {
      if (d->owner != p.id) continue;
      present = present || d->revealed;
      if (in_effect(*d)) total += card_of(data, *d).combat;
    }
    if (!present) continue;
    int hits = total > 0 ? ctx.drop({DropPurpose::boarding, p.id, total, {}}).hits() : 0;
    team_hits[p.team] += hits;
    ctx.emit(event::BoardingDrop{action.ship, p.id, total, hits},
             p.id + " drops " + std::to_string(total) + " counters for crew combat: " + std::to_string(hits) +
                 (hits == 1 ? " hit" : " hits"));
  }
  int best = 0;
  for (const auto& [team, hits] : team_hits) best = std::max(best, hits);
  int at_best = static_cast<int>(
      std::count_if(team_hits.begin(), team_hits.end(), [&](const auto& e) { return e.second == best; }));
  std::vector<std::string> losers;
  for (const auto& [team, hits] : team_hits)
    if (hits < best || at_best > 1) losers.push_back(team);
  ctx.emit(event::BoardingSegment{action.ship, team_hits, losers},
           "segment " + std::to_string(combat->segments + 1) + " on " + action.ship +
               (at_best > 1 ? ": a tie, every side loses one crew" : ": the side with most hits wins"));

  // Each losing side loses one revealed crew of its choosing ("The opponent may choose to kill an
  // activated crew, but unrevealed crew cannot be killed.").
  std::vector<std::string> used;
  for (const std::string& team : losers) {
    std::vector<std::string> candidates;
    for (const CrewTechDisk* d : crew_aboard(ctx.state, data, action.ship))
      if (d->revealed && team_of(ctx.state, d->owner) == team) candidates.push_back(d->id);
    if (candidates.empty()) continue;
    std::string chosen;
    for (const std::string& id : action.losses)
      if (std::find(candidates.begin(), candidates.end(), id) != candidates.end()) chosen = id;
    if (chosen.empty() && candidates.size() == 1) chosen = candidates.front();
    if (chosen.empty()) {
      std::string list;
      for (const std::string& c : candidates) list += (list.empty() ? "" : ", ") + c;
      need_choice("team " + team + " loses a crew on " + action.ship + ": choose one of " + list + " (losses)",
                  candidates);
    }
    find_disk(ctx.state, chosen)->in_play = false;
    used.push_back(chosen);
    ctx.emit(event::CrewKilled{action.ship, chosen}, chosen + " (team " + team + ") is killed");
  }
  for (const std::string& id : action.losses)
    if (std::find(used.begin(), used.end(), id) == used.end())
      refuse(RefusalKind::bad_choice,
             id + " cannot be lost in this segment (not revealed crew of a losing side aboard)");

  ++combat->segments;
  bool sides_left = teams_with_revealed_crew(ctx.state, data, action.ship).size() >= 2;
  if (combat->segments >= 3 || !sides_left) {
    combat->over = true;
    ctx.emit(event::BoardingOver{action.ship, combat->segments}, "crew combat on " + action.ship + " ends after " +
                                                                     std::to_string(combat->segments) + " segment" +
                                                                     (combat->segments == 1 ? "" : "s"));
  }
}

void resolve_control(Ctx& ctx) {
  for (ShipState& ship : ctx.state.ships) {
    if (ship.destroyed) continue;
    std::map<std::string, int> command;  // per player with crew aboard
    bool defenders_revealed = false;
    bool boarders = false;
    for (const CrewTechDisk* d : crew_aboard(ctx.state, ctx.data, ship.id)) {
      bool friendly = same_team(ctx.state, d->owner, ship.controller);
      boarders = boarders || !friendly;
      defenders_revealed = defenders_revealed || (friendly && d->revealed);
      command[d->owner] += d->revealed ? card_of(ctx.data, *d).command : 0;
    }
    if (!boarders) continue;
    // Highest revealed command; ties keep the current controller, else the first player listed.
    // With no revealed defender the boarders take the ship uncontested.
    std::string best;
    int best_command = -1;
    for (const Player& p : ctx.state.players) {
      auto it = command.find(p.id);
      if (it == command.end()) continue;
      if (!defenders_revealed && same_team(ctx.state, p.id, ship.controller)) continue;
      bool keep_tie = it->second == best_command && p.id == ship.controller;
      if (it->second > best_command || keep_tie) {
        best = p.id;
        best_command = it->second;
      }
    }
    if (best.empty() || best == ship.controller) continue;
    if (defenders_revealed && command[ship.controller] == best_command) continue;
    ctx.emit(event::Control{ship.id, ship.controller, best, best_command},
             best + " takes control of " + ship.id + " (command " + std::to_string(best_command) + ")");
    ship.controller = best;
  }
}

}  // namespace diskref::rules
