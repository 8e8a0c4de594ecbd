// Step Three: torpedoes (docs/rules/step3-execute-orders.txt, "Torpedoes").

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

constexpr double kTorpedo = 25.4;                         // diameter = one flip
constexpr double kBayX = 100 + kFlip / 2 + kTorpedo / 2;  // the torpedo's centre in the bay

// Diana's enterprise at (100, 457) facing east, Full Stop, La Forge aboard (she acts first); the
// tderet out of the way unless placed by `tderet_pose`.
Game launcher(nlohmann::json tderet_pose = pose(800, 100, 90), int speed = 0, GameData data = sample_data()) {
  nlohmann::json setup =
      duel_setup(100, 457, 0, 0, 0, 0, speed, {{"crew", {{{"id", "lf"}, {"card", "la_forge"}, {"revealed", true}}}}},
                 {{"pose", tderet_pose}, {"speed", 0}});
  Game g(setup, data);
  g.start_duel({"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"});
  return g;
}

void rest_of_phase(Game& g) {
  if (!g.ship("enterprise").moved) g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
  g.play(R"({"do": "decline", "player": "owen", "ship": "tderet"})");
  g.play(R"({"do": "move", "player": "owen", "ship": "tderet"})");
}

const std::string kLaunch =
    R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "torpedo")";

// "Torpedoes move when they are first launched, then again at the end of the orders phase, after each
// player has moved his ships and completed his orders."
// "A torpedo remains in play for two additional order phases, giving it (unless it strikes a ship
// first) four opportunities to move: once when launched, then again at the end of three order phases."
// "At the end of its third orders phase, the torpedo expires."
// "Remove it from the table."
// "In each phase, every ship reveals and executes one of its orders and moves its current speed, and
// all active torpedoes move."
// "Torpedoes move much like ships—they flip end over end a number of times equal to their movement."
// "Torpedoes can’t change their speed, and always move their complete movement rating."
TEST(Torpedo, MovesAtLaunchAndAtTheEndOfThreePhasesThenExpires) {
  Game g = launcher();
  g.play(kLaunch + "}");
  ASSERT_EQ(g.state().torpedoes.size(), 1u);
  const double per_move = 4 * kTorpedo;  // movement 4 (sample cruiser torpedo)
  EXPECT_NEAR(g.state().torpedoes[0].pose.position.x, kBayX + per_move, 1e-6);
  g.refused(R"({"do": "move_torpedoes"})", RefusalKind::wrong_step);  // ships still to act
  rest_of_phase(g);
  EXPECT_EQ(g.state().phase.stage, PhaseStage::torpedoes);
  g.refused(R"({"do": "initiative"})", RefusalKind::wrong_step);
  for (int end_of_phase = 1; end_of_phase <= 3; ++end_of_phase) {
    if (end_of_phase > 1) {
      g.play(R"({"do": "initiative"})");
      g.play(R"({"do": "decline", "player": "diana", "ship": "enterprise"})");
      rest_of_phase(g);
    }
    auto events = g.play(R"({"do": "move_torpedoes"})");
    if (end_of_phase < 3) {
      ASSERT_EQ(g.state().torpedoes.size(), 1u);
      EXPECT_NEAR(g.state().torpedoes[0].pose.position.x, kBayX + (1 + end_of_phase) * per_move, 1e-6);
      EXPECT_EQ(g.state().torpedoes[0].moves_left, 3 - end_of_phase);
    } else {
      EXPECT_TRUE(has_event<event::TorpedoExpired>(events));
      EXPECT_TRUE(g.state().torpedoes.empty()) << "removed from the table";
    }
  }
}

// "They do not, however, require Change Heading orders."
// "When the torpedo is launched, you may change its heading after each flip."
// "On its three subsequent movements, you may change its heading at the beginning of each move."
TEST(Torpedo, HeadingAfterEachLaunchFlipAndAtTheStartOfLaterMoves) {
  Game g = launcher();
  g.refused(kLaunch + R"(, "headings_after_flips": [90, 90, 90, 90]})", RefusalKind::illegal_value);
  g.play(kLaunch + R"(, "headings_after_flips": [90, 90, 90]})");
  const Torpedo& t = g.state().torpedoes.at(0);
  EXPECT_NEAR(t.pose.position.x, kBayX + kTorpedo, 1e-6);
  EXPECT_NEAR(t.pose.position.y, 457 + 3 * kTorpedo, 1e-6);
  rest_of_phase(g);
  g.refused(R"({"do": "move_torpedoes", "headings": {"torpedo-7": 0}})", RefusalKind::unknown_name);
  g.play(R"({"do": "move_torpedoes", "headings": {"torpedo-1": 0}})");
  EXPECT_NEAR(g.state().torpedoes.at(0).pose.position.x, kBayX + 5 * kTorpedo, 1e-6);
  EXPECT_NEAR(g.state().torpedoes.at(0).pose.position.y, 457 + 3 * kTorpedo, 1e-6);
}

