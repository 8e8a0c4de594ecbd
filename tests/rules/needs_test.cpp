// What an action needs before it is resolved (engine/rules/apply.h, need.h): a drop not yet given,
// a player's choice, a collided ship put down again; or that it is ready, or refused. The query's
// outcome is apply_action's, so that a caller that commits it runs the rules once.

#include <string>
#include <variant>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/rules/event_json.h"
#include "engine/rules/events.h"
#include "engine/rules/state_json.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// The enterprise (Diana, speed 2, heading east from x = 300) ends its move at x = 414.4, overlapping
// what lies there: the tderet (Owen, at Full Stop) at `other_x`, and whatever `setup_extra` adds.
constexpr double kEndX = 300 + 2 * kFlip;

Game head_on(double other_x, const nlohmann::json& setup_extra = nlohmann::json::object()) {
  nlohmann::json setup = duel_setup(300, 300, 0, other_x, 300, 180, 2, la_forge_aboard(), {{"speed", 0}});
  setup.update(setup_extra);
  Game g(setup);
  g.start_duel({"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"});
  return g;
}

const nlohmann::json kPlanet = {{"terrain",
                                 {{{"id", "vulcan"},
                                   {"kind", "planet"},
                                   {"pose", pose(450, 300, 0)},
                                   {"shape", {{"type", "circle"}, {"diameter_mm", 150}}}}}}};

const std::string kMove = R"({"do": "move", "player": "diana", "ship": "enterprise")";

// The query's outcome is what apply_action gives for the same action: the same state and events, or
// the same refusal.
void expect_outcome_is_apply_actions(const Game& g, const std::string& action, const ActionNeeds& n) {
  ActionResult applied = g.try_play(action);
  ASSERT_EQ(n.outcome.applied(), applied.applied()) << action;
  if (applied.applied()) {
    EXPECT_EQ(state_to_json(*n.outcome.state), state_to_json(*applied.state)) << action;
    ASSERT_EQ(n.outcome.events.size(), applied.events.size()) << action;
    for (std::size_t i = 0; i < applied.events.size(); ++i)
      EXPECT_EQ(event_to_json(n.outcome.events[i]), event_to_json(applied.events[i])) << action;
  } else {
    EXPECT_EQ(to_string(n.outcome.refusal->kind), to_string(applied.refusal->kind)) << action;
    EXPECT_EQ(n.outcome.refusal->reason, applied.refusal->reason) << action;
    EXPECT_EQ(n.outcome.refusal->options, applied.refusal->options) << action;
    EXPECT_EQ(n.outcome.refusal->drop, applied.refusal->drop) << action;
  }
}

TEST(Needs, ADropNotYetGivenIsNeededWhichOneAndForWhat) {
  Game g = head_on(kEndX);
  // The collision check's drop: needed once the move ends overlapping the tderet.
  const std::string no_drops = kMove + "}";
  ActionNeeds n = g.needs_of(no_drops);
  ASSERT_TRUE(n.need);
  const auto* drop = std::get_if<NeededDrop>(&n.need->what);
  ASSERT_NE(drop, nullptr) << n.need->reason;
  EXPECT_EQ(drop->purpose, "collision");
  EXPECT_EQ(drop->subject, "enterprise");
  EXPECT_EQ(drop->counters, 5);
  EXPECT_EQ(drop->index, 0u);
  EXPECT_FALSE(n.ready());
  EXPECT_FALSE(n.refused());
  EXPECT_EQ(n.outcome.refusal->kind, RefusalKind::missing_drop) << "apply_action says it as a refusal";
  EXPECT_EQ(n.outcome.refusal->reason, n.need->reason);
  expect_outcome_is_apply_actions(g, no_drops, n);

  // Known only part way through: the collision's hull hit asks for a critical check, the second drop.
  const std::string one_drop = kMove + R"(, "drops": [{"purpose": "collision", "crits": ["bridge"]}]})";
  n = g.needs_of(one_drop);
  ASSERT_TRUE(n.need);
  drop = std::get_if<NeededDrop>(&n.need->what);
  ASSERT_NE(drop, nullptr) << n.need->reason;
  EXPECT_EQ(drop->purpose, "critical");
  EXPECT_EQ(drop->index, 1u);
  expect_outcome_is_apply_actions(g, one_drop, n);
}

