#pragma once
// Shared by the rules tests: the sample data set, games built from setup JSON, and actions written
// exactly as play scripts write them. Every applied action is followed by the invariant check.

#include <cmath>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/rules/apply.h"
#include "engine/rules/game_data.h"
#include "engine/rules/state.h"

namespace diskref::rules::testing {

// data/rules/ (the sample data set).
const GameData& sample_data();

// A flatted ship disk (the spec's example): 63.5 mm across, 57.2 mm flat to flat = one flip.
inline constexpr double kShipDiameter = 63.5;
inline constexpr double kFlip = 57.2;
nlohmann::json ship_shape();
// The range template's diagonal (88.9 x 25.4 mm): the farthest an attack reaches.
inline const double kTemplateReach = std::hypot(88.9, 25.4);

// La Forge, revealed: as a crew disk, and as a ship entry's "crew" member holding him.
nlohmann::json la_forge_disk();
nlohmann::json la_forge_aboard();

// {"x":..,"y":..,"heading":..}
nlohmann::json pose(double x, double y, double heading);

class Game {
 public:
  // `setup` as in a play script's "setup" (without "data": the sample data is used).
  explicit Game(const nlohmann::json& setup, GameData data = sample_data());

  // Applies an action written as in a script; fails the test if it is refused or breaks an
  // invariant. Returns its events.
  std::vector<Event> play(const std::string& action_json);
  // Expects a refusal of `kind`, and that nothing changed. Returns the reason.
  std::string refused(const std::string& action_json, RefusalKind kind);
  // The raw result, for tests that look at both outcomes.
  ActionResult try_play(const std::string& action_json) const;
  // What the action still needs, and the outcome of the rules' run (rules::needs); nothing changes.
  ActionNeeds needs_of(const std::string& action_json) const;

  // Step One for every player (nobody reveals anything more) and Step Two with these orders.
  void reveal_all();
  void orders(const std::string& player, const std::string& ship, const std::vector<std::string>& orders);
  // For duel_setup games: Step One for both, the enterprise's and the tderet's orders, and the first
  // command initiative (`initiative` is the action, with its drops when there is a tie).
  void start_duel(const std::vector<std::string>& diana_orders, const std::vector<std::string>& owen_orders,
                  const std::string& initiative = R"({"do": "initiative"})");

  const GameState& state() const { return state_; }
  GameState& mutable_state() { return state_; }
  const GameData& data() const { return data_; }
  const ShipState& ship(const std::string& id) const;
  const CrewTechDisk& disk(const std::string& id) const;

 private:
  GameData data_;
  GameState state_;
};

// The events of a kind (an event:: struct), in order.
template <class T>
std::vector<T> of_type(const std::vector<Event>& events) {
  std::vector<T> out;
  for (const Event& e : events)
    if (const T* what = e.as<T>()) out.push_back(*what);
  return out;
}
template <class T>
bool has_event(const std::vector<Event>& events) {
  return !of_type<T>(events).empty();
}
// The texts of the events of a kind, in order.
template <class T>
std::vector<std::string> texts_of(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const Event& e : events)
    if (e.is<T>()) out.push_back(e.text);
  return out;
}

// Two players on opposite teams, "diana" with ship "enterprise" at (x1, y1, h1) and "owen" with
// "tderet" at (x2, y2, h2), both at `speed`; extra members merged into each ship entry.
nlohmann::json duel_setup(double x1, double y1, double h1, double x2, double y2, double h2, int speed,
                          const nlohmann::json& enterprise_extra = nlohmann::json::object(),
                          const nlohmann::json& tderet_extra = nlohmann::json::object());

// Plays the rest of Step Three with every ship declining its orders and staying put.
void finish_step_three(Game& g);

// Diana's enterprise at (300, 300) facing east and Owen's tderet `gap` mm beyond its front flat,
// flats facing, both at Full Stop. La Forge (revealed) joins Diana's crew so that she has the
// first option. Started: Step One, both ships' orders and the first initiative.
Game face_to_face(double gap, nlohmann::json enterprise_extra = nlohmann::json::object(),
                  const nlohmann::json& tderet_extra = nlohmann::json::object(),
                  const std::vector<std::string>& diana_orders = {"attack", "raise_shields", "change_speed"},
                  const GameData& data = sample_data());

}  // namespace diskref::rules::testing
