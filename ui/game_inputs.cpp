#include "ui/game_inputs.h"

#include <algorithm>
#include <variant>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/rules/apply.h"
#include "engine/rules/state_queries.h"

namespace diskref::ui {
namespace {

using nlohmann::json;

// What the rules make of a line now, tried on a copy of the state. An input that is no action
// (drops, a decision) is taken as it is.
enum class Trial { not_an_input, taken, waits_for_drop, waits_for_choice, refused };

Trial trial(const rules::GameState& state, const rules::GameData& data, const json& line) {
  referee::Input in;
  try {
    in = make_input(line, 0);
  } catch (const io::InputError&) {
    return Trial::not_an_input;
  }
  if (in.kind != referee::Input::Kind::action) return Trial::taken;
  rules::ActionNeeds n = rules::needs(state, data, in.action);
  if (n.outcome.applied()) return Trial::taken;  // also when a ship-ship collision's placement may follow
  if (!n.need) return Trial::refused;
  if (std::holds_alternative<rules::NeededDrop>(n.need->what)) return Trial::waits_for_drop;
  return Trial::waits_for_choice;  // a choice, a value to name, a ship put down again
}

// Kept when the rules apply it, or when it is only waiting for what the table gives next (a drop,
// a choice made by putting a disk down): the referee then asks for that in turn.
bool legal(const rules::GameState& state, const rules::GameData& data, const json& line) {
  Trial t = trial(state, data, line);
  return t == Trial::taken || t == Trial::waits_for_drop || t == Trial::waits_for_choice;
}

// The rules take it as it is (or wait only for drops): no choice is left open.
bool complete(const rules::GameState& state, const rules::GameData& data, const json& line) {
  Trial t = trial(state, data, line);
  return t == Trial::taken || t == Trial::waits_for_drop;
}

void add_if_legal(std::vector<InputChoice>& out, const rules::GameState& state, const rules::GameData& data,
                  std::string label, json line) {
  if (legal(state, data, line)) out.push_back({std::move(label), std::move(line)});
}

void drop_choices(std::vector<InputChoice>& out, const rules::NeededDrop& d) {
  json base = {{"purpose", d.purpose}};
  if (!d.subject.empty()) base["subject"] = d.subject;
  auto one = [&](std::string label, json drop) {
    out.push_back({std::move(label), {{"do", "drops"}, {"drops", json::array({std::move(drop)})}}});
  };
  if (d.typed_counters.empty() && d.purpose != "critical" && d.purpose != "collision") {
    for (int hits = 0; hits <= d.counters; ++hits) {
      json drop = base;
      drop["hits"] = hits;
      one(fmt::format("{} hit{}", hits, hits == 1 ? "" : "s"), drop);
    }
    return;
  }
  // Critical counters: none showing, each one alone, or all of them.
  json none = base;
  none["crits"] = json::array();
  one("no crits", none);
  for (const std::string& type : d.typed_counters) {
    json drop = base;
    drop["crits"] = {type};
    one("crit: " + type, drop);
  }
  if (d.typed_counters.size() > 1) {
    json drop = base;
    drop["crits"] = d.typed_counters;
    one("all crits", drop);
  }
}

// A drop being read from the counters on the table (referee/counter_reading.h): the referee's
// word on each counter it asks about, one button per face that counter has.
void counter_choices(std::vector<InputChoice>& out, const referee::CounterReading& reading) {
  auto word = [&](const std::string& counter, const std::string& why, const std::optional<model::CounterFaces>& faces) {
    if (!faces) return;
    for (const model::CounterFace* f : {&faces->up, &faces->down}) {
      json line = {{"do", "counter"}, {"shows", std::string(model::to_string(f->shows))}};
      if (!counter.empty()) line["counter"] = counter;
      out.push_back({fmt::format("{}{}: {}", counter.empty() ? "a counter" : counter, why, model::describe(*f)), line});
    }
  };
  for (const referee::DropSlot& slot : reading.slots) {
    if (slot.shows) continue;
    if (!slot.counter.empty()) {
      for (const referee::CounterSeen& c : reading.counters)
        if (c.name == slot.counter) word(c.name, "", c.faces);
    } else {
      word(slot.ask_as, " (not seen)", slot.ask_faces);
    }
  }
}

void reveal_choices(std::vector<InputChoice>& out, const rules::GameState& s, const rules::GameData& data) {
  for (const rules::Player& p : s.players) {
    if (std::count(s.reveal_done.begin(), s.reveal_done.end(), p.id)) continue;
    add_if_legal(out, s, data, p.id + ": reveal nothing", {{"do", "reveal"}, {"player", p.id}});
    for (const rules::CrewTechDisk& d : s.disks) {
      if (d.owner != p.id || d.revealed || !d.in_play) continue;
      add_if_legal(out, s, data, p.id + ": reveal " + d.id, {{"do", "reveal"}, {"player", p.id}, {"reveal", {d.id}}});
    }
  }
}

// The order the acting ship has revealed and not yet carried out.
std::optional<rules::OrderKind> revealed_order(const rules::ShipState& ship) {
  if (ship.pending.empty()) return std::nullopt;
  return ship.pending.front().kind;
}

// Activate: one button per crew or tech aboard that the rules let act now; a disk that needs a
// choice (which of its order rows, which tech to ready) gets one button per choice.
void activate_choices(std::vector<InputChoice>& out, const rules::GameState& s, const rules::GameData& data,
                      const rules::ShipState& ship, const json& base) {
  for (const rules::CrewTechDisk& d : s.disks) {
    if (d.location != ship.id || !d.in_play || !d.revealed || !d.ready) continue;
    json line = base;
    line["disk"] = d.id;
    if (complete(s, data, line)) {
      out.push_back({ship.id + ": activate " + d.id, line});
      continue;
    }
    for (int row = 0; row < 8; ++row) {
      json with_row = line;
      with_row["row"] = row;
      if (complete(s, data, with_row))
        out.push_back({fmt::format("{}: activate {}, row {}", ship.id, d.id, row + 1), with_row});
    }
    for (const rules::CrewTechDisk& tech : s.disks) {
      if (tech.location != ship.id || tech.id == d.id || !tech.in_play || tech.ready) continue;
      json ready = line;
      ready["ready"] = tech.id;
      if (complete(s, data, ready)) out.push_back({ship.id + ": activate " + d.id + ", ready " + tech.id, ready});
    }
  }
}

void execute_choices(std::vector<InputChoice>& out, const rules::GameState& s, const rules::GameData& data,
                     const rules::ShipState& ship, rules::OrderKind kind) {
  json base = {{"do", "execute"}, {"player", ship.controller}, {"ship", ship.id}, {"order", rules::to_string(kind)}};
  switch (kind) {
    case rules::OrderKind::change_heading:
      // The new heading is read from the table, where the ship is turned in place.
      out.push_back({ship.id + ": change heading (turn it on the table)", base});
      break;
    case rules::OrderKind::change_speed:
      for (int v = 0; v <= rules::max_speed(s, data, ship); ++v) {
        json line = base;
        line["speed"] = v;
        add_if_legal(out, s, data, fmt::format("{}: speed {}", ship.id, v), line);
      }
      break;
    case rules::OrderKind::raise_shields:
      add_if_legal(out, s, data, ship.id + ": raise shields", base);
      break;
    case rules::OrderKind::attack:
      for (const rules::ShipState& t : s.ships) {
        if (t.id == ship.id || t.destroyed) continue;
        json line = base;
        line["attack"] = "beam";
        line["target"] = t.id;
        add_if_legal(out, s, data, ship.id + ": beam at " + t.id, line);
      }
      {
        json line = base;
        line["attack"] = "torpedo";
        // The torpedo is launched on the table: the referee reads where it is put and its run.
        out.push_back({ship.id + ": launch a torpedo", line});
      }
      break;
    case rules::OrderKind::activate:
      activate_choices(out, s, data, ship, base);
      break;
  }
}

void phase_choices(std::vector<InputChoice>& out, const rules::GameState& s, const rules::GameData& data) {
  if (s.phase.stage == rules::PhaseStage::initiative) {
    add_if_legal(out, s, data, "initiative", {{"do", "initiative"}});
    return;
  }
  if (s.phase.stage != rules::PhaseStage::ships || s.phase.to_act.empty()) return;
  std::string id =
      s.phase.acting
          ? *s.phase.acting
          : s.phase.to_act[std::min<std::size_t>(static_cast<std::size_t>(s.phase.option), s.phase.to_act.size() - 1)];
  const rules::ShipState* ship = rules::find_ship(s, id);
  if (ship == nullptr) return;
  if (std::optional<rules::OrderKind> kind = revealed_order(*ship)) {
    execute_choices(out, s, data, *ship, *kind);
    return;
  }
  json who = {{"player", ship->controller}, {"ship", ship->id}};
  json reveal = who, defer = {{"do", "defer"}, {"player", ship->controller}}, decline = who;
  reveal["do"] = "reveal_order";
  decline["do"] = "decline";
  add_if_legal(out, s, data, "reveal " + ship->id + "'s order", reveal);
  add_if_legal(out, s, data, ship->id + ": defer", defer);
  add_if_legal(out, s, data, ship->id + ": decline its orders", decline);
}

void boarding_choices(std::vector<InputChoice>& out, const rules::GameState& s, const rules::GameData& data) {
  for (const rules::BoardingCombat& b : s.boarding) {
    if (!b.over) add_if_legal(out, s, data, "boarding on " + b.ship, {{"do", "boarding_segment"}, {"ship", b.ship}});
  }
}

}  // namespace

std::vector<InputChoice> input_choices(const rules::GameState& state, const rules::GameData& data,
                                       const referee::Expectation& expecting) {
  using Need = referee::Expectation::Need;
  std::vector<InputChoice> out;
  switch (expecting.need) {
    case Need::drops:
      if (expecting.counters) counter_choices(out, *expecting.counters);
      if (expecting.drop) drop_choices(out, *expecting.drop);
      return out;
    case Need::decision:
      for (const referee::Verdict& v : expecting.undecided) {
        for (bool yes : {true, false}) {
          out.push_back({fmt::format("{} with {}: {}", referee::to_string(v.kind), v.with, yes ? "YES" : "NO"),
                         {{"do", "decide"},
                          {"kind", referee::to_string(v.kind)},
                          {"with", v.with},
                          {"call", yes ? "yes" : "no"}}});
        }
      }
      return out;
    case Need::placement:
      if (expecting.placement_optional) out.push_back({"leave it in place", {{"do", "leave_in_place"}}});
      return out;
    case Need::choice:
      for (const std::string& option : expecting.options)
        out.push_back({"lose " + option, {{"do", "choose"}, {"choice", option}}});
      return out;
    case Need::table:
      return out;  // the table gives it: a disk to move or put down
    case Need::nothing:
      break;
  }
  switch (state.step) {
    case rules::Step::reveal:
      reveal_choices(out, state, data);
      break;
    case rules::Step::orders:
      break;  // face down: given as a whole per ship (orders_line)
    case rules::Step::execute:
      phase_choices(out, state, data);
      break;
    case rules::Step::boarding:
      boarding_choices(out, state, data);
      break;
    case rules::Step::game_over:
      break;
  }
  return out;
}

nlohmann::json orders_line(const rules::ShipState& ship, const std::vector<rules::OrderKind>& orders) {
  json names = json::array();
  for (rules::OrderKind k : orders) names.push_back(rules::to_string(k));
  return {{"do", "orders"}, {"player", ship.controller}, {"ship", ship.id}, {"orders", names}};
}

nlohmann::json undo_line(std::size_t input_index) {
  return {{"do", "correct"}, {"input", input_index}, {"with", nullptr}};
}

nlohmann::json redecide_line(std::size_t entry, const referee::Verdict& v, bool yes) {
  return {{"do", "correct"},
          {"entry", entry},
          {"decide", {{"kind", referee::to_string(v.kind)}, {"with", v.with}, {"call", yes ? "yes" : "no"}}}};
}

nlohmann::json fix_line(std::size_t index, const nlohmann::json& given) {
  return {{"do", "correct"}, {"input", index}, {"with", given}};
}

referee::Input make_input(const nlohmann::json& line, double t) {
  json j = line;
  j["t"] = t;
  referee::Input in = referee::parse_input(io::JsonCursor(j, "the screen"));
  in.where = "the screen";
  return in;
}

}  // namespace diskref::ui
