// Step Three: critical hits (docs/rules/step3-execute-orders.txt, "Critical Hits").

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/rules/criticals.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// The enterprise (La Forge, first to act) 30 mm from the tderet, ready to fire its beam (rating 4).
Game in_sights(const nlohmann::json& tderet_extra, const GameData& data = sample_data()) {
  return face_to_face(30, nlohmann::json::object(), tderet_extra, {"attack", "raise_shields", "change_speed"}, data);
}

std::string fire(int hits, const std::string& crits) {
  return R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
             "target": "tderet", "drops": [{"purpose": "damage", "hits": )" +
         std::to_string(hits) + R"(}, {"purpose": "critical", "subject": "tderet", "crits": )" + crits + "}]}";
}

// "Any time a ship takes a hit to its shields or hull, regardless of how much damage is inflicted,
// there is a chance of critical damage occurring."
TEST(Criticals, EveryHitIsFollowedByACriticalCheck) {
  Game one = in_sights({});
  auto events = one.play(fire(1, "[]"));
  EXPECT_EQ(of_type<event::Drop>(events).size(), 2u) << "one hit: damage drop, then the critical check";
  Game none = in_sights({});
  auto quiet =
      none.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
                             "target": "tderet", "drops": [{"hits": 0}]})");
  EXPECT_EQ(of_type<event::Drop>(quiet).size(), 1u) << "no hit, no critical check";
}

// "The back of every damage counter describes a type of critical result."
// "There are five types of criticals possible."
// "Whenever you inflict damage on a ship, select one of each critical counter, shake all five of
// them, and drop them on the table."
TEST(Criticals, TheCheckDropsOneCounterOfEachOfTheFiveTypes) {
  ASSERT_EQ(sample_data().crit_types.size(), 5u);
  Game g = in_sights({});
  g.refused(fire(2, R"(["bridge", "bridge"])"), RefusalKind::bad_drop);  // one counter of each type
  g.refused(fire(2, R"(["warp-core"])"), RefusalKind::bad_drop);         // not a critical type
  auto events = g.play(fire(2, R"(["crit-4"])"));
  const event::Drop check = of_type<event::Drop>(events)[1];
  EXPECT_EQ(check.purpose, DropPurpose::critical);
  EXPECT_EQ(check.counters, 5);
  EXPECT_EQ(check.crit_types, std::vector<std::string>{"crit-4"});
}

// "If your ship takes damage only to its shields, then a critical occurs if only one of the five
// damage disks shows a critical."
// "Had two or more disks shown a critical, no crit would have occurred."
TEST(Criticals, ShieldOnlyDamageNeedsExactlyOneCritical) {
  EXPECT_EQ(criticals_taking_effect({"bridge"}, false), (std::vector<std::string>{"bridge"}));
  EXPECT_TRUE(criticals_taking_effect({}, false).empty());
  EXPECT_TRUE(criticals_taking_effect({"bridge", "crit-2"}, false).empty());
  Game g = in_sights({});
  g.play(fire(2, R"(["bridge", "crit-2"])"));
  EXPECT_TRUE(g.ship("tderet").crits.empty());
  Game h = in_sights({});
  h.play(fire(2, R"(["crit-5"])"));
  EXPECT_EQ(h.ship("tderet").crits.at("crit-5"), 1);
}

// "If your ship takes any hull damage during an attack, then a critical occurs if one or two damage
// counters show a critical."
// "If hull damage occurred, and two crits came up, apply the effects of both counters."
TEST(Criticals, HullDamageTakesOneOrTwoCriticalsAndAppliesBoth) {
  EXPECT_EQ(criticals_taking_effect({"crit-2", "crit-3"}, true), (std::vector<std::string>{"crit-2", "crit-3"}));
  EXPECT_TRUE(criticals_taking_effect({"crit-2", "crit-3", "crit-4"}, true).empty());
  Game g = in_sights({{"shields", 1}});
  g.play(fire(2, R"(["crit-2", "crit-3"])"));
  EXPECT_EQ(g.ship("tderet").crits.at("crit-2"), 1);
  EXPECT_EQ(g.ship("tderet").crits.at("crit-3"), 1);
  Game h = in_sights({{"shields", 1}});
  h.play(fire(2, R"(["crit-2", "crit-3", "crit-4"])"));
  EXPECT_TRUE(h.ship("tderet").crits.empty());
}

