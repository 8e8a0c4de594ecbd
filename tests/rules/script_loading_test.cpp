// Loading play scripts and game data: bad input gets a message naming the file, the place in it and
// the problem (InputError), never a half-built game.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/rules/data_loading.h"
#include "engine/rules/parameters_json.h"
#include "engine/rules/script.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

const std::string kBad = std::string(DISKREF_SOURCE_DIR) + "/tests/rules/bad_scripts/";

std::string load_error(const std::string& file) {
  try {
    load_script(file);
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(loaded without error)";
}

std::string data_error(const std::string& json) {
  nlohmann::json doc = nlohmann::json::parse(json);
  GameData data;
  try {
    merge_data_file(data, io::JsonCursor(doc, "cards.json"));
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(loaded without error)";
}

TEST(ScriptLoading, BadScriptsNameFilePlaceAndProblem) {
  EXPECT_EQ(load_error(kBad + "unknown_action.json"),
            kBad +
                "unknown_action.json: actions[1].do: \"warp\" is not an action (one of: reveal, orders, initiative, "
                "defer, reveal_order, decline, execute, move, move_torpedoes, raise_cloak, drop_cloak, turn, "
                "boarding_segment, displaced)");
  EXPECT_EQ(load_error(kBad + "unknown_card.json"),
            kBad + "unknown_card.json: setup.ships[0].card: no ship card \"galaxy_class\" in the game data");
  EXPECT_EQ(load_error(kBad + "missing_data.json"),
            kBad + "missing_data.json: setup.data[0]: \"" + kBad + "no_such_directory\" does not exist");
  EXPECT_EQ(load_error(kBad + "bad_data_file.json"),
            kBad + "bad_data/ships.json: ships[0].hull: must be an integer between 1 and 100 (got -1)");
  EXPECT_EQ(load_error(kBad + "missing_shape.json"),
            kBad +
                "missing_shape.json: setup.ships[0]: no shape for \"enterprise\": give \"shape\" or a registry with "
                "a disk of that name");
  EXPECT_NE(load_error(kBad + "broken.json").find("broken.json: is not valid JSON"), std::string::npos);
  EXPECT_NE(load_error(kBad + "nothing_here.json").find("cannot be opened"), std::string::npos);
}

TEST(ScriptLoading, TheExampleScriptsLoad) {
  for (const char* name : {"diana_owen_duel.json", "charles_picard.json", "boarding_christian_julie_matt.json",
                           "virtual_skirmish.json", "registry_shapes.json"}) {
    Script s = load_script(std::string(DISKREF_SOURCE_DIR) + "/data/scripts/" + name);
    EXPECT_FALSE(s.actions.empty()) << name;
  }
}

TEST(DataLoading, TheSampleDataSetLoadsWithTheDefaultParameters) {
  const GameData& data = sample_data();
  EXPECT_EQ(parameters_to_json(data.parameters), parameters_to_json(Parameters{}));
  ASSERT_NE(data.ship("tderet"), nullptr);
  EXPECT_EQ(data.ship("tderet")->shields, 7);
  EXPECT_EQ(data.ship("tderet")->hull, 7);
  EXPECT_EQ(data.ship("federation_cruiser")->beam, 4);
  EXPECT_EQ(data.disk("la_forge")->command, 4);
  for (const char* id : {"picard", "barclay", "advanced_transporter", "pulse_phasers"})
    EXPECT_NE(data.disk(id), nullptr) << id;
  // Guessed values are marked as such.
  EXPECT_FALSE(data.ship("tderet")->placeholders.empty());
  EXPECT_TRUE(std::find(data.ship("tderet")->placeholders.begin(), data.ship("tderet")->placeholders.end(), "hull") ==
              data.ship("tderet")->placeholders.end())
      << "the hull of 7 is given by the rules";
}

TEST(DataLoading, EveryOpenParameterIsInTheDataFile) {
  nlohmann::json doc = io::read_json_file(std::string(DISKREF_SOURCE_DIR) + "/data/rules/parameters.json");
  std::set<int> numbers;
  for (const auto& [name, entry] : doc["parameters"].items()) numbers.insert(entry["open_parameter"].get<int>());
  for (int n = 1; n <= 23; ++n) EXPECT_TRUE(numbers.count(n)) << "open parameter " << n;
}

TEST(DataLoading, BadDataNamesThePlace) {
  EXPECT_EQ(data_error(R"({"parameters": {"hit_face_odds": 1.0}})"),
            "cards.json: parameters.hit_face_odds: must be strictly between 0 and 1 (so that tie-break drops end)");
  EXPECT_EQ(data_error(R"({"parameters": {"initiative": {"value": "each_phase", "open_parameter": 13}}})"),
            "cards.json: parameters.initiative.open_parameter: is open parameter 12 in docs/rules.md");
  EXPECT_NE(data_error(R"({"parameters": {"warp_factor": 9}})").find("parameters.warp_factor: unknown parameter"),
            std::string::npos);
  EXPECT_EQ(data_error(R"({"crew": [{"id": "x", "name": "X", "command": 1, "combat": 1, "cost": 0,
                                     "orders": [["attack", "fly"]]}]})"),
            "cards.json: crew[0].orders[0][1]: \"fly\" is not an order (change_speed, change_heading, raise_shields, "
            "attack, activate)");
  EXPECT_EQ(data_error(R"({"tech": [{"id": "t", "name": "T", "cost": 1,
                                     "abilities": [{"type": "beam_refire", "use": "continuous", "amount": 3}]}]})"),
            "cards.json: tech[0].abilities[0].use: a beam_refire ability is used \"flip\"");
  EXPECT_EQ(data_error(R"({"ships": [{"id": "s", "name": "S", "max_speed": 1, "shields": 1, "hull": 1, "beam": 1,
                                      "capacity": 1, "points": 1, "placeholder": ["torpedo"]}]})"),
            "cards.json: ships[0].placeholder[0]: names \"torpedo\", which this entry does not have");
  EXPECT_EQ(
      data_error(
          R"({"crit_types": [{"id": "a", "name": "A", "effects": []}, {"id": "a", "name": "B", "effects": []}]})"),
      "cards.json: crit_types[1].id: critical type \"a\" is defined twice");
  EXPECT_EQ(data_error(R"({"ships": [], "cards": []})"),
            "cards.json: unknown member \"cards\" (allowed: about, parameters, crit_types, ships, crew, tech)");
}