TEST(Needs, AChoiceAmongNoOptionsIsAValueTheActionIsToName) {
  Game g = face_to_face(300, nlohmann::json::object(), nlohmann::json::object(),
                        {"activate", "raise_shields", "change_speed"});
  const std::string no_row = R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "activate",
                                 "disk": "laforge"})";
  ActionNeeds n = g.needs_of(no_row);
  ASSERT_TRUE(n.need);
  const auto* choice = std::get_if<NeededChoice>(&n.need->what);
  ASSERT_NE(choice, nullptr) << n.need->reason;
  EXPECT_TRUE(choice->options.empty());
  EXPECT_NE(n.need->reason.find("row"), std::string::npos) << n.need->reason;
  EXPECT_EQ(n.outcome.refusal->kind, RefusalKind::choice_needed);
  expect_outcome_is_apply_actions(g, no_row, n);
  const std::string with_row = R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "activate",
                                   "disk": "laforge", "row": 1})";
  EXPECT_TRUE(g.needs_of(with_row).ready());
}

TEST(Needs, AChoiceAmongNamedDisksNamesThem) {
  nlohmann::json aboard = nlohmann::json::array();
  for (const char* id : {"sec1", "sec2"})
    aboard.push_back({{"id", id}, {"card", "security"}, {"owner", "owen"}, {"revealed", true}, {"ready", true}});
  aboard.push_back({{"id", "at1"}, {"card", "away_team"}, {"owner", "diana"}, {"revealed", true}, {"ready", true}});
  nlohmann::json setup =
      duel_setup(200, 200, 0, 700, 700, 180, 0, {{"crew", nlohmann::json::array()}}, {{"crew", aboard}});
  setup["drops"] = {{"mode", "virtual"}, {"seed", 3}};
  Game g(setup);
  // Every ship declines its orders and stays put through Step Three: then the boarding segment.
  g.reveal_all();
  g.orders("diana", "enterprise", {"attack", "raise_shields", "change_speed"});
  g.orders("owen", "tderet", {"attack", "raise_shields", "change_speed"});
  finish_step_three(g);
  // Diana's Away Team (2 counters) scores 2, Owen's two Security score none: Owen loses one.
  const std::string segment = R"({"do": "boarding_segment", "ship": "tderet", "drops": [{"hits": 2}, {"hits": 0}])";
  ActionNeeds n = g.needs_of(segment + "}");
  ASSERT_TRUE(n.need);
  const auto* choice = std::get_if<NeededChoice>(&n.need->what);
  ASSERT_NE(choice, nullptr) << n.need->reason;
  EXPECT_EQ(choice->options, (std::vector<std::string>{"sec1", "sec2"}));
  EXPECT_EQ(n.outcome.refusal->options, choice->options);
  expect_outcome_is_apply_actions(g, segment + "}", n);
  EXPECT_TRUE(g.needs_of(segment + R"(, "losses": ["sec2"]})").ready());
}

