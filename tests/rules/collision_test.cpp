// Step Three: collisions and evasive action (docs/rules/step3-execute-orders.txt, "Collision").

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// The enterprise (speed 2, heading east from x = 300) ends its move at x = 414.4, y = 300.
constexpr double kEndX = 300 + 2 * kFlip;

Game head_on(double other_x, nlohmann::json setup_extra = nlohmann::json::object(), GameData data = sample_data()) {
  nlohmann::json setup = duel_setup(300, 300, 0, other_x, 300, 180, 2, la_forge_aboard(), {{"speed", 0}});
  setup.update(setup_extra);
  Game g(setup, data);
  g.start_duel({"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"});
  return g;
}

const std::string kMove = R"({"do": "move", "player": "diana", "ship": "enterprise")";

// "If a ship ends its movement overlapping another disk, the two disks might collide."
// "Ship-Ship: If your ship overlaps another at the end of movement, there is a chance you may collide."
// "Shake and drop five damage disks (described below): if one and only one of the disks shows a
// critical, you have collided."
TEST(Collision, OverlapAtTheEndOfMovementTriggersTheCollisionCheck) {
  for (int crits : {0, 2, 3, 5}) {
    Game g = head_on(kEndX);
    auto events =
        g.play(kMove + R"(, "drops": [{"purpose": "collision", "hits": )" + std::to_string(5 - crits) + "}]}");
    ASSERT_TRUE(has_event<event::NoCollision>(events)) << crits << " crits";
    EXPECT_EQ(of_type<event::Drop>(events).front().counters, 5);
    EXPECT_EQ(g.ship("enterprise").hull, 7);
    EXPECT_EQ(g.ship("enterprise").speed, 2);
  }
}

// "Your ship takes one hit to its hull, regardless of its current shield rating."
// "In addition, you must reduce its speed to zero, and remove all remaining orders from your control
// panel just as if you had declared evasive action."
// "Lastly, the player whose ship you hit may pick your disk up and place it anywhere adjacent to
// (i.e., touching, but not overlapping) his ship, placing it facing any direction."
TEST(Collision, ShipShipCollisionHitsTheHullStopsAndMayBePlacedAdjacent) {
  Game g = head_on(kEndX);
  const std::string collide = kMove + R"(, "drops": [{"purpose": "collision", "crits": ["bridge"]},
                                                    {"purpose": "critical", "crits": []}])";
  // The pose given must touch the tderet without overlapping it.
  g.refused(collide + R"(, "reposition": {"x": 380, "y": 300, "heading": 0}})", RefusalKind::bad_choice);
  g.refused(collide + R"(, "reposition": {"x": 300, "y": 300, "heading": 0}})", RefusalKind::bad_choice);
  auto events = g.play(collide + R"(, "reposition": {"x": 357.0, "y": 300, "heading": 180}})");
  ASSERT_TRUE(has_event<event::Collision>(events));
  const ShipState& e = g.ship("enterprise");
  EXPECT_EQ(e.shields, 7) << "regardless of its current shield rating";
  EXPECT_EQ(e.hull, 6);
  EXPECT_EQ(e.speed, 0);
  EXPECT_TRUE(e.orders[1].removed);
  EXPECT_TRUE(e.orders[2].removed);
  EXPECT_TRUE(e.pending.empty()) << "the unrevealed Attack of this phase is removed too";
  EXPECT_NEAR(e.pose.position.x, 357.0, 1e-12);
  EXPECT_NEAR(e.pose.heading_deg(), 180, 1e-12) << "facing any direction";
  EXPECT_EQ(g.state().phase.to_act, (std::vector<std::string>{"tderet"})) << "nothing left to do this phase";
}

TEST(Collision, TheHitPlayerMayLeaveTheShipWhereItIs) {
  Game g = head_on(kEndX);
  auto events = g.play(kMove + R"(, "drops": [{"crits": ["crit-3"]}, {"crits": []}]})");
  EXPECT_TRUE(has_event<event::NotRepositioned>(events));
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, kEndX, 1e-6);
}

TEST(Collision, CollisionHullDamageTriggersTheCriticalCheckByParameter) {
  Game g = head_on(kEndX);
  auto events = g.play(kMove + R"(, "drops": [{"crits": ["crit-3"]}, {"purpose": "critical", "crits": ["crit-2"]}]})");
  EXPECT_EQ(g.ship("enterprise").crits.at("crit-2"), 1) << "hull damage: one critical showing takes effect";

  GameData data = sample_data();
  data.parameters.collision_damage_crit_check = false;
  Game off = head_on(kEndX, nlohmann::json::object(), data);
  off.refused(kMove + R"(, "drops": [{"crits": ["crit-3"]}, {"crits": ["crit-2"]}]})", RefusalKind::unused_drops);
  off.play(kMove + R"(, "drops": [{"crits": ["crit-3"]}]})");
  EXPECT_TRUE(off.ship("enterprise").crits.empty());
}

