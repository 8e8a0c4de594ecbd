// Step Two: Assign Orders (docs/rules/step2-assign-orders.txt), sentence by sentence.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/rules/event_json.h"
#include "engine/rules/player_view.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// Two ships far apart, Diana with La Forge revealed so that initiative needs no drop.
Game two_ships(int speed = 2) {
  nlohmann::json crew = {{"crew", {{{"id", "laforge"}, {"card", "la_forge"}, {"revealed", true}}}}};
  return Game(duel_setup(200, 200, 0, 700, 700, 180, speed, crew));
}

// "Each turn your ship takes three actions called “orders.”"
// "Each player chooses three orders he wants to execute during the turn and places them face down
// during this step."
TEST(StepTwo, EachShipTakesExactlyThreeOrdersPlacedInStepTwo) {
  Game g = two_ships();
  g.refused(R"({"do": "orders", "player": "diana", "ship": "enterprise",
                "orders": ["attack", "change_speed", "raise_shields"]})",
            RefusalKind::wrong_step);
  g.reveal_all();
  EXPECT_EQ(g.state().step, Step::orders);
  g.refused(R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": ["attack", "change_speed"]})",
            RefusalKind::illegal_value);
  g.refused(R"({"do": "orders", "player": "diana", "ship": "enterprise",
                "orders": ["attack", "change_speed", "raise_shields", "change_heading"]})",
            RefusalKind::illegal_value);
  g.orders("diana", "enterprise", {"attack", "change_speed", "raise_shields"});
  EXPECT_EQ(g.ship("enterprise").orders.size(), 3u);
  for (const OrderSlot& slot : g.ship("enterprise").orders) EXPECT_FALSE(slot.revealed) << "placed face down";
  EXPECT_EQ(g.state().step, Step::orders) << "waits for Owen's orders";
  g.orders("owen", "tderet", {"change_heading", "attack", "activate"});
  EXPECT_EQ(g.state().step, Step::execute);
}

// "This requires some planning; once you’ve placed your orders you may not change or replace them
// during the turn even if they turn out to be ill-conceived."
TEST(StepTwo, OrdersCannotBeChangedOncePlaced) {
  Game g = two_ships();
  g.reveal_all();
  g.orders("diana", "enterprise", {"attack", "change_speed", "raise_shields"});
  std::string reason = g.refused(R"({"do": "orders", "player": "diana", "ship": "enterprise",
                                     "orders": ["change_heading", "change_speed", "raise_shields"]})",
                                 RefusalKind::already_done);
  EXPECT_NE(reason.find("may not change or replace"), std::string::npos);
}

// "Players can choose from five orders, each represented by a different disk: Change Speed, Change
// Heading, Raise Shields, Attack, and Activate Crew/Tech."
TEST(StepTwo, FiveOrdersEachADifferentDisk) {
  EXPECT_EQ(kAllOrders.size(), 5u);
  Game g = two_ships();
  g.reveal_all();
  // Each order is a different disk: the same order twice is refused
  // (docs/rules.md, open parameter 15).
  g.refused(
      R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": ["attack", "attack", "raise_shields"]})",
      RefusalKind::illegal_value);
  // Anything else is not an order at all: the script itself is refused.
  EXPECT_THROW(g.try_play(R"({"do": "orders", "player": "diana", "ship": "enterprise",
                              "orders": ["attack", "warp", "raise_shields"]})"),
               io::InputError);
}

TEST(StepTwo, TheSameOrderTwiceIsAllowedWhenTheParameterSaysSo) {
  GameData data = sample_data();
  data.parameters.same_order_twice = true;
  nlohmann::json setup = duel_setup(200, 200, 0, 700, 700, 180, 2);
  Game g(setup, data);
  g.reveal_all();
  g.orders("diana", "enterprise", {"attack", "attack", "attack"});
  EXPECT_EQ(g.ship("enterprise").orders[2].kind, OrderKind::attack);
}

// "Raise or lower your current speed by one or two."
// "When revealing this order, rotate your speed status counter so the pointer on your control panel
// indicates the new speed."
// "If your ship’s speed falls to zero, remove the status counter so the control panel shows “Full Stop.”"
TEST(StepTwo, ChangeSpeedByOneOrTwoAndFullStop) {
  Game g = two_ships(2);
  g.start_duel({"change_speed", "attack", "raise_shields"}, {"change_speed", "attack", "raise_shields"});
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 5})",
            RefusalKind::illegal_value);
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 2})",
            RefusalKind::illegal_value);
  auto events =
      g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_speed", "speed": 0})");
  EXPECT_EQ(g.ship("enterprise").speed, 0);
  ASSERT_TRUE(has_event<event::Speed>(events));
  EXPECT_EQ(of_type<event::Speed>(events).front().full_stop, true);
  EXPECT_NE(texts_of<event::Speed>(events).front().find("Full Stop"), std::string::npos);
}

