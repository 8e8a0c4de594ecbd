#pragma once
// The books as shown: what anyone at the table may see of them, as plain values (the ship panels
// and the turn), for every display of the game, not for one screen.
// The companion screen's ImGui panels draw exactly these (and --views-json writes them, so a test
// reads the numbers the screen shows); the live feed (net/) sends them to spectators. Hidden
// information stays hidden: an order is "face down" until revealed, a concealed crew disk says
// only "concealed".

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/rules/game_data.h"
#include "engine/rules/state.h"
#include "referee/referee.h"

namespace diskref::referee {

struct CrewShown {
  std::string label;  // the card's name when revealed; "concealed" otherwise (face down on the ship)
  bool revealed = false;
  bool ready = true;  // revealed disks: ready or activated
};

struct ShipShown {
  std::string id;
  std::string name;  // the card's
  std::string controller;
  bool destroyed = false;
  bool acting = false;  // holds the option, or is acting
  bool cloaked = false;
  int speed = 0, max_speed = 0;
  int shields = 0, max_shields = 0;
  int hull = 0, max_hull = 0;
  std::vector<std::string> crits;   // "bridge x1"
  std::vector<std::string> orders;  // left to right: the order's name once revealed, "face down", "(removed)"
  std::vector<CrewShown> crew;
};

struct TurnShown {
  int turn = 1;
  std::string step;  // "Step Three: execute orders"
  int phase = 0;     // 0 outside Step Three
  std::string stage;
  std::vector<std::string> initiative;  // ships in initiative order
  std::string option;                   // the ship holding the option (or acting)
  std::string expecting;                // Expectation::what
  std::optional<std::string> winner;
};

std::vector<ShipShown> ships_shown(const rules::GameState& state, const rules::GameData& data);
TurnShown turn_shown(const rules::GameState& state, const referee::Expectation& expecting);

nlohmann::json to_json(const ShipShown& ship);
nlohmann::json to_json(const TurnShown& turn);

}  // namespace diskref::referee
