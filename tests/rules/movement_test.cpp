// Step Three: movement and the order of orders and movement (docs/rules/step3-execute-orders.txt).

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// Diana (La Forge, so she has the option first) at (100, 100) heading east; Owen far away.
Game ready_to_act(int speed, const std::vector<std::string>& diana_orders,
                  nlohmann::json enterprise_extra = la_forge_aboard()) {
  Game g(duel_setup(100, 100, 0, 800, 800, 180, speed, enterprise_extra));
  g.start_duel(diana_orders, {"raise_shields", "change_speed", "change_heading"});
  return g;
}

// "Movement, weapon fire, damage resolution and most disk effects occur during this step, with the
// exception of crew combat, which occurs during Step 4: Boarding."
TEST(Movement, MovementAndFireHappenInStepThreeCrewCombatInStepFour) {
  Game g(duel_setup(100, 100, 0, 800, 800, 180, 2, la_forge_aboard()));
  g.refused(R"({"do": "move", "player": "diana", "ship": "enterprise"})", RefusalKind::wrong_step);
  g.reveal_all();
  g.refused(R"({"do": "move", "player": "diana", "ship": "enterprise"})", RefusalKind::wrong_step);
  g.orders("diana", "enterprise", {"attack", "change_speed", "change_heading"});
  g.orders("owen", "tderet", {"raise_shields", "change_speed", "change_heading"});
  g.refused(R"({"do": "move", "player": "diana", "ship": "enterprise"})", RefusalKind::wrong_step);  // initiative first
  g.play(R"({"do": "initiative"})");
  g.refused(R"({"do": "boarding_segment", "ship": "enterprise"})", RefusalKind::wrong_step);
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
}

// "Each ship must reveal an order and move its current speed each phase."
// "During each order phase, each ship must move its current speed."
TEST(Movement, AShipHasNotFinishedUntilItRevealedAndMoved) {
  Game g = ready_to_act(2, {"raise_shields", "change_speed", "change_heading"});
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_EQ(g.state().phase.acting, "enterprise") << "moved but not revealed";
  g.refused(R"({"do": "reveal_order", "player": "owen", "ship": "tderet"})", RefusalKind::not_your_option);
  g.refused(R"({"do": "move", "player": "diana", "ship": "enterprise"})", RefusalKind::already_done);
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields", "value": 3})");
  EXPECT_FALSE(g.state().phase.acting.has_value());
  EXPECT_EQ(g.state().phase.to_act, (std::vector<std::string>{"tderet"}));
}

// "A player may opt to reveal his order, but not execute it."
// "In this case, his ship simply moves its current speed in a straight line, along its former course."
TEST(Movement, RevealWithoutExecutingThenMoveStraightOn) {
  Game g = ready_to_act(3, {"change_heading", "change_speed", "raise_shields"});
  g.play(R"({"do": "reveal_order", "player": "diana", "ship": "enterprise"})");
  g.play(R"({"do": "decline", "player": "diana", "ship": "enterprise"})");
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_heading", "heading": 90})",
            RefusalKind::order_not_available);
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100 + 3 * kFlip, 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.position.y, 100, 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 0, 1e-9);
}

// "A ship can execute an order and move in any sequence."
// "A ship executing a Raise Shields order may move first then raise shields, or raise shields then move."
TEST(Movement, RaiseShieldsBeforeOrAfterMoving) {
  for (bool move_first : {true, false}) {
    Game g = ready_to_act(1, {"raise_shields", "change_speed", "change_heading"});
    const std::string move = R"({"do": "move", "player": "diana", "ship": "enterprise"})";
    const std::string shields =
        R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields", "value": 2})";
    g.play(move_first ? move : shields);
    g.play(move_first ? shields : move);
    EXPECT_EQ(g.ship("enterprise").shields, 2);
    EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100 + kFlip, 1e-6);
    EXPECT_EQ(g.state().phase.to_act, (std::vector<std::string>{"tderet"}));
  }
}

// "Unless specified by a disk’s effect, orders may not be executed in the middle of movement."
// A move is one action: the ship's heading at the start decides the whole path, and a Change Heading
// executed afterwards does not bend it.
TEST(Movement, NoOrdersInTheMiddleOfMovement) {
  Game g = ready_to_act(2, {"change_heading", "change_speed", "raise_shields"});
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_heading", "heading": 90})");
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100 + 2 * kFlip, 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.position.y, 100, 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 90, 1e-9);
}