// "Normally, your ship moves in a straight line."
// "To change direction by any degree, you must execute this order."
// "When you do so, rotate your ship in any direction up to 360º."
TEST(StepTwo, ChangeHeadingTurnsAnyAmountAndOnlyByOrderWhenMoving) {
  Game g = two_ships(2);
  g.start_duel({"change_heading", "attack", "raise_shields"}, {"change_speed", "attack", "raise_shields"});
  // Moving ships cannot turn without the order.
  g.refused(R"({"do": "turn", "player": "diana", "ship": "enterprise", "heading": 90})",
            RefusalKind::order_not_available);
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "change_heading", "heading": 359})");
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 359, 1e-9);
  // The move then goes straight along the new heading.
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  EXPECT_NEAR(g.ship("enterprise").pose.position.y, 200 + 2 * kFlip * std::sin(-1 * 3.14159265358979 / 180), 1e-6);
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 359, 1e-6);
}

// "If your ship’s current speed is 0, it may change its heading at any time, without executing a
// Change Heading order."
TEST(StepTwo, AShipAtSpeedZeroTurnsAtAnyTime) {
  Game g = two_ships(0);
  g.play(R"({"do": "turn", "player": "diana", "ship": "enterprise", "heading": 123})");  // Step One
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 123, 1e-9);
  g.reveal_all();
  g.play(R"({"do": "turn", "player": "diana", "ship": "enterprise", "heading": 45})");  // Step Two
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 45, 1e-9);
  g.refused(R"({"do": "turn", "player": "owen", "ship": "enterprise", "heading": 0})", RefusalKind::not_yours);
}

// "Evasive action (see “Collisions,” below) also allows you to change heading without an order."
// (The evasive action itself is tested in collision_test.cpp.)
TEST(StepTwo, EvasiveActionTurnsWithoutAnOrder) {
  // Head-on: the enterprise would end its 2 flips on top of the tderet.
  Game g(duel_setup(300, 300, 0, 300 + 2 * kFlip, 300, 180, 2));
  g.start_duel(
      {"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"},
      R"({"do": "initiative", "drops": [{"subject": "enterprise", "hits": 3}, {"subject": "tderet", "hits": 1}]})");
  g.play(R"({"do": "move", "player": "diana", "ship": "enterprise", "evasive": {"after_flip": 1, "heading": 90}})");
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 90, 1e-9);
}

// "Use this order to raise or lower your shields to any setting, from 0 up to their maximum strength."
// "When executing this order, rotate your shield status counter so the control panel pointer
// indicates the ship’s maximum value."
// The two sentences disagree (docs/rules.md, open parameter 11): any value by default, the maximum
// by parameter.
TEST(StepTwo, RaiseShieldsAnySettingOrMaximumByParameter) {
  Game g = two_ships(2);
  g.start_duel({"raise_shields", "attack", "change_speed"}, {"raise_shields", "attack", "change_speed"});
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields", "value": 8})",
            RefusalKind::illegal_value);
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields", "value": 0})");
  EXPECT_EQ(g.ship("enterprise").shields, 0);

  GameData data = sample_data();
  data.parameters.raise_shields = RaiseShieldsRule::maximum;
  Game m(duel_setup(200, 200, 0, 700, 700, 180, 2, {{"shields", 2}}), data);
  m.start_duel({"raise_shields", "attack", "change_speed"}, {"raise_shields", "attack", "change_speed"},
               R"({"do": "initiative", "drops": [{"hits": 4}, {"hits": 2}]})");
  m.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields", "value": 5})",
            RefusalKind::illegal_value);
  m.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "raise_shields"})");
  EXPECT_EQ(m.ship("enterprise").shields, 7);
}

// "This order allows your ship to perform one attack action."
// "You may either fire your beam weapon once, fire one torpedo, or transport any number of crew from
// your ship to another ship or terrain disk."
TEST(StepTwo, AttackIsOneAttackAction) {
  Game g(duel_setup(300, 300, 0, 420, 300, 180, 0));
  g.start_duel({"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"},
               R"({"do": "initiative", "drops": [{"hits": 3}, {"hits": 1}]})");
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
             "target": "tderet", "drops": [{"purpose": "damage", "hits": 0}]})");
  // The one attack is spent: no second beam, and no torpedo either.
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
                "target": "tderet", "drops": [{"hits": 0}]})",
            RefusalKind::order_not_available);
  g.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "torpedo"})",
            RefusalKind::order_not_available);
}

