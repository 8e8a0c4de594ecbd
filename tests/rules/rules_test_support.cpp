#include "tests/rules/rules_test_support.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/rules/action_json.h"
#include "engine/rules/data_loading.h"
#include "engine/rules/initial_state.h"
#include "engine/rules/state_check.h"
#include "engine/rules/state_json.h"

namespace diskref::rules::testing {

const GameData& sample_data() {
  static const GameData data = load_game_data({std::string(DISKREF_SOURCE_DIR) + "/data/rules"});
  return data;
}

nlohmann::json ship_shape() {
  return {{"type", "flatted_circle"}, {"diameter_mm", kShipDiameter}, {"flat_to_flat_mm", kFlip}};
}

nlohmann::json pose(double x, double y, double heading) {
  return {{"x", x}, {"y", y}, {"heading", heading}};
}

Game::Game(const nlohmann::json& setup, GameData data) : data_(std::move(data)) {
  state_ = build_initial_state(io::JsonCursor(setup, "test setup"), data_, nullptr);
  auto problems = state_problems(state_, data_);
  EXPECT_TRUE(problems.empty()) << "initial state: " << (problems.empty() ? "" : problems.front());
}

namespace {
Action parse(const std::string& text) {
  nlohmann::json doc = nlohmann::json::parse(text);
  return parse_action(io::JsonCursor(doc, "test action"));
}
}  // namespace

ActionResult Game::try_play(const std::string& action_json) const {
  return apply_action(state_, data_, parse(action_json));
}

ActionNeeds Game::needs_of(const std::string& action_json) const {
  return needs(state_, data_, parse(action_json));
}

std::vector<Event> Game::play(const std::string& action_json) {
  ActionResult r = try_play(action_json);
  if (!r.applied()) {
    ADD_FAILURE() << "refused (" << to_string(r.refusal->kind) << "): " << r.refusal->reason
                  << "\n  action: " << action_json;
    return {};
  }
  for (const std::string& problem : state_problems(*r.state, data_))
    ADD_FAILURE() << "invariant broken after " << action_json << ": " << problem;
  // The state is a value: it must survive a JSON round trip unchanged.
  nlohmann::json once = state_to_json(*r.state);
  nlohmann::json twice = state_to_json(state_from_json(io::JsonCursor(once, "round trip")));
  EXPECT_EQ(once, twice) << "state JSON does not round-trip after " << action_json;
  state_ = std::move(*r.state);
  return r.events;
}

std::string Game::refused(const std::string& action_json, RefusalKind kind) {
  nlohmann::json before = state_to_json(state_);
  ActionResult r = try_play(action_json);
  if (r.applied()) {
    ADD_FAILURE() << "expected a refusal (" << to_string(kind) << ") of " << action_json;
    state_ = std::move(*r.state);
    return {};
  }
  EXPECT_EQ(to_string(r.refusal->kind), to_string(kind)) << r.refusal->reason;
  EXPECT_EQ(before, state_to_json(state_)) << "a refusal changed the state";
  return r.refusal->reason;
}

void Game::reveal_all() {
  std::vector<std::string> waiting;  // copied: play() replaces the state
  for (const Player& p : state_.players)
    if (std::find(state_.reveal_done.begin(), state_.reveal_done.end(), p.id) == state_.reveal_done.end())
      waiting.push_back(p.id);
  for (const std::string& id : waiting) play(R"({"do": "reveal", "player": ")" + id + "\"}");
}

void Game::orders(const std::string& player, const std::string& ship, const std::vector<std::string>& orders) {
  nlohmann::json a = {{"do", "orders"}, {"player", player}, {"ship", ship}, {"orders", orders}};
  play(a.dump());
}

void Game::start_duel(const std::vector<std::string>& diana_orders, const std::vector<std::string>& owen_orders,
                      const std::string& initiative) {
  reveal_all();
  orders("diana", "enterprise", diana_orders);
  orders("owen", "tderet", owen_orders);
  play(initiative);
}

const ShipState& Game::ship(const std::string& id) const {
  for (const ShipState& s : state_.ships)
    if (s.id == id) return s;
  throw std::runtime_error("no ship " + id);
}

const CrewTechDisk& Game::disk(const std::string& id) const {
  for (const CrewTechDisk& d : state_.disks)
    if (d.id == id) return d;
  throw std::runtime_error("no disk " + id);
}

nlohmann::json duel_setup(double x1, double y1, double h1, double x2, double y2, double h2, int speed,
                          const nlohmann::json& enterprise_extra, const nlohmann::json& tderet_extra) {
  nlohmann::json enterprise = {{"id", "enterprise"},       {"card", "federation_cruiser"}, {"player", "diana"},
                               {"pose", pose(x1, y1, h1)}, {"shape", ship_shape()},        {"speed", speed}};
  nlohmann::json tderet = {{"id", "tderet"},           {"card", "tderet"},      {"player", "owen"},
                           {"pose", pose(x2, y2, h2)}, {"shape", ship_shape()}, {"speed", speed}};
  if (enterprise_extra.is_object()) enterprise.update(enterprise_extra);
  if (tderet_extra.is_object()) tderet.update(tderet_extra);
  return {{"players", {{{"id", "diana"}}, {{"id", "owen"}}}}, {"ships", {enterprise, tderet}}};
}

Game face_to_face(double gap, nlohmann::json enterprise_extra, const nlohmann::json& tderet_extra,
                  const std::vector<std::string>& diana_orders, const GameData& data) {
  if (!enterprise_extra.is_object()) enterprise_extra = nlohmann::json::object();
  nlohmann::json crew = enterprise_extra.value("crew", nlohmann::json::array());
  crew.push_back(la_forge_disk());
  enterprise_extra["crew"] = crew;
  Game g(duel_setup(300, 300, 0, 300 + kFlip + gap, 300, 180, 0, enterprise_extra, tderet_extra), data);
  g.start_duel(diana_orders, {"attack", "raise_shields", "change_speed"});
  return g;
}

nlohmann::json la_forge_disk() {
  return {{"id", "laforge"}, {"card", "la_forge"}, {"revealed", true}};
}
nlohmann::json la_forge_aboard() {
  return {{"crew", nlohmann::json::array({la_forge_disk()})}};
}

void finish_step_three(Game& g) {
  while (g.state().step == Step::execute) {
    if (g.state().phase.stage == PhaseStage::initiative) {
      g.play(R"({"do": "initiative"})");
      continue;
    }
    const std::string id = g.state().phase.to_act[static_cast<std::size_t>(g.state().phase.option)];
    const std::string who = R"({"player": ")" + g.ship(id).controller + R"(", "ship": ")" + id + R"(", )";
    g.play(who + R"("do": "decline"})");
    g.play(who + R"("do": "move"})");
  }
}

}  // namespace diskref::rules::testing