// "During torpedo movement, all torpedoes move simultaneously."
TEST(Torpedo, AllTorpedoesMoveInOneStep) {
  Game g = launcher();
  g.play(kLaunch + "}");
  g.mutable_state().torpedoes.push_back(
      {"torpedo-x", "tderet", geom::Pose::from_degrees(700, 300, 180), geom::Circle{kTorpedo}, 3, 3, 3});
  rest_of_phase(g);
  auto events = g.play(R"({"do": "move_torpedoes"})");
  EXPECT_NEAR(g.state().torpedoes.at(0).pose.position.x, kBayX + 8 * kTorpedo, 1e-6);
  EXPECT_NEAR(g.state().torpedoes.at(1).pose.position.x, 700 - 3 * kTorpedo, 1e-6);
  EXPECT_EQ(of_type<event::TorpedoesMove>(events).size(), 1u);
}

// "If a torpedo makes contact with any ship at any time, it inflicts its damage immediately and is
// removed from play (see “Damage", above)."
TEST(Torpedo, ContactInflictsDamageAndRemovesTheTorpedo) {
  // The tderet sits on the torpedo's path, 150 mm ahead: the launch move reaches it on its 4th flip.
  Game g = launcher(pose(100 + kFlip / 2 + 150, 457, 180));
  auto events = g.play(kLaunch + R"(, "drops": [{"purpose": "damage", "subject": "tderet", "hits": 2},
                                                 {"purpose": "critical", "crits": []}]})");
  ASSERT_TRUE(has_event<event::TorpedoContact>(events));
  EXPECT_TRUE(g.state().torpedoes.empty());
  EXPECT_EQ(g.ship("tderet").shields, 5);
}

TEST(Torpedo, ContactDuringEndOfPhaseMovement) {
  Game g = launcher(pose(100 + kFlip / 2 + 250, 457, 180));
  g.play(kLaunch + "}");
  rest_of_phase(g);
  g.play(R"({"do": "move_torpedoes", "drops": [{"hits": 1}, {"crits": []}]})");
  EXPECT_TRUE(g.state().torpedoes.empty());
  EXPECT_EQ(g.ship("tderet").shields, 6);
  EXPECT_EQ(g.state().phase.number, 2) << "the phase ended after the torpedoes moved";
}

// "This includes the possibility of a ship hitting a torpedo at any point during the ship’s movement."
// "Ships can hit their own torpedoes, so be careful!"
TEST(Torpedo, AShipMovingIntoATorpedoIsHitEvenByItsOwn) {
  Game g = launcher(pose(800, 100, 90), 2);
  g.mutable_state().torpedoes.push_back(
      {"torpedo-9", "enterprise", geom::Pose::from_degrees(100 + kFlip, 457, 90), geom::Circle{kTorpedo}, 4, 3, 2});
  auto events = g.play(R"({"do": "move", "player": "diana", "ship": "enterprise",
                           "drops": [{"purpose": "damage", "subject": "enterprise", "hits": 3}, {"crits": []}]})");
  ASSERT_TRUE(has_event<event::TorpedoContact>(events));
  EXPECT_EQ(of_type<event::TorpedoContact>(events).front().launcher, "enterprise");
  EXPECT_EQ(g.ship("enterprise").shields, 4);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 100 + 2 * kFlip, 1e-6) << "the ship completes its move";
}

TEST(Torpedo, ATurnIntoATorpedoIsContactToo) {
  // A ship at Full Stop turning in place: its front flat (28.6 mm from the centre) is 1 mm short of a
  // torpedo ahead; turned 90 degrees, its round side (31.75 mm) reaches it.
  Game g = launcher();
  g.mutable_state().torpedoes.push_back(
      {"torpedo-9", "tderet", geom::Pose::from_degrees(kBayX + 1, 457, 0), geom::Circle{kTorpedo}, 4, 3, 2});
  auto events = g.play(R"({"do": "turn", "player": "diana", "ship": "enterprise", "heading": 90,
                           "drops": [{"hits": 1}, {"crits": []}]})");
  EXPECT_TRUE(has_event<event::TorpedoContact>(events));
}

TEST(Torpedo, TorpedoesHitCloakedShipsUnlessTheParameterSaysOtherwise) {
  for (bool hit : {true, false}) {
    GameData data = sample_data();
    data.parameters.torpedoes_hit_cloaked = hit;
    Game g = launcher(pose(100 + kFlip / 2 + 150, 457, 180), 0, data);
    ShipState& tderet = g.mutable_state().ships[1];
    tderet.cloaked = true;
    tderet.shields = 0;
    g.mutable_state().disks.push_back({"cloak", "cloak_type_2", "owen", "tderet", true, false, true});
    if (hit) {
      g.play(kLaunch + R"(, "drops": [{"hits": 1}, {"crits": []}]})");
      EXPECT_EQ(g.ship("tderet").hull, 6);
    } else {
      g.play(kLaunch + "}");
      EXPECT_EQ(g.state().torpedoes.size(), 1u);
    }
  }
}

}  // namespace
}  // namespace diskref::rules::testing