// "The most versatile of the five orders, Activate Crew/Tech allows you to use a crew disk aboard
// your ship to perform its orders or to flip any crew or tech disk that reads; “:” to perform the
// described effect."
// (Both uses are tested in activation_test.cpp; here: the order is what lets a crew act.)
TEST(StepTwo, ActivateCrewTechUsesACrewDiskAboard) {
  nlohmann::json crew = {{"crew", {{{"id", "laforge"}, {"card", "la_forge"}, {"revealed", true}}}}};
  Game g(duel_setup(200, 200, 0, 700, 700, 180, 2, crew));
  g.start_duel({"activate", "attack", "change_speed"}, {"activate", "attack", "change_speed"});
  g.play(
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "activate", "disk": "laforge", "row": 1})");
  EXPECT_FALSE(g.disk("laforge").ready);
  ASSERT_EQ(g.ship("enterprise").pending.size(), 1u);
  EXPECT_EQ(g.ship("enterprise").pending[0].kind, OrderKind::change_speed);
}

// "At the beginning of each turn, place your three order disks face down on the “Orders” circles on
// your control panel, with the “ORDER” side of each disk facing up."
// "Players on opposite teams may not examine each other’s orders until they are revealed."
// "Teammates may confer at any time regarding the orders they have selected."
TEST(StepTwo, OrdersAreHiddenFromOpponentsButNotFromTeammates) {
  nlohmann::json setup = duel_setup(200, 200, 0, 700, 700, 180, 2);
  setup["players"] = {{{"id", "diana"}, {"team", "federation"}},
                      {{"id", "owen"}, {"team", "romulans"}},
                      {{"id", "charles"}, {"team", "federation"}}};
  setup["ships"].push_back({{"id", "defiant"},
                            {"card", "escort"},
                            {"player", "charles"},
                            {"pose", pose(500, 100, 90)},
                            {"shape", ship_shape()},
                            {"speed", 1}});
  Game g(setup);
  g.reveal_all();
  g.orders("diana", "enterprise", {"attack", "change_speed", "raise_shields"});
  auto events = g.play(R"({"do": "orders", "player": "owen", "ship": "tderet",
                           "orders": ["change_heading", "attack", "activate"]})");
  // The log says that orders were placed, not which.
  EXPECT_EQ(event_to_json(events.front()).dump().find("change_heading"), std::string::npos);
  nlohmann::json owen_view = state_view_for(g.state(), "owen");
  EXPECT_EQ(owen_view["ships"][0]["orders"][0]["order"], "hidden");
  nlohmann::json charles_view = state_view_for(g.state(), "charles");
  EXPECT_EQ(charles_view["ships"][0]["orders"][0]["order"], "attack") << "teammates may confer";
  EXPECT_EQ(charles_view["ships"][1]["orders"][0]["order"], "hidden");
}

// "During the turn, each player executes orders from left to right, with all players completing
// their first order in sequence before proceeding to their second and third."
TEST(StepTwo, OrdersAreExecutedLeftToRightOnePerPhase) {
  nlohmann::json crew = {{"crew", {{{"id", "laforge"}, {"card", "la_forge"}, {"revealed", true}}}}};
  Game g(duel_setup(100, 100, 0, 100, 800, 0, 1, crew));
  g.reveal_all();
  g.orders("diana", "enterprise", {"raise_shields", "change_speed", "change_heading"});
  g.orders("owen", "tderet", {"raise_shields", "change_speed", "change_heading"});
  for (int phase = 1; phase <= 3; ++phase) {
    EXPECT_EQ(g.state().phase.number, phase);
    g.play(R"({"do": "initiative"})");
    for (const char* who : {"diana", "owen"}) {
      std::string ship = std::string(who) == "diana" ? "enterprise" : "tderet";
      auto events =
          g.play(R"({"do": "reveal_order", "player": ")" + std::string(who) + R"(", "ship": ")" + ship + "\"}");
      OrderKind expected = g.ship(ship).orders[static_cast<std::size_t>(phase - 1)].kind;
      EXPECT_EQ(of_type<event::OrderRevealed>(events).front().order, expected);
      g.play(R"({"do": "decline", "player": ")" + std::string(who) + R"(", "ship": ")" + ship + "\"}");
      g.play(R"({"do": "move", "player": ")" + std::string(who) + R"(", "ship": ")" + ship + "\"}");
    }
  }
  EXPECT_EQ(g.state().turn, 2) << "after the third phase the turn ends (no boarding here)";
}

}  // namespace
}  // namespace diskref::rules::testing
