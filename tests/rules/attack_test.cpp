// Step Three: the Attack order -- beam weapons, torpedo launch, transporting crew -- and damage
// (docs/rules/step3-execute-orders.txt, "Attacking and Damage").

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/range.h"
#include "engine/rules/table_geometry.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

Game facing(double gap, nlohmann::json enterprise_extra = nlohmann::json::object(),
            nlohmann::json tderet_extra = nlohmann::json::object()) {
  return face_to_face(gap, std::move(enterprise_extra), tderet_extra);
}

const std::string kBeam =
    R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam", "target": "tderet")";

// "When a ship executes an Attack order, it may do one of three things: fire its beam weapon, launch
// a photon torpedo, or transport any number of onboard crew to another ship."
TEST(Attack, BeamTorpedoOrTransport) {
  for (const char* attack : {"beam", "torpedo", "transport"}) {
    Game g = facing(30, {{"shields", 0}, {"crew", {{{"id", "sec"}, {"card", "security"}, {"revealed", true}}}}},
                    {{"shields", 0}});
    std::string a = R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": ")" +
                    std::string(attack) + "\"";
    if (std::string(attack) == "beam") a += R"(, "target": "tderet", "drops": [{"hits": 0}]})";
    if (std::string(attack) == "torpedo") a += R"(, "drops": [{"hits": 0}]})";  // strikes the tderet
    if (std::string(attack) == "transport") a += R"(, "target": "tderet", "crew": ["sec"]})";
    auto events = g.play(a);
    EXPECT_TRUE(has_event<event::OrderExecuted>(events)) << attack;
  }
}

// "To attack with beam weapons, there must be a target ship within range of your ship’s weapons."
// "A ship is in range if the range template can be placed between the ships such that it overlaps
// both ship disks."
TEST(Attack, BeamNeedsTheTargetInRangeOfTheTemplate) {
  Game near = facing(kTemplateReach - 0.3);
  auto events = near.play(kBeam + R"(, "drops": [{"hits": 0}]})");
  ASSERT_TRUE(has_event<event::InRange>(events));
  EXPECT_NEAR(of_type<event::InRange>(events).front().margin_mm, 0.3, 1e-6);
  // The verdict is the geometry engine's.
  const auto r =
      geom::range_check(placed(near.ship("enterprise")), placed(near.ship("tderet")), geom::Rect{88.9, 25.4});
  EXPECT_TRUE(r.in_range);

  Game far = facing(kTemplateReach + 0.3);
  std::string reason = far.refused(kBeam + R"(, "drops": [{"hits": 0}]})", RefusalKind::out_of_range);
  EXPECT_NE(reason.find("out of range"), std::string::npos);
  far.refused(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
                  "target": "enterprise"})",
              RefusalKind::bad_choice);
}

// "Your ship has a beam weapon rating describing how much damage it does."
// "Each weapon has a damage rating."
// "To determine damage, pick up a number of damage counters equal to that damage rating."
// "Shake the disks and drop them on the table."
// "You score one hit for each disk with the “HIT!” side face up."
// "Ignore the rest."
TEST(Attack, DamageIsTheHitsOfRatingManyCounters) {
  Game g = facing(30);
  g.refused(kBeam + R"(, "drops": [{"hits": 5}]})", RefusalKind::bad_drop);  // the rating is 4 counters
  g.refused(kBeam + "}", RefusalKind::missing_drop);
  // Which given drop is wrong, or the first one too many, is told (a referee names where it came from).
  ActionResult wrong = g.try_play(kBeam + R"(, "drops": [{"hits": 3}, {"crits": ["bridge", "bridge"]}]})");
  ASSERT_TRUE(wrong.refusal);
  EXPECT_EQ(wrong.refusal->kind, RefusalKind::bad_drop);
  EXPECT_EQ(wrong.refusal->drop, std::optional<std::size_t>(1)) << wrong.refusal->reason;
  ActionResult extra = g.try_play(kBeam + R"(, "drops": [{"hits": 3}, {"crits": []}, {"hits": 1}, {"hits": 2}]})");
  ASSERT_TRUE(extra.refusal);
  EXPECT_EQ(extra.refusal->kind, RefusalKind::unused_drops);
  EXPECT_EQ(extra.refusal->drop, std::optional<std::size_t>(2)) << extra.refusal->reason;
  EXPECT_FALSE(g.try_play(kBeam + "}").refusal->drop) << "a missing drop is none given";
  auto events = g.play(kBeam + R"(, "drops": [{"purpose": "damage", "subject": "tderet", "hits": 3}, {"crits": []}]})");
  const event::Drop drop = of_type<event::Drop>(events).front();
  EXPECT_EQ(drop.counters, 4);
  EXPECT_EQ(drop.hits, 3);
  EXPECT_EQ(drop.crits, 1) << "the fourth counter shows its back";
  EXPECT_FALSE(drop.crit_types) << "a damage drop's counters are not typed";
  EXPECT_EQ(g.ship("tderet").shields, 4) << "three hits, the other counter ignored";
}

