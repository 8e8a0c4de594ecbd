#include "engine/rules/state_check.h"

#include <algorithm>
#include <cmath>
#include <set>

#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

bool finite(const geom::Pose& p) {
  return geom::is_valid(p);
}

void check_ids(const GameState& s, std::vector<std::string>& out) {
  std::set<std::string> ids;
  auto claim = [&](const std::string& id) {
    if (!ids.insert(id).second) out.push_back("id " + in_quotes(id) + " used twice");
  };
  for (const ShipState& x : s.ships) claim(x.id);
  for (const CrewTechDisk& x : s.disks) claim(x.id);
  for (const Torpedo& x : s.torpedoes) claim(x.id);
  for (const Terrain& x : s.terrain) claim(x.id);
}

void check_ship(const GameState& s, const GameData& data, const ShipState& ship, std::vector<std::string>& out) {
  auto bad = [&](const std::string& what) { out.push_back("ship " + ship.id + ": " + what); };
  const ShipCard* card = data.ship(ship.card);
  if (card == nullptr) return bad("unknown card " + ship.card);
  if (find_player(s, ship.controller) == nullptr) bad("unknown controller " + ship.controller);
  if (!finite(ship.pose)) bad("pose is not finite");
  if (ship.speed < 0) bad("negative speed");
  if (ship.shields < 0 || ship.shields > card->shields) bad("shields outside 0.." + std::to_string(card->shields));
  if (ship.hull < 0 || ship.hull > card->hull) bad("hull outside 0.." + std::to_string(card->hull));
  if (!ship.destroyed && ship.hull == 0) bad("hull 0 but not destroyed");
  for (const auto& [id, count] : ship.crits) {
    if (data.crit(id) == nullptr) bad("unknown crit type " + id);
    if (count < 1 || count > 2) bad("crit count " + std::to_string(count));
    if (count == 2 && !ship.destroyed) bad("two " + id + " crits but not destroyed");
  }
  if (ship.destroyed) return;
  bool orders_due = s.step == Step::execute || s.step == Step::boarding;
  if (!ship.orders.empty() && ship.orders.size() != 3) bad("has " + std::to_string(ship.orders.size()) + " orders");
  if (orders_due && ship.orders.size() != 3) bad("has no orders in Step Three");
  for (std::size_t i = 0; i < ship.orders.size(); ++i) {
    if (!data.parameters.same_order_twice)
      for (std::size_t j = 0; j < i; ++j)
        if (ship.orders[j].kind == ship.orders[i].kind) bad("the same order twice");
    if (ship.orders[i].revealed && s.step == Step::execute && static_cast<int>(i) >= s.phase.number)
      bad("order " + std::to_string(i + 1) + " revealed before its phase");
    if (ship.orders[i].revealed && ship.orders[i].removed) bad("an order both revealed and removed");
  }
  if (!ship.pending.empty() && s.step != Step::execute) bad("pending orders outside Step Three");
  if (ship.cloaked) {
    if (ship.shields != 0) bad("cloaked with shields up");
    bool device_active = false;
    for (const CrewTechDisk* d : disks_aboard(s, ship.id))
      if (data.disk(d->card) && data.disk(d->card)->ability(AbilityType::cloak) && !d->ready) device_active = true;
    if (!device_active) bad("cloaked without an activated cloaking device");
  }
}

void check_phase(const GameState& s, std::vector<std::string>& out) {
  const PhaseState& p = s.phase;
  if (p.number < 1 || p.number > 3) out.push_back("phase number " + std::to_string(p.number));
  if (s.step != Step::execute) return;
  std::set<std::string> seen;
  for (const std::string& id : p.to_act) {
    if (!seen.insert(id).second) out.push_back("ship " + id + " twice in to_act");
    if (std::find(p.initiative.begin(), p.initiative.end(), id) == p.initiative.end())
      out.push_back("ship " + id + " to act but not in the initiative order");
    const ShipState* ship = find_ship(s, id);
    if (ship == nullptr || ship->destroyed) out.push_back("ship " + id + " to act but not in play");
  }
  if (p.stage == PhaseStage::ships && !p.to_act.empty() &&
      (p.option < 0 || p.option >= static_cast<int>(p.to_act.size())))
    out.push_back("option index out of range");
  if (p.acting && std::find(p.to_act.begin(), p.to_act.end(), *p.acting) == p.to_act.end())
    out.push_back("acting ship " + *p.acting + " is not to act");
  if (p.stage != PhaseStage::ships && !p.to_act.empty()) out.push_back("ships to act outside the ships stage");
}

}  // namespace

std::vector<std::string> state_problems(const GameState& s, const GameData& data) {
  std::vector<std::string> out;
  check_ids(s, out);
  std::set<std::string> players;
  for (const Player& p : s.players)
    if (!players.insert(p.id).second) out.push_back("player " + p.id + " twice");
  for (const ShipState& ship : s.ships) check_ship(s, data, ship, out);
  for (const CrewTechDisk& d : s.disks) {
    if (data.disk(d.card) == nullptr) out.push_back("disk " + d.id + ": unknown card " + d.card);
    if (find_player(s, d.owner) == nullptr) out.push_back("disk " + d.id + ": unknown owner " + d.owner);
    const ShipState* ship = find_ship(s, d.location);
    if (ship == nullptr && find_terrain(s, d.location) == nullptr) out.push_back("disk " + d.id + ": nowhere");
    if (ship != nullptr && ship->destroyed && d.in_play)
      out.push_back("disk " + d.id + " in play aboard a destroyed ship");
  }
  for (const Torpedo& t : s.torpedoes) {
    if (find_ship(s, t.launcher) == nullptr) out.push_back("torpedo " + t.id + ": unknown launcher");
    if (t.moves_left < 1 || t.moves_left > data.parameters.torpedo_end_of_phase_moves)
      out.push_back("torpedo " + t.id + ": moves_left " + std::to_string(t.moves_left));
    if (!finite(t.pose)) out.push_back("torpedo " + t.id + ": pose is not finite");
  }
  check_phase(s, out);
  if (s.step == Step::game_over && !s.winner) out.push_back("game over without a result");
  if (s.step != Step::game_over && s.winner) out.push_back("a winner while the game goes on");
  return out;
}

}  // namespace diskref::rules
