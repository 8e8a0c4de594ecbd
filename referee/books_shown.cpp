#include "referee/books_shown.h"

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/rules/state_queries.h"

namespace diskref::referee {
namespace {

std::string step_name(rules::Step s) {
  switch (s) {
    case rules::Step::reveal:
      return "Step One: reveal crew and tech";
    case rules::Step::orders:
      return "Step Two: place orders";
    case rules::Step::execute:
      return "Step Three: execute orders";
    case rules::Step::boarding:
      return "Step Four: boarding combat";
    case rules::Step::game_over:
      return "game over";
  }
  return "";
}

}  // namespace

std::vector<ShipShown> ships_shown(const rules::GameState& s, const rules::GameData& data) {
  std::vector<ShipShown> out;
  std::string holder;
  if (s.step == rules::Step::execute && s.phase.stage == rules::PhaseStage::ships) {
    if (s.phase.acting)
      holder = *s.phase.acting;
    else if (s.phase.option >= 0 && static_cast<std::size_t>(s.phase.option) < s.phase.to_act.size())
      holder = s.phase.to_act[static_cast<std::size_t>(s.phase.option)];
  }
  for (const rules::ShipState& ship : s.ships) {
    ShipShown v;
    const rules::ShipCard& card = rules::card_of(data, ship);
    v.id = ship.id;
    v.name = card.name;
    v.controller = ship.controller;
    v.destroyed = ship.destroyed;
    v.acting = ship.id == holder;
    v.cloaked = ship.cloaked;
    v.speed = ship.speed;
    v.max_speed = rules::max_speed(s, data, ship);
    v.shields = ship.shields;
    v.max_shields = rules::max_shields(data, ship);
    v.hull = ship.hull;
    v.max_hull = card.hull;
    for (const auto& [type, n] : ship.crits) {
      if (n <= 0) continue;
      const rules::CritType* c = data.crit(type);
      v.crits.push_back(fmt::format("{} x{}", c ? c->name : type, n));
    }
    for (const rules::OrderSlot& o : ship.orders) {
      if (o.removed)
        v.orders.push_back("(removed)");
      else
        v.orders.push_back(o.revealed ? std::string(rules::display_name(o.kind)) : "face down");
    }
    for (const rules::CrewTechDisk* d : rules::disks_aboard(s, ship.id)) {
      CrewShown c;
      c.revealed = d->revealed;
      c.ready = d->ready;
      c.label = d->revealed ? rules::card_of(data, *d).name : "concealed";
      v.crew.push_back(std::move(c));
    }
    out.push_back(std::move(v));
  }
  return out;
}

TurnShown turn_shown(const rules::GameState& s, const referee::Expectation& expecting) {
  TurnShown t;
  t.turn = s.turn;
  t.step = step_name(s.step);
  if (s.step == rules::Step::execute) {
    t.phase = s.phase.number;
    t.stage = std::string(rules::to_string(s.phase.stage));
    t.initiative = s.phase.initiative;
    if (s.phase.acting)
      t.option = *s.phase.acting;
    else if (s.phase.stage == rules::PhaseStage::ships && s.phase.option >= 0 &&
             static_cast<std::size_t>(s.phase.option) < s.phase.to_act.size())
      t.option = s.phase.to_act[static_cast<std::size_t>(s.phase.option)];
  }
  t.expecting = expecting.what;
  t.winner = s.winner;
  return t;
}

nlohmann::json to_json(const ShipShown& v) {
  nlohmann::json crew = nlohmann::json::array();
  for (const CrewShown& c : v.crew) crew.push_back({{"label", c.label}, {"revealed", c.revealed}, {"ready", c.ready}});
  return {{"id", v.id},
          {"name", v.name},
          {"controller", v.controller},
          {"destroyed", v.destroyed},
          {"acting", v.acting},
          {"cloaked", v.cloaked},
          {"speed", v.speed},
          {"max_speed", v.max_speed},
          {"shields", v.shields},
          {"max_shields", v.max_shields},
          {"hull", v.hull},
          {"max_hull", v.max_hull},
          {"crits", v.crits},
          {"orders", v.orders},
          {"crew", crew}};
}

nlohmann::json to_json(const TurnShown& t) {
  nlohmann::json j = {{"turn", t.turn},
                      {"step", t.step},
                      {"phase", t.phase},
                      {"stage", t.stage},
                      {"initiative", t.initiative},
                      {"option", t.option},
                      {"expecting", t.expecting}};
  if (t.winner) j["winner"] = *t.winner;
  return j;
}

}  // namespace diskref::referee