TEST(DataLoading, SetupEnforcesKeywordLimits) {
  auto setup_error = [](nlohmann::json enterprise_extra) {
    try {
      Game g(duel_setup(100, 100, 0, 800, 800, 0, 0, enterprise_extra));
    } catch (const io::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  auto crew = [](const std::string& id, const std::string& card) { return nlohmann::json{{"id", id}, {"card", card}}; };
  EXPECT_NE(setup_error({{"crew", {crew("b1", "barclay"), crew("b2", "barclay")}}}).find("more than one Lt. Barclay"),
            std::string::npos);
  EXPECT_EQ(setup_error({{"crew", {crew("s1", "security"), crew("s2", "security")}}}), "(no error)") << "Unlimited";
  EXPECT_NE(
      setup_error({{"crew",
                    {crew("a", "away_team"), crew("b", "away_team"), crew("c", "away_team"), crew("d", "away_team"),
                     crew("e", "away_team"), crew("f", "away_team"), crew("g", "away_team")}}})
          .find("capacity is 6"),
      std::string::npos);
  EXPECT_NE(setup_error({{"crew", {crew("l", "la_forge")}}, {"speed", 9}}).find("speed"), std::string::npos);
  // Unique: one per game, across ships.
  try {
    Game g(duel_setup(100, 100, 0, 800, 800, 0, 0, {{"crew", {crew("l1", "la_forge")}}},
                      {{"crew", {crew("l2", "la_forge")}}}));
    ADD_FAILURE() << "two La Forges accepted";
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("Unique: one per game"), std::string::npos) << e.what();
  }
}

TEST(ScriptLoading, ShapesFromTheRegistryAndThePlayAreaFromTheTableFile) {
  Script s = load_script(std::string(DISKREF_SOURCE_DIR) + "/data/scripts/registry_shapes.json");
  ASSERT_TRUE(std::holds_alternative<geom::Circle>(s.initial.terrain.at(0).shape));
  EXPECT_EQ(std::get<geom::Circle>(s.initial.terrain.at(0).shape).diameter_mm, 150);
  EXPECT_TRUE(std::holds_alternative<geom::FlattedCircle>(s.initial.ships.at(0).shape));
  PlayResult r = run_script(s);
  EXPECT_EQ(r.refused, 0);
  EXPECT_EQ(r.final_state.ships.at(0).hull, 5) << "ship-planet collision: two hull hits";
  EXPECT_NEAR(r.final_state.ships.at(0).pose.position.x, 342.9, 1e-9);
}

}  // namespace
}  // namespace diskref::rules::testing
