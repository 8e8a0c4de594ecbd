#pragma once
// A game refereed from a FakeTable, for the referee's tests: the duel of the rules' examples, the
// inputs as the referee gives them, and what the tests ask of the books and the log.

#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/rules/script.h"
#include "referee/referee.h"
#include "tests/referee/fake_table.h"

namespace diskref::referee::testing {

inline nlohmann::json pose(double x, double y, double h) {
  return {{"x", x}, {"y", y}, {"heading", h}};
}

// Diana's enterprise (La Forge aboard: she has the option first) at (200, 300) heading east at
// speed 2; Owen's tderet at (700, 600) heading west at speed 1.
inline nlohmann::json duel(int enterprise_speed = 2, nlohmann::json extra_ships = nlohmann::json::array()) {
  nlohmann::json ships = {
      {{"id", "enterprise"},
       {"card", "federation_cruiser"},
       {"player", "diana"},
       {"speed", enterprise_speed},
       {"pose", pose(200, 300, 0)},
       {"crew", {{{"id", "laforge"}, {"card", "la_forge"}, {"revealed", true}}}}},
      {{"id", "tderet"}, {"card", "tderet"}, {"player", "owen"}, {"speed", 1}, {"pose", pose(700, 600, 180)}}};
  for (const auto& s : extra_ships) ships.push_back(s);
  return {{"players", {{{"id", "diana"}, {"team", "federation"}}, {{"id", "owen"}, {"team", "romulans"}}}},
          {"ships", ships}};
}

// Two ships alike (card, speed, no crew), so that their initiative is decided by drops: Diana's
// enterprise at (200, 300) heading east, Owen's reliant at (700, 600) heading west, both at speed 1.
inline nlohmann::json twins() {
  nlohmann::json ships = {{{"id", "enterprise"},
                           {"card", "federation_cruiser"},
                           {"player", "diana"},
                           {"speed", 1},
                           {"pose", pose(200, 300, 0)}},
                          {{"id", "reliant"},
                           {"card", "federation_cruiser"},
                           {"player", "owen"},
                           {"speed", 1},
                           {"pose", pose(700, 600, 180)}}};
  return {{"players", {{{"id", "diana"}, {"team", "federation"}}, {{"id", "owen"}, {"team", "klingons"}}}},
          {"ships", ships}};
}

inline Input input(double t, const std::string& json) {
  nlohmann::json j = nlohmann::json::parse(json);
  j["t"] = t;
  return parse_input(io::JsonCursor(j, "inputs", ""));
}

struct Game {
  explicit Game(const nlohmann::json& setup, const std::string& name = "game",
                model::DiskRegistry registry = testing::game_registry()) {
    model::TableSpec table = model::default_table();
    ref.emplace(load_game_file(testing::write_game(setup, name), table, registry), table, registry);
  }
  // The inputs every game starts with: nobody reveals more, orders, the first initiative.
  void start(FakeTable& table, double t,
             const std::vector<std::string>& diana_orders = {"change_speed", "raise_shields", "attack"},
             const std::vector<std::string>& owen_orders = {"change_speed", "raise_shields", "attack"},
             const std::vector<std::string>& more_orders = {}) {
    auto list = [](const std::vector<std::string>& orders) {
      nlohmann::json j = orders;
      return j.dump();
    };
    give(input(t, R"({"do": "reveal", "player": "diana"})"));
    give(input(t, R"({"do": "reveal", "player": "owen"})"));
    give(
        input(t, R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": )" + list(diana_orders) + "}"));
    give(input(t, R"({"do": "orders", "player": "owen", "ship": "tderet", "orders": )" + list(owen_orders) + "}"));
    for (const std::string& o : more_orders) give(input(t, o));
    give(input(t, R"({"do": "initiative"})"));
    (void)table;
  }
  void give(Input in) { ref->add_input(std::move(in)); }
  void play(const FakeTable& table) {
    for (std::size_t i = fed; i < table.frames().size(); ++i) ref->feed(table.frames()[i]);
    fed = table.frames().size();
  }
  const rules::ShipState& ship(const std::string& id) const {
    for (const rules::ShipState& s : ref->state().ships)
      if (s.id == id) return s;
    throw std::runtime_error("no ship " + id);
  }
  std::vector<const Entry*> warnings(const std::string& kind) const {
    std::vector<const Entry*> out;
    for (const Entry& e : ref->log())
      if (e.kind == Entry::Kind::warning && e.warning.kind == kind) out.push_back(&e);
    return out;
  }
  const Entry* last_action(const std::string& name) const {
    const Entry* found = nullptr;
    for (const Entry& e : ref->log())
      if (e.kind == Entry::Kind::action && rules::action_name(e.play.action.body) == name) found = &e;
    return found;
  }
  std::optional<Referee> ref;
  std::size_t fed = 0;
};

// The table as the game file expects it, still long enough to settle.
inline FakeTable duel_table() {
  FakeTable t;
  t.place("enterprise", 200.3, 299.8, 0.2);
  t.place("tderet", 700, 600, 180);
  t.still(1.0);
  return t;
}

}  // namespace diskref::referee::testing
