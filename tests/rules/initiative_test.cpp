// Step Three: the phases, command initiative and deferring (docs/rules/step3-execute-orders.txt).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

nlohmann::json crew(const std::string& id, const std::string& card, bool revealed = true) {
  return {{"id", id}, {"card", card}, {"revealed", revealed}};
}

// Three players, one ship each, far apart; `commands` picks crew for each.
Game three_ships(const nlohmann::json& crew_a, const nlohmann::json& crew_b, const nlohmann::json& crew_c, int sa,
                 int sb, int sc) {
  nlohmann::json setup = {{"players", {{{"id", "ann"}}, {{"id", "bob"}}, {{"id", "cy"}}}}};
  setup["ships"] = {{{"id", "a"},
                     {"card", "federation_cruiser"},
                     {"player", "ann"},
                     {"pose", pose(100, 100, 90)},
                     {"shape", ship_shape()},
                     {"speed", sa},
                     {"crew", crew_a}},
                    {{"id", "b"},
                     {"card", "federation_cruiser"},
                     {"player", "bob"},
                     {"pose", pose(450, 100, 90)},
                     {"shape", ship_shape()},
                     {"speed", sb},
                     {"crew", crew_b}},
                    {{"id", "c"},
                     {"card", "federation_cruiser"},
                     {"player", "cy"},
                     {"pose", pose(800, 100, 90)},
                     {"shape", ship_shape()},
                     {"speed", sc},
                     {"crew", crew_c}}};
  Game g(setup);
  g.reveal_all();
  for (auto [p, s] : {std::pair{"ann", "a"}, std::pair{"bob", "b"}, std::pair{"cy", "c"}})
    g.orders(p, s, {"raise_shields", "change_speed", "change_heading"});
  return g;
}

std::vector<std::string> order_of(const std::vector<Event>& events) {
  std::vector<std::string> out;
  const event::Initiative initiative = of_type<event::Initiative>(events).front();
  for (const event::InitiativeShip& s : initiative.order) out.push_back(s.ship);
  return out;
}

// "This step occurs in three phases."
// "In each phase, every ship reveals and executes one of its orders and moves its current speed, and
// all active torpedoes move."
TEST(Initiative, StepThreeHasThreePhasesInEachOfWhichEveryShipActs) {
  Game g = three_ships(nlohmann::json::array({crew("pic", "picard")}), nlohmann::json::array({crew("lf", "la_forge")}),
                       nlohmann::json::array(), 1, 1, 1);
  for (int phase = 1; phase <= 3; ++phase) {
    ASSERT_EQ(g.state().step, Step::execute);
    EXPECT_EQ(g.state().phase.number, phase);
    g.play(R"({"do": "initiative"})");
    for (auto [p, s] : {std::pair{"ann", "a"}, std::pair{"bob", "b"}, std::pair{"cy", "c"}}) {
      std::string prefix = R"({"player": ")" + std::string(p) + R"(", "ship": ")" + s + R"(", )";
      g.play(prefix + R"("do": "reveal_order"})");
      g.play(prefix + R"("do": "decline"})");
      // A ship that has revealed but not moved has not finished: the next ship may not act yet.
      if (std::string(s) == "a")
        g.refused(R"({"do": "reveal_order", "player": "bob", "ship": "b"})", RefusalKind::not_your_option);
      g.play(prefix + R"("do": "move"})");
    }
  }
  EXPECT_EQ(g.state().step, Step::reveal);
  EXPECT_EQ(g.state().turn, 2);
}

// "To determine which ship goes first in any given orders phase, add up the total command value of
// the revealed crew on each of your ships."
// "The ship with the highest command total goes first."
TEST(Initiative, HighestRevealedCommandGoesFirst) {
  // a: Picard concealed (does not count) + Security (0); b: La Forge (4); c: Away Team (1).
  Game g = three_ships(nlohmann::json::array({crew("pic", "picard", false), crew("sec", "security")}),
                       nlohmann::json::array({crew("lf", "la_forge")}),
                       nlohmann::json::array({crew("at", "away_team")}), 1, 1, 1);
  auto events = g.play(R"({"do": "initiative"})");
  EXPECT_EQ(order_of(events), (std::vector<std::string>{"b", "c", "a"}));
  EXPECT_EQ(g.state().phase.to_act.front(), "b");
}

// "Ties go to the ship with the lowest current speed."
TEST(Initiative, TiesGoToTheLowestSpeed) {
  Game g = three_ships(nlohmann::json::array(), nlohmann::json::array(), nlohmann::json::array(), 3, 1, 2);
  auto events = g.play(R"({"do": "initiative"})");
  EXPECT_EQ(order_of(events), (std::vector<std::string>{"b", "c", "a"}));
  EXPECT_FALSE(has_event<event::Drop>(events)) << "no random method needed";
}

