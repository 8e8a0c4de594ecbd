// Step 4: Boarding (docs/rules/step4-boarding.txt).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

nlohmann::json crew(const std::string& id, const std::string& card, const std::string& owner, bool revealed = true,
                    bool ready = true) {
  return {{"id", id}, {"card", card}, {"owner", owner}, {"revealed", revealed}, {"ready", ready}};
}

// Diana's enterprise and Owen's tderet, far apart at Full Stop; `aboard_tderet` are the crew on the
// tderet (either side's). Virtual drops for initiative; the tests give the boarding drops.
Game boarding_game(const nlohmann::json& aboard_tderet,
                   const nlohmann::json& aboard_enterprise = nlohmann::json::array()) {
  nlohmann::json setup =
      duel_setup(200, 200, 0, 700, 700, 180, 0, {{"crew", aboard_enterprise}}, {{"crew", aboard_tderet}});
  setup["drops"] = {{"mode", "virtual"}, {"seed", 3}};
  return Game(setup);
}

// Plays Step One, Step Two and the three phases with every ship declining and staying put.
void to_step_four(Game& g) {
  g.reveal_all();
  const std::vector<ShipState> ships = g.state().ships;  // copied: playing replaces the state
  for (const ShipState& s : ships)
    if (!s.destroyed) g.orders(s.controller, s.id, {"attack", "raise_shields", "change_speed"});
  finish_step_three(g);
}

// Four Security (Owen, command 0) against four Away Teams (Diana, command 1 each) aboard the tderet.
nlohmann::json four_against_four() {
  nlohmann::json aboard = nlohmann::json::array();
  for (int i = 1; i <= 4; ++i) {
    aboard.push_back(crew("sec" + std::to_string(i), "security", "owen"));
    aboard.push_back(crew("at" + std::to_string(i), "away_team", "diana"));
  }
  return aboard;
}

// Three tied segments (no hits): each side loses crew number 1, 2, 3.
void three_drawn_segments(Game& g) {
  for (int segment = 1; segment <= 3; ++segment) {
    std::string n = std::to_string(segment);
    g.play(R"({"do": "boarding_segment", "ship": "tderet", "losses": ["sec)" + n + R"(", "at)" + n +
           R"("], "drops": [{"hits": 0}, {"hits": 0}]})");
  }
}

// "Once Step 3 ends, Step 4 resolves crew combat on any ships containing crew disks belonging to
// opposing players."
// "If, at the beginning of Boarding, your crew occupies an enemy ship that also contains revealed
// opposing crew, your crew enter combat for control of the ship."
TEST(Boarding, CombatOnShipsHoldingOpposingCrew) {
  Game g = boarding_game({crew("sec1", "security", "owen"), crew("at1", "away_team", "diana")},
                         nlohmann::json::array({crew("at2", "away_team", "diana")}));
  to_step_four(g);
  ASSERT_EQ(g.state().step, Step::boarding);
  ASSERT_EQ(g.state().boarding.size(), 1u) << "only the tderet holds opposing crew";
  EXPECT_EQ(g.state().boarding[0].ship, "tderet");
  g.refused(R"({"do": "boarding_segment", "ship": "enterprise"})", RefusalKind::unknown_name);
}

// "If you’ve transported to a ship with enemy crew aboard, combat ensues during Step 4: Boarding."
TEST(Boarding, TransportingAboardLeadsToCombat) {
  nlohmann::json setup =
      duel_setup(300, 300, 0, 300 + kFlip + 30, 300, 180, 0,
                 {{"shields", 0}, {"crew", {crew("lf", "la_forge", "diana"), crew("at", "away_team", "diana")}}},
                 {{"shields", 0}, {"crew", {crew("sec", "security", "owen")}}});
  setup["drops"] = {{"mode", "virtual"}, {"seed", 1}};
  Game g(setup);
  g.start_duel({"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"});
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "transport",
             "target": "tderet", "crew": ["at"]})");
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  g.play(R"({"do": "decline", "player": "owen", "ship": "tderet"})");
  g.play(R"({"do": "move", "player": "owen", "ship": "tderet"})");
  finish_step_three(g);
  ASSERT_EQ(g.state().step, Step::boarding);
  EXPECT_EQ(g.state().boarding.at(0).ship, "tderet");
}

// "If you transport over to a ship that has no revealed enemy crew, no combat ensues and you take
// control of the ship uncontested (see “Taking Control", below)."
TEST(Boarding, NoRevealedDefendersMeansUncontestedControl) {
  Game g = boarding_game({crew("sec1", "security", "owen", false), crew("at1", "away_team", "diana")});
  to_step_four(g);
  EXPECT_EQ(g.state().step, Step::reveal) << "no combat: Step 4 ends at once";
  EXPECT_EQ(g.state().turn, 2);
  EXPECT_EQ(g.ship("tderet").controller, "diana");
}

// "A player with crew in combat totals the combat values of all his ready crew aboard that ship (do
// not include the combat values of activated or unrevealed crew), then shakes and drops exactly that
// number of damage counters."
TEST(Boarding, EachPlayerDropsHisReadyCrewsCombatTotal) {
  Game g = boarding_game({crew("sec1", "security", "owen"), crew("sec2", "security", "owen"),
                          crew("sec3", "security", "owen", true, false), crew("sec4", "security", "owen", false),
                          crew("at1", "away_team", "diana"), crew("at2", "away_team", "diana", true, false)});
  to_step_four(g);
  // Diana: one ready Away Team (2). Owen: two ready Security (1 + 1).
  g.refused(R"({"do": "boarding_segment", "ship": "tderet", "drops": [{"subject": "diana", "hits": 3}]})",
            RefusalKind::bad_drop);
  auto events = g.play(R"({"do": "boarding_segment", "ship": "tderet", "losses": ["sec1"],
                           "drops": [{"purpose": "boarding", "subject": "diana", "hits": 2},
                                     {"purpose": "boarding", "subject": "owen", "hits": 1}]})");
  auto drops = of_type<event::Drop>(events);
  ASSERT_EQ(drops.size(), 2u);
  EXPECT_EQ(drops[0].counters, 2);
  EXPECT_EQ(drops[1].counters, 2);
}