// "When a critical occurs, apply the effect described on the critical disk."
// "The bridge crit reads “Remove all revealed bridge crew from play.”"
TEST(Criticals, TheBridgeCritRemovesRevealedBridgeCrew) {
  ASSERT_NE(sample_data().crit("bridge"), nullptr);
  EXPECT_EQ(sample_data().crit("bridge")->text, "Remove all revealed bridge crew from play.");
  nlohmann::json crew = {{"crew",
                          {{{"id", "picard"}, {"card", "picard"}, {"revealed", true}},  // bridge (sample keyword)
                           {{"id", "barclay"}, {"card", "barclay"}, {"revealed", true}}}}};
  Game g = in_sights(crew);
  g.play(R"({"do": "defer", "player": "owen"})");  // Picard's command gives the tderet the option
  g.play(fire(2, R"(["bridge"])"));
  EXPECT_FALSE(g.disk("picard").in_play);
  EXPECT_TRUE(g.disk("barclay").in_play);
  nlohmann::json concealed = {{"crew", {{{"id", "picard"}, {"card", "picard"}, {"revealed", false}}}}};
  Game h = in_sights(concealed);
  h.play(fire(2, R"(["bridge"])"));
  EXPECT_TRUE(h.disk("picard").in_play) << "only revealed bridge crew";
}

TEST(Criticals, UserDefinedCriticalEffectsApply) {
  GameData data = sample_data();
  data.crit_types[1].effects = {{CritEffectType::shields_down, "", 0}};
  data.crit_types[2].effects = {{CritEffectType::full_stop, "", 0}, {CritEffectType::max_speed_penalty, "", 2}};
  Game g = in_sights({{"speed", 2}}, data);
  g.play(fire(2, R"(["crit-2"])"));
  EXPECT_EQ(g.ship("tderet").shields, 0);
  Game h = in_sights({{"speed", 2}}, data);
  h.play(fire(2, R"(["crit-3"])"));
  EXPECT_EQ(h.ship("tderet").speed, 0);
  EXPECT_EQ(h.ship("tderet").max_speed_penalty, 2);
}

// "A ship can only sustain two of the same type of critical hit before being destroyed."
// "After taking a critical of any type, mark the control panel with your own set of counters to keep
// track of the criticals your ship has suffered and the effects they generate."
// "As soon as a ship takes a second Crit of the same type, it is destroyed."
TEST(Criticals, ASecondCriticalOfTheSameTypeDestroys) {
  Game g = in_sights({});
  g.play(fire(1, R"(["crit-2"])"));
  EXPECT_EQ(g.ship("tderet").crits.at("crit-2"), 1) << "marked on the control panel";
  // A ship already marked with a crit-2 counter: a different type does not destroy it ...
  Game other = in_sights({{"crits", {{"crit-2", 1}}}});
  other.play(fire(1, R"(["crit-3"])"));
  EXPECT_FALSE(other.ship("tderet").destroyed);
  EXPECT_EQ(other.ship("tderet").crits.size(), 2u);
  // ... the same type does.
  Game same = in_sights({{"crits", {{"crit-2", 1}}}});
  auto events = same.play(fire(1, R"(["crit-2"])"));
  EXPECT_TRUE(same.ship("tderet").destroyed);
  EXPECT_NE(texts_of<event::Destroyed>(events).front().find("second"), std::string::npos);
}

}  // namespace
}  // namespace diskref::rules::testing