// "In the case of two or more ships having equal command going the same speed, use a random method
// such as the highest number of hits dropped on five damage counters to determine which ship goes
// first in the phase."
TEST(Initiative, EqualCommandAndSpeedDropFiveCountersMostHitsFirst) {
  Game g = three_ships(nlohmann::json::array(), nlohmann::json::array(), nlohmann::json::array(), 2, 2, 1);
  // c is alone at speed 1; a and b drop five counters each. b scores more.
  g.refused(R"({"do": "initiative"})", RefusalKind::missing_drop);
  g.refused(R"({"do": "initiative", "drops": [{"subject": "b", "hits": 1}, {"subject": "a", "hits": 4}]})",
            RefusalKind::bad_drop);
  g.refused(R"({"do": "initiative", "drops": [{"hits": 6}, {"hits": 4}]})", RefusalKind::bad_drop);
  auto events = g.play(R"({"do": "initiative", "drops": [{"purpose": "initiative", "subject": "a", "hits": 2},
                                                          {"purpose": "initiative", "subject": "b", "hits": 4}]})");
  EXPECT_EQ(order_of(events), (std::vector<std::string>{"c", "b", "a"}));
  for (const event::Drop& drop : of_type<event::Drop>(events)) EXPECT_EQ(drop.counters, 5);
}

TEST(Initiative, StillTiedShipsDropAgain) {
  Game g = three_ships(nlohmann::json::array(), nlohmann::json::array(), nlohmann::json::array(), 2, 2, 2);
  auto events = g.play(R"({"do": "initiative", "drops": [{"subject": "a", "hits": 3}, {"subject": "b", "hits": 3},
                           {"subject": "c", "hits": 1}, {"subject": "a", "hits": 0}, {"subject": "b", "hits": 5}]})");
  EXPECT_EQ(order_of(events), (std::vector<std::string>{"b", "a", "c"}));
}

TEST(Initiative, OnceATurnKeepsThePhaseOneOrderWhenTheParameterSaysSo) {
  GameData data = sample_data();
  data.parameters.initiative = InitiativeTiming::once_per_turn;
  nlohmann::json setup = duel_setup(100, 100, 90, 700, 100, 90, 1, {{"crew", {crew("lf", "la_forge")}}});
  Game g(setup, data);
  g.start_duel({"raise_shields", "change_speed", "change_heading"},
               {"raise_shields", "change_speed", "change_heading"});
  for (auto [p, s] : {std::pair{"diana", "enterprise"}, std::pair{"owen", "tderet"}}) {
    std::string prefix = R"({"player": ")" + std::string(p) + R"(", "ship": ")" + s + R"(", )";
    g.play(prefix + R"("do": "decline"})");
    g.play(prefix + R"("do": "move"})");
  }
  EXPECT_EQ(g.state().phase.number, 2);
  EXPECT_EQ(g.state().phase.stage, PhaseStage::ships) << "no new initiative in phase 2";
  EXPECT_EQ(g.state().phase.to_act.front(), "enterprise");
}

// "The player controlling the first ship may opt to defer to the next player."
// "That player may in turn defer to the next."
// "The last player to go cannot defer, and must execute his or her first order."
// "The option then passes back to the first player, who may defer repeatedly if he so desires,
// waiting until everyone else has gone before executing his first order."
TEST(Initiative, DeferringPassesTheOptionAndComesBack) {
  Game g = three_ships(nlohmann::json::array({crew("pic", "picard")}), nlohmann::json::array({crew("lf", "la_forge")}),
                       nlohmann::json::array(), 1, 1, 1);
  g.play(R"({"do": "initiative"})");  // a (5), b (4), c (0)
  g.refused(R"({"do": "defer", "player": "bob"})", RefusalKind::not_your_option);
  g.play(R"({"do": "defer", "player": "ann"})");
  g.refused(R"({"do": "reveal_order", "player": "ann", "ship": "a"})", RefusalKind::not_your_option);
  g.play(R"({"do": "defer", "player": "bob"})");
  std::string reason = g.refused(R"({"do": "defer", "player": "cy"})", RefusalKind::cannot_defer);
  EXPECT_NE(reason.find("last player to go cannot defer"), std::string::npos);
  g.play(R"({"do": "reveal_order", "player": "cy", "ship": "c"})");
  g.refused(R"({"do": "defer", "player": "cy"})", RefusalKind::cannot_defer);
  g.play(R"({"do": "decline", "player": "cy", "ship": "c"})");
  g.play(R"({"do": "move", "player": "cy", "ship": "c"})");
  // The option is back with the first player, who defers again; now b is last and must act.
  EXPECT_EQ(g.state().phase.option, 0);
  g.play(R"({"do": "defer", "player": "ann"})");
  g.refused(R"({"do": "defer", "player": "bob"})", RefusalKind::cannot_defer);
  g.play(R"({"do": "reveal_order", "player": "bob", "ship": "b"})");
  g.play(R"({"do": "decline", "player": "bob", "ship": "b"})");
  g.play(R"({"do": "move", "player": "bob", "ship": "b"})");
  // Everyone else has gone: a is last and cannot defer.
  g.refused(R"({"do": "defer", "player": "ann"})", RefusalKind::cannot_defer);
  g.play(R"({"do": "reveal_order", "player": "ann", "ship": "a"})");
}

}  // namespace
}  // namespace diskref::rules::testing