TEST(Attack, TorpedoDamageIsItsRatingToo) {
  // A torpedo (damage 3 in the sample data) launched point-blank strikes on its first flip.
  Game g = facing(5);
  auto events = g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack",
                           "attack": "torpedo", "drops": [{"purpose": "damage", "hits": 2}, {"crits": []}]})");
  EXPECT_TRUE(has_event<event::TorpedoContact>(events));
  EXPECT_EQ(of_type<event::Drop>(events).front().counters, 3);
  EXPECT_EQ(g.ship("tderet").shields, 5);
}

// "The small depression along the front (not the back) of your ship disk is your torpedo bay."
// "When launching a torpedo, place the torpedo in the bay."
TEST(Attack, TheTorpedoStartsInTheBayAtTheFront) {
  Game g = facing(600);
  auto events =
      g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "torpedo"})");
  const event::TorpedoLaunched launch = of_type<event::TorpedoLaunched>(events).front();
  // Touching the middle of the front flat: centre 28.6 + 12.7 mm ahead of the ship's centre.
  EXPECT_NEAR(launch.x, 300 + kFlip / 2 + 12.7, 1e-9);
  EXPECT_NEAR(launch.y, 300, 1e-9);
  ASSERT_EQ(g.state().torpedoes.size(), 1u);
  // Its launch move: 4 flips (the cruiser's torpedo movement) of its 25.4 mm diameter, forwards.
  EXPECT_NEAR(g.state().torpedoes[0].pose.position.x, 300 + kFlip / 2 + 12.7 + 4 * 25.4, 1e-6);
}

// "To transport crew you must be within range of the target ship or terrain disk and your shields
// and the target’s shields must be at 0 (use the Raise Shields order to lower your shields)."
// "Use the range template to determine if you’re in range in the same manner as when firing beam weapons."
// "You may transport any number of ready crew (see “Ready & Activated,” below)."
TEST(Attack, TransportNeedsRangeAndBothShieldsDown) {
  nlohmann::json team = {{"crew",
                          {{{"id", "at1"}, {"card", "away_team"}, {"revealed", true}},
                           {{"id", "at2"}, {"card", "away_team"}, {"revealed", true}},
                           {{"id", "at3"}, {"card", "away_team"}, {"revealed", true}, {"ready", false}},
                           {{"id", "at4"}, {"card", "away_team"}, {"revealed", false}}}}};
  const std::string transport = R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack",
                                    "attack": "transport", "target": "tderet", "crew": )";
  {
    Game g = facing(30, team);  // both shields up
    g.refused(transport + R"(["at1"]})", RefusalKind::shields_up);
  }
  {
    nlohmann::json down = team;
    down["shields"] = 0;
    Game g = facing(30, down);  // the tderet's shields are still up
    g.refused(transport + R"(["at1"]})", RefusalKind::shields_up);
  }
  nlohmann::json down = team;
  down["shields"] = 0;
  {
    Game g = facing(kTemplateReach + 1, down, {{"shields", 0}});
    g.refused(transport + R"(["at1"]})", RefusalKind::out_of_range);
  }
  Game g = facing(30, down, {{"shields", 0}});
  g.refused(transport + R"(["at3"]})", RefusalKind::disk_not_ready);  // activated
  g.refused(transport + R"(["at4"]})", RefusalKind::disk_not_ready);  // concealed
  g.play(transport + R"(["at1", "at2", "laforge"]})");
  EXPECT_EQ(g.disk("at1").location, "tderet");
  EXPECT_EQ(g.disk("at2").location, "tderet");
  EXPECT_EQ(g.disk("laforge").location, "tderet");
  EXPECT_EQ(g.disk("at3").location, "enterprise");
}