// "But it is possible to collide with another ship, a planet, or any terrain disk—see “Collision,” below."
// "The collision types cover three possibilities: ship-ship, ship-planet, and ship-obstruction collisions."
// "Ship-Planet: If your ship overlaps a planet, space station, or other terrain disk, drop five damage
// disks just as in a ship-ship collision."
// "Again, if you get a single critical result, the ship-ship collision results apply with the
// following exceptions: your ship takes two hits to its hull, and you reposition your ship adjacent
// to the planet."
TEST(Collision, ShipPlanetCollisionTwoHullHitsAndTheColliderRepositions) {
  for (const char* kind : {"planet", "station", "terrain"}) {
    nlohmann::json terrain = {{"terrain",
                               {{{"id", "vulcan"},
                                 {"kind", kind},
                                 {"pose", pose(450, 300, 0)},
                                 {"shape", {{"type", "circle"}, {"diameter_mm", 150}}}}}}};
    Game g = head_on(800, terrain);
    const std::string collide = kMove + R"(, "drops": [{"purpose": "collision", "hits": 4}, {"crits": []}])";
    std::string reason = g.refused(collide + "}", RefusalKind::choice_needed);
    EXPECT_NE(reason.find("reposition"), std::string::npos);
    // Left edge of the planet at 375: the ship's front flat 28.6 mm ahead of its centre.
    g.refused(collide + R"(, "reposition": {"x": 340, "y": 300, "heading": 0}})", RefusalKind::bad_choice);
    auto events = g.play(collide + R"(, "reposition": {"x": 346.1, "y": 300, "heading": 0}})");
    EXPECT_EQ(g.ship("enterprise").hull, 5) << kind;
    EXPECT_EQ(g.ship("enterprise").shields, 7);
    EXPECT_EQ(g.ship("enterprise").speed, 0);
    EXPECT_TRUE(g.ship("enterprise").orders[1].removed);
    EXPECT_TRUE(has_event<event::Repositioned>(events));
  }
  // No single critical: no collision, no repositioning.
  nlohmann::json terrain = {{"terrain",
                             {{{"id", "vulcan"},
                               {"kind", "planet"},
                               {"pose", pose(450, 300, 0)},
                               {"shape", {{"type", "circle"}, {"diameter_mm", 150}}}}}}};
  Game g = head_on(800, terrain);
  g.play(kMove + R"(, "drops": [{"hits": 5}]})");
  EXPECT_EQ(g.ship("enterprise").hull, 7);
}

// docs/rules.md, ruling r-adjacent: a disk put down by hand and measured by the camera counts as
// touching within the tolerance either way, an overlap of a few tenths of a millimetre included.
TEST(Collision, AnOverlapWithinTheToleranceCountsAsTouching) {
  nlohmann::json terrain = {{"terrain",
                             {{{"id", "vulcan"},
                               {"kind", "planet"},
                               {"pose", pose(450, 300, 0)},
                               {"shape", {{"type", "circle"}, {"diameter_mm", 150}}}}}}};
  const std::string collide = kMove + R"(, "drops": [{"purpose": "collision", "hits": 4}, {"crits": []}])";
  // The front flat is 28.6 mm ahead of the centre; the planet's edge at 375: touching at 346.4.
  Game deep = head_on(800, terrain);
  deep.refused(collide + R"(, "reposition": {"x": 348.0, "y": 300, "heading": 0}})", RefusalKind::bad_choice);
  Game shallow = head_on(800, terrain);
  auto events = shallow.play(collide + R"(, "reposition": {"x": 346.7, "y": 300, "heading": 0}})");
  ASSERT_TRUE(has_event<event::Repositioned>(events));
  double gap = of_type<event::Repositioned>(events).at(0).gap_mm;
  EXPECT_NEAR(gap, -0.3, 1e-6) << "0.3 mm deep, within the 1 mm tolerance";
}