TEST(Needs, APlanetsCollisionNeedsTheShipPutDownAgain) {
  Game g = head_on(800, kPlanet);
  const std::string collide = kMove + R"(, "drops": [{"purpose": "collision", "hits": 4}, {"crits": []}])";
  ActionNeeds n = g.needs_of(collide + "}");
  ASSERT_TRUE(n.need);
  const auto* placement = std::get_if<NeededPlacement>(&n.need->what);
  ASSERT_NE(placement, nullptr) << n.need->reason;
  EXPECT_EQ(placement->ship, "enterprise");
  EXPECT_EQ(placement->adjacent_to, "vulcan");
  EXPECT_EQ(placement->placer, "diana") << "the colliding player repositions";
  EXPECT_FALSE(placement->optional);
  EXPECT_FALSE(n.outcome.applied()) << "the move cannot be resolved without it";
  EXPECT_EQ(n.outcome.refusal->kind, RefusalKind::choice_needed);
  expect_outcome_is_apply_actions(g, collide + "}", n);
  EXPECT_TRUE(g.needs_of(collide + R"(, "reposition": {"x": 346.1, "y": 300, "heading": 0}})").ready());
}

TEST(Needs, AShipCollisionOffersTheHitPlayerAPlacementAndResolvesWithoutIt) {
  Game g = head_on(kEndX);
  const std::string collide = kMove + R"(, "drops": [{"crits": ["crit-3"]}, {"crits": []}])";
  ActionNeeds n = g.needs_of(collide + "}");
  ASSERT_TRUE(n.need);
  const auto* placement = std::get_if<NeededPlacement>(&n.need->what);
  ASSERT_NE(placement, nullptr) << n.need->reason;
  EXPECT_EQ(placement->ship, "enterprise");
  EXPECT_EQ(placement->adjacent_to, "tderet");
  EXPECT_EQ(placement->placer, "owen") << "the player whose ship was hit";
  EXPECT_TRUE(placement->optional);
  EXPECT_FALSE(n.ready());
  ASSERT_TRUE(n.outcome.applied()) << "left where it is";
  EXPECT_TRUE(has_event<event::NotRepositioned>(n.outcome.events));
  expect_outcome_is_apply_actions(g, collide + "}", n);
  // Given, nothing more is needed.
  ActionNeeds placed = g.needs_of(collide + R"(, "reposition": {"x": 357.0, "y": 300, "heading": 180}})");
  EXPECT_TRUE(placed.ready());
  EXPECT_TRUE(has_event<event::Repositioned>(placed.outcome.events));
}

TEST(Needs, AnActionWithAllItNeedsIsReadyWithTheStateToCommit) {
  Game g = head_on(kEndX);
  const std::string clear = kMove + R"(, "drops": [{"purpose": "collision", "hits": 5}]})";
  ActionNeeds n = g.needs_of(clear);
  EXPECT_TRUE(n.ready());
  EXPECT_FALSE(n.refused());
  EXPECT_FALSE(n.need);
  ASSERT_TRUE(n.outcome.applied());
  EXPECT_TRUE(has_event<event::NoCollision>(n.outcome.events));
  expect_outcome_is_apply_actions(g, clear, n);
  const nlohmann::json before = state_to_json(g.state());
  g.needs_of(clear);
  EXPECT_EQ(state_to_json(g.state()), before) << "the query changes nothing";
}

TEST(Needs, AnIllegalActionIsRefusedAndNeedsNothing) {
  Game g = head_on(kEndX);
  for (
      const std::string& action :
      {std::string(R"({"do": "move", "player": "owen", "ship": "enterprise"})"),     // not his ship
       kMove + R"(, "drops": [{"purpose": "collision", "hits": 5}, {"hits": 1}]})",  // a drop too many
       kMove +
           R"(, "drops": [{"crits": ["crit-3"]}, {"crits": []}], "reposition": {"x": 380, "y": 300, "heading": 0}})"}) {
    ActionNeeds n = g.needs_of(action);
    EXPECT_TRUE(n.refused()) << action;
    EXPECT_FALSE(n.need) << action << ": " << n.need->reason;
    EXPECT_FALSE(n.ready()) << action;
    expect_outcome_is_apply_actions(g, action, n);
  }
  EXPECT_EQ(g.needs_of(R"({"do": "move", "player": "owen", "ship": "enterprise"})").outcome.refusal->kind,
            RefusalKind::not_yours);
}

}  // namespace
}  // namespace diskref::rules::testing