TEST(Attack, TransportToATerrainDisk) {
  nlohmann::json setup = duel_setup(
      300, 300, 0, 800, 800, 180, 0,
      {{"shields", 0}, {"crew", {la_forge_disk(), {{"id", "at1"}, {"card", "away_team"}, {"revealed", true}}}}});
  setup["terrain"] = {{{"id", "vulcan"},
                       {"kind", "planet"},
                       {"pose", pose(420, 300, 0)},
                       {"shape", {{"type", "circle"}, {"diameter_mm", 100}}}}};
  Game g(setup);
  g.start_duel({"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"});
  g.play(R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "transport",
             "target": "vulcan", "crew": ["at1"]})");
  EXPECT_EQ(g.disk("at1").location, "vulcan");
}

// "Hits damage shields first, with residual points damaging the hull."
// "A ship only suffers hull damage once its shields falls to zero."
// "If your hull reaches 0, your ship is immediately destroyed."
TEST(Damage, ShieldsFirstThenHullAndHullZeroDestroys) {
  {
    Game g = facing(30, {}, {{"shields", 3}});
    g.play(kBeam + R"(, "drops": [{"hits": 2}, {"crits": []}]})");
    EXPECT_EQ(g.ship("tderet").shields, 1);
    EXPECT_EQ(g.ship("tderet").hull, 7) << "no hull damage while shields remain";
  }
  {
    Game g = facing(30, {}, {{"shields", 3}});
    g.play(kBeam + R"(, "drops": [{"hits": 4}, {"crits": []}]})");
    EXPECT_EQ(g.ship("tderet").shields, 0);
    EXPECT_EQ(g.ship("tderet").hull, 6);
  }
  {
    Game g = facing(30, {}, {{"shields", 0}, {"hull", 3}});
    auto events = g.play(kBeam + R"(, "drops": [{"hits": 3}]})");
    EXPECT_TRUE(g.ship("tderet").destroyed);
    for (const event::Drop& drop : of_type<event::Drop>(events))
      EXPECT_NE(drop.purpose, DropPurpose::critical) << "destroyed at once: no critical check";
    EXPECT_EQ(of_type<event::Drop>(events).size(), 1u);
    EXPECT_EQ(g.state().winner, "diana");
  }
}

// "Had Owen’s current shields been at 1, he would have applied the first point of damage to his
// shields, removing his shield status counter to show “Shields Down.”"
// "Then he would have applied the second point of damage to his hull."
TEST(Damage, TheTextsShieldsAtOneCase) {
  Game g = facing(30, {}, {{"shields", 1}});
  auto events = g.play(kBeam + R"(, "drops": [{"hits": 2}, {"crits": []}]})");
  EXPECT_EQ(g.ship("tderet").shields, 0);
  EXPECT_EQ(g.ship("tderet").hull, 6);
  const event::Damage damage = of_type<event::Damage>(events).front();
  EXPECT_EQ(damage.to_shields, 1);
  EXPECT_EQ(damage.to_hull, 1);
}

}  // namespace
}  // namespace diskref::rules::testing