// "Ship-Obstruction: If your ship overlaps an obstruction, remove the obstruction from play
// immediately and suffer the full damage as defined by the scenario."
// "Generally, this damage is not random—instead of dropping damage disks, you simply take a number
// of hits equal to the obstruction’s damage value."
TEST(Collision, ObstructionIsRemovedAndDealsItsDamageValue) {
  nlohmann::json terrain = {{"terrain",
                             {{{"id", "debris"},
                               {"kind", "obstruction"},
                               {"damage", 3},
                               {"pose", pose(kEndX + 40, 300, 0)},
                               {"shape", {{"type", "circle"}, {"diameter_mm", 40}}}}}}};
  Game g = head_on(800, terrain);
  // Only the critical check drops: the damage itself is not random.
  auto events = g.play(kMove + R"(, "drops": [{"purpose": "critical", "crits": []}]})");
  EXPECT_FALSE(g.state().terrain[0].in_play);
  EXPECT_EQ(g.ship("enterprise").shields, 4);
  EXPECT_EQ(g.ship("enterprise").hull, 7);
  EXPECT_EQ(of_type<event::Drop>(events).size(), 1u);
}

// "If your ship is about to collide with a ship, planet or obstruction, you may declare “Evasive Action.”"
// "Evasive action allows your ship to Change Heading right in the middle of movement, regardless of
// its current order."
// "Upon declaring evasive action you must complete your movement, then immediately remove all
// remaining orders from your control panel and reduce your speed to zero."
TEST(Collision, EvasiveActionTurnsMidMoveThenStopsAndLosesRemainingOrders) {
  Game g = head_on(kEndX);
  auto events = g.play(kMove + R"(, "evasive": {"after_flip": 1, "heading": 90}})");
  const ShipState& e = g.ship("enterprise");
  EXPECT_NEAR(e.pose.position.x, 300 + kFlip, 1e-6);
  EXPECT_NEAR(e.pose.position.y, 300 + kFlip, 1e-6) << "the second flip went north";
  EXPECT_EQ(e.speed, 0);
  EXPECT_TRUE(e.orders[0].removed) << "this phase's unrevealed order too";
  EXPECT_TRUE(e.orders[1].removed);
  EXPECT_TRUE(e.orders[2].removed);
  EXPECT_FALSE(has_event<event::Drop>(events)) << "it no longer overlaps: no collision check";
  EXPECT_EQ(g.state().phase.to_act, (std::vector<std::string>{"tderet"}));
}

TEST(Collision, EvasiveActionOnlyWhenAboutToCollide) {
  Game g = head_on(800);
  std::string reason =
      g.refused(kMove + R"(, "evasive": {"after_flip": 1, "heading": 90}})", RefusalKind::illegal_value);
  EXPECT_NE(reason.find("not about to collide"), std::string::npos);
}

// "Evasive action also can’t be taken to avoid running into a torpedo."
TEST(Collision, EvasiveActionCannotAvoidATorpedo) {
  Game g = head_on(800);
  g.mutable_state().torpedoes.push_back(
      {"torpedo-9", "tderet", geom::Pose::from_degrees(kEndX, 300, 180), geom::Circle{25.4}, 3, 3, 2});
  std::string reason =
      g.refused(kMove + R"(, "evasive": {"after_flip": 1, "heading": 90}})", RefusalKind::illegal_value);
  EXPECT_NE(reason.find("torpedo"), std::string::npos);
}

// "You may not take evasive action on the third order phase of a turn."
TEST(Collision, NoEvasiveActionInTheThirdPhase) {
  // Two phases of straight moves bring the enterprise to x = 528.8; the third would end on the tderet.
  Game g(duel_setup(300, 300, 0, 300 + 6 * kFlip, 300, 180, 2, la_forge_aboard(), {{"speed", 0}}));
  g.reveal_all();
  g.orders("diana", "enterprise", {"attack", "raise_shields", "change_speed"});
  g.orders("owen", "tderet", {"attack", "raise_shields", "change_speed"});
  for (int phase = 1; phase <= 2; ++phase) {
    g.play(R"({"do": "initiative"})");
    g.play(R"({"do": "decline", "player": "diana", "ship": "enterprise"})");
    g.play(kMove + "}");
    g.play(R"({"do": "decline", "player": "owen", "ship": "tderet"})");
    g.play(R"({"do": "move", "player": "owen", "ship": "tderet"})");
  }
  g.play(R"({"do": "initiative"})");
  std::string reason = g.refused(kMove + R"(, "evasive": {"after_flip": 1, "heading": 90}})", RefusalKind::wrong_step);
  EXPECT_NE(reason.find("third order phase"), std::string::npos);
}

}  // namespace
}  // namespace diskref::rules::testing
