// Step Three: cloaking devices, types I, II and III (docs/rules/step3-execute-orders.txt).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// Owen's tderet (La Forge aboard, so it acts first) carries a cloaking device `card`; Diana's
// enterprise sits 30 mm in front of it. Both at Full Stop.
Game cloaked_duel(const std::string& card,
                  std::vector<std::string> owen_orders = {"activate", "raise_shields", "attack"},
                  std::vector<std::string> diana_orders = {"attack", "raise_shields", "change_speed"}) {
  nlohmann::json tderet = {{"crew", {{{"id", "lf"}, {"card", "la_forge"}, {"revealed", true}}}},
                           {"tech", {{{"id", "cloak"}, {"card", card}, {"revealed", true}}}}};
  Game g(duel_setup(300, 300, 0, 300 + kFlip + 30, 300, 180, 0, nlohmann::json::object(), tderet));
  g.start_duel(diana_orders, owen_orders);
  return g;
}

const std::string kOwen = R"({"player": "owen", "ship": "tderet", )";
const std::string kDiana = R"({"player": "diana", "ship": "enterprise", )";

// Both ships finish the phase without doing anything more.
void finish_phase(Game& g) {
  for (const std::string& who : {kOwen, kDiana}) {
    const std::string id = who == kOwen ? "tderet" : "enterprise";
    const auto& to_act = g.state().phase.to_act;
    if (std::find(to_act.begin(), to_act.end(), id) == to_act.end()) continue;
    if (!g.ship(id).pending.empty() || !g.ship(id).order_revealed) g.play(who + R"("do": "decline"})");
    if (!g.ship(id).moved) g.play(who + R"("do": "move"})");
  }
}

// "There are three types of cloaking devices."
// "The most basic is the Type I cloak."
TEST(Cloak, ThreeTypesInTheData) {
  EXPECT_EQ(sample_data().disk("cloak_type_1")->ability(AbilityType::cloak)->cloak, CloakType::type_1);
  EXPECT_EQ(sample_data().disk("cloak_type_2")->ability(AbilityType::cloak)->cloak, CloakType::type_2);
  EXPECT_EQ(sample_data().disk("cloak_type_3")->ability(AbilityType::cloak)->cloak, CloakType::type_3);
}

// "An Activate Crew/Tech order must be used to activate the cloak."
// "While activated, the ship’s shields are reduced to 0 and it cannot fire at other ships."
// "Ships with cloaking devices can evade detection—and therefore attack—but at the cost of losing
// offensive capabilities."
// "Cloaked ships cannot fire or be fired upon by enemy ships."
TEST(Cloak, TypeOneNeedsAnOrderAndThenCannotFireOrBeFiredUpon) {
  Game g = cloaked_duel("cloak_type_1");
  std::string reason = g.refused(kOwen + R"("do": "raise_cloak"})", RefusalKind::illegal_value);
  EXPECT_NE(reason.find("Type I"), std::string::npos);
  g.play(kOwen + R"("do": "execute", "order": "activate", "disk": "cloak"})");
  EXPECT_TRUE(g.ship("tderet").cloaked);
  EXPECT_EQ(g.ship("tderet").shields, 0);
  EXPECT_FALSE(g.disk("cloak").ready) << "the cloak is raised while its disk is activated";
  g.play(kOwen + R"("do": "move"})");
  std::string fired_upon =
      g.refused(kDiana + R"("do": "execute", "order": "attack", "attack": "beam", "target": "tderet",
                                                 "drops": [{"hits": 4}, {"crits": []}]})",
                RefusalKind::cloaked);
  EXPECT_NE(fired_upon.find("cannot be fired upon"), std::string::npos);
  finish_phase(g);
  // Phase 2: the cloaked tderet cannot raise its shields...
  g.play(R"({"do": "initiative"})");
  g.refused(kOwen + R"("do": "execute", "order": "raise_shields", "value": 5})", RefusalKind::cloaked);
  finish_phase(g);
  // ... and in phase 3 cannot fire or launch.
  g.play(R"({"do": "initiative"})");
  g.refused(
      kOwen +
          R"("do": "execute", "order": "attack", "attack": "beam", "target": "enterprise", "drops": [{"hits": 1}]})",
      RefusalKind::cloaked);
  g.refused(kOwen + R"("do": "execute", "order": "attack", "attack": "torpedo"})", RefusalKind::cloaked);
}

// "At the beginning of any Orders phase, before revealing that phase’s order, the player may drop the
// cloak (flipping the disk back to its ready state), but the ship’s shields remain at 0 until they
// are raised."
TEST(Cloak, DroppingTheCloakBeforeRevealingLeavesShieldsAtZero) {
  Game g = cloaked_duel("cloak_type_1");
  g.play(kOwen + R"("do": "execute", "order": "activate", "disk": "cloak"})");
  finish_phase(g);
  g.play(R"({"do": "initiative"})");
  g.play(kOwen + R"("do": "drop_cloak"})");
  EXPECT_FALSE(g.ship("tderet").cloaked);
  EXPECT_TRUE(g.disk("cloak").ready);
  EXPECT_EQ(g.ship("tderet").shields, 0);
  g.play(kOwen + R"("do": "execute", "order": "raise_shields", "value": 7})");
  EXPECT_EQ(g.ship("tderet").shields, 7);
  // After revealing, it is too late to raise or drop a cloak this phase.
  g.refused(kOwen + R"("do": "raise_cloak"})", RefusalKind::wrong_step);
}

// "The Type II cloak works like the Type I, but it may be activated (the cloak raised) before any
// Orders phase, without requiring an Activate Crew/Tech order."
// "It may not be lowered the same phase it was raised."
TEST(Cloak, TypeTwoRaisesWithoutAnOrderButNotDownTheSamePhase) {
  Game g = cloaked_duel("cloak_type_2", {"raise_shields", "attack", "change_speed"});
  g.play(kOwen + R"("do": "raise_cloak"})");
  EXPECT_TRUE(g.ship("tderet").cloaked);
  EXPECT_EQ(g.ship("tderet").shields, 0);
  std::string reason = g.refused(kOwen + R"("do": "drop_cloak"})", RefusalKind::wrong_step);
  EXPECT_NE(reason.find("same phase"), std::string::npos);
  finish_phase(g);
  g.play(R"({"do": "initiative"})");
  g.play(kOwen + R"("do": "drop_cloak"})");
  EXPECT_EQ(g.ship("tderet").shields, 0) << "a Type II cloak leaves the shields at 0";
}

// "The Type III cloak works as a Type II, but when the cloak is readied (dropped), the ship’s shields
// immediately raise to full without requiring a Raise Shields order."
TEST(Cloak, TypeThreeRaisesShieldsToFullWhenDropped) {
  Game g = cloaked_duel("cloak_type_3", {"raise_shields", "attack", "change_speed"});
  g.play(kOwen + R"("do": "raise_cloak"})");
  finish_phase(g);
  g.play(R"({"do": "initiative"})");
  auto events = g.play(kOwen + R"("do": "drop_cloak"})");
  EXPECT_EQ(g.ship("tderet").shields, 7);
  EXPECT_FALSE(has_event<event::OrderExecuted>(events)) << "no Raise Shields order needed";
}

}  // namespace
}  // namespace diskref::rules::testing