// "It’s possible, through activating crew, to perform more than one order in a phase."
// "In these cases, each order may occur before or after movement."
// "You may execute all orders, then move; move, then execute all orders; or execute some orders,
// move, then execute the remaining orders."
TEST(Movement, CrewOrdersBeforeAndAfterMovementInEverySequence) {
  nlohmann::json picard = {{"crew", {{{"id", "picard"}, {"card", "picard"}, {"revealed", true}}}}};
  const std::string activate = R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "activate",
                                   "disk": "picard", "row": 1})";
  const std::string shields =
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields", "value": 1})";
  const std::string speed =
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 4})";
  const std::string move = R"({"do": "move", "player": "diana", "ship": "enterprise"})";
  const std::vector<std::vector<std::string>> sequences = {
      {activate, shields, speed, move}, {move, activate, shields, speed}, {activate, speed, move, shields}};
  const double expected_flips[] = {4, 2, 4};
  for (std::size_t i = 0; i < sequences.size(); ++i) {
    Game g = ready_to_act(2, {"activate", "change_speed", "change_heading"}, picard);
    for (const std::string& step : sequences[i]) g.play(step);
    EXPECT_EQ(g.ship("enterprise").shields, 1);
    EXPECT_EQ(g.ship("enterprise").speed, 4);
    EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100 + expected_flips[i] * kFlip, 1e-6) << "sequence " << i;
    EXPECT_EQ(g.state().phase.to_act, (std::vector<std::string>{"tderet"}));
  }
}

// "A ship moves by flipping end-over-end in a straight line."
// "It flips a number of times equal to its current speed."
TEST(Movement, FlipsItsSpeedInAStraightLine) {
  Game g(duel_setup(300, 300, 30, 800, 800, 180, 3, la_forge_aboard()));
  g.start_duel({"raise_shields", "change_speed", "change_heading"},
               {"raise_shields", "change_speed", "change_heading"});
  auto events = g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_EQ(of_type<event::Move>(events).front().flips, 3);
  double rad = 30 * 3.14159265358979323846 / 180;
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 300 + 3 * kFlip * std::cos(rad), 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.position.y, 300 + 3 * kFlip * std::sin(rad), 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 30, 1e-9);
}

// "If the ship is at Full Stop, of course, it doesn’t move at all."
TEST(Movement, FullStopDoesNotMove) {
  Game g = ready_to_act(0, {"raise_shields", "change_speed", "change_heading"});
  auto events = g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_EQ(of_type<event::Move>(events).front().flips, 0);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100, 1e-12);
  EXPECT_NEAR(g.ship("enterprise").pose.position.y, 100, 1e-12);
}

// "Tech upgrades that give bonuses or penalties to speed affect the ship’s maximum speed, not its
// current speed."
TEST(Movement, SpeedTechChangesMaximumNotCurrentSpeed) {
  nlohmann::json extra = la_forge_aboard();
  extra["tech"] = {{{"id", "engines"}, {"card", "enhanced_engines"}, {"revealed", true}}};
  extra["speed"] = 5;  // the cruiser's printed maximum
  Game g = ready_to_act(4, {"change_speed", "raise_shields", "change_heading"}, extra);
  EXPECT_EQ(g.ship("enterprise").speed, 5) << "the tech did not change the current speed";
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 6})");
  EXPECT_EQ(g.ship("enterprise").speed, 6);

  Game plain = ready_to_act(4, {"change_speed", "raise_shields", "change_heading"}, [] {
    nlohmann::json e = la_forge_aboard();
    e["speed"] = 5;
    return e;
  }());
  plain.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 6})",
                RefusalKind::illegal_value);
}

// "You may only change speed by one or two (see the Change Speed order description, above)."
// "Some disks have the ability to alter this restriction, but these abilities generally do not allow
// you to increase your speed above your maximum."
// (No disk in the data alters the restriction; the maximum always holds.)
TEST(Movement, SpeedChangesByOneOrTwoNeverAboveTheMaximum) {
  Game g = ready_to_act(4, {"change_speed", "raise_shields", "change_heading"});
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 1})",
            RefusalKind::illegal_value);
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 6})",
            RefusalKind::illegal_value);  // +2, but above the maximum of 5
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 5})");
  EXPECT_EQ(g.ship("enterprise").speed, 5);
}

// "As ships move around the table, they’re free to pass over one another."
TEST(Movement, ShipsPassOverOneAnother) {
  // The enterprise's path crosses the tderet and ends well past it.
  Game g(duel_setup(100, 300, 0, 100 + 2 * kFlip, 300, 90, 4, la_forge_aboard()));
  g.start_duel({"raise_shields", "change_speed", "change_heading"},
               {"raise_shields", "change_speed", "change_heading"});
  auto events = g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100 + 4 * kFlip, 1e-6);
  EXPECT_FALSE(has_event<event::Collision>(events));
  EXPECT_FALSE(has_event<event::NoCollision>(events)) << "no collision check: it did not end overlapping";
  EXPECT_FALSE(has_event<event::Drop>(events));
}

// "Any ship that moves out of the play area is considered destroyed."
TEST(Movement, MovingOutOfThePlayAreaDestroys) {
  Game g(duel_setup(800, 100, 0, 100, 800, 180, 3, la_forge_aboard()));
  g.start_duel({"raise_shields", "change_speed", "change_heading"},
               {"raise_shields", "change_speed", "change_heading"});
  auto events = g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_TRUE(g.ship("enterprise").destroyed);
  ASSERT_TRUE(has_event<event::Destroyed>(events));
  EXPECT_NE(texts_of<event::Destroyed>(events).front().find("out of the play area"), std::string::npos);
  EXPECT_EQ(g.state().step, Step::game_over);
  EXPECT_EQ(g.state().winner, "owen");
}

}  // namespace
}  // namespace diskref::rules::testing