// "The player scoring the most hits (or the team with the most total hits) wins, and his opponent
// loses one crew disk of his choosing (in other words, one of the loser’s crew—his choice—is killed)."
// "The opponent may choose to kill an activated crew, but unrevealed crew cannot be killed."
TEST(Boarding, TheLoserChoosesWhichCrewDiesNeverAnUnrevealedOne) {
  Game g = boarding_game({crew("sec1", "security", "owen"), crew("sec2", "security", "owen", true, false),
                          crew("sec3", "security", "owen", false), crew("at1", "away_team", "diana")});
  to_step_four(g);
  const std::string segment = R"({"do": "boarding_segment", "ship": "tderet", "drops": [{"hits": 2}, {"hits": 0}])";
  std::string reason = g.refused(segment + "}", RefusalKind::choice_needed);
  EXPECT_NE(reason.find("sec1"), std::string::npos);
  EXPECT_NE(reason.find("sec2"), std::string::npos);
  EXPECT_EQ(reason.find("sec3"), std::string::npos) << "unrevealed crew cannot be killed";
  g.refused(segment + R"(, "losses": ["sec3"]})", RefusalKind::choice_needed);
  g.refused(segment + R"(, "losses": ["sec1", "at1"]})", RefusalKind::bad_choice);  // Diana won: she loses nobody
  g.play(segment + R"(, "losses": ["sec2"]})");                                     // the activated one
  EXPECT_FALSE(g.disk("sec2").in_play);
  EXPECT_TRUE(g.disk("sec1").in_play);
  EXPECT_TRUE(g.disk("at1").in_play);
}

// "In the case of a tie, both players lose one crew."
TEST(Boarding, ATieCostsBothSidesACrew) {
  Game g = boarding_game({crew("sec1", "security", "owen"), crew("sec2", "security", "owen"),
                          crew("at1", "away_team", "diana"), crew("at2", "away_team", "diana")});
  to_step_four(g);
  g.play(R"({"do": "boarding_segment", "ship": "tderet", "losses": ["sec2", "at1"],
             "drops": [{"subject": "diana", "hits": 1}, {"subject": "owen", "hits": 1}]})");
  EXPECT_FALSE(g.disk("sec2").in_play);
  EXPECT_FALSE(g.disk("at1").in_play);
}

// "Repeat this segment two more times, or until one player has no more crew left."
// "If, at the end of three segments, both sides have crew aboard the ship, combat ends and the side
// with the highest command total takes control (see just below)."
// "At the end of Step 4, the player whose crew has the highest total command value on the ship
// controls that ship for the next turn."
TEST(Boarding, ThreeSegmentsThenTheHighestCommandControls) {
  Game g = boarding_game(four_against_four());
  to_step_four(g);
  three_drawn_segments(g);
  EXPECT_EQ(g.state().step, Step::reveal) << "combat ends after three segments, and Step 4 with it";
  EXPECT_EQ(g.ship("tderet").controller, "diana") << "command 1 against 0";
  EXPECT_TRUE(g.disk("sec4").in_play);
  EXPECT_TRUE(g.disk("at4").in_play);
}

TEST(Boarding, CombatEndsWhenOneSideHasNoCrewLeft) {
  Game g = boarding_game(
      {crew("sec1", "security", "owen"), crew("at1", "away_team", "diana"), crew("at2", "away_team", "diana")});
  to_step_four(g);
  auto events = g.play(R"({"do": "boarding_segment", "ship": "tderet", "drops": [{"hits": 3}, {"hits": 0}]})");
  EXPECT_TRUE(has_event<event::BoardingOver>(events));
  EXPECT_FALSE(g.disk("sec1").in_play);
  EXPECT_EQ(g.ship("tderet").controller, "diana");
}

// "Take the control panel for that ship, and use it as if it belongs to you, issuing orders and
// moving the ship each phase."
// "The other player may not be out of the game, though, especially if he still has crew on board, or
// if his teammates can transport crew aboard to retake the ship!"
TEST(Boarding, TheNewControllerCommandsTheShipAndTheOldOneIsNotOut) {
  Game g = boarding_game(four_against_four());
  to_step_four(g);
  three_drawn_segments(g);
  // Diana controls both ships, but Owen still has crew aboard the tderet: the game goes on.
  EXPECT_EQ(g.state().step, Step::reveal);
  EXPECT_FALSE(g.state().winner.has_value());
  g.reveal_all();
  g.refused(
      R"({"do": "orders", "player": "owen", "ship": "tderet", "orders": ["attack", "raise_shields", "change_speed"]})",
      RefusalKind::not_yours);
  g.orders("diana", "tderet", {"attack", "raise_shields", "change_speed"});
  EXPECT_EQ(g.ship("tderet").orders.size(), 3u);
}

TEST(Boarding, WithNoCrewLeftAnywhereTheLastSideWins) {
  Game g = boarding_game({crew("sec1", "security", "owen"), crew("at1", "away_team", "diana")});
  to_step_four(g);
  g.play(R"({"do": "boarding_segment", "ship": "tderet", "drops": [{"hits": 2}, {"hits": 0}]})");
  EXPECT_EQ(g.state().step, Step::game_over);
  EXPECT_EQ(g.state().winner, "diana");
}

}  // namespace
}  // namespace diskref::rules::testing
