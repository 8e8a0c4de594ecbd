// Step One (reveal/conceal) and Step Three's "Activating Crew/Tech": ready and activated disks,
// continuous, flip and Activate-order abilities, crew orders in rows
// (docs/rules/step3-execute-orders.txt).

#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

nlohmann::json disk(const std::string& id, const std::string& card, bool revealed = true, bool ready = true) {
  return {{"id", id}, {"card", card}, {"revealed", revealed}, {"ready", ready}};
}

// face_to_face with these crew and tech aboard the enterprise (La Forge is added).
Game facing(double gap, const nlohmann::json& crew, const nlohmann::json& tech, const std::vector<std::string>& orders,
            nlohmann::json enterprise_extra = nlohmann::json::object(),
            const nlohmann::json& tderet_extra = nlohmann::json::object()) {
  if (!enterprise_extra.is_object()) enterprise_extra = nlohmann::json::object();
  // A braced list of one disk arrives as that disk (nlohmann's initializer-list rule).
  auto as_list = [](const nlohmann::json& j) {
    return j.is_array() ? j : j.is_object() ? nlohmann::json::array({j}) : nlohmann::json::array();
  };
  enterprise_extra["crew"] = as_list(crew);
  enterprise_extra["tech"] = as_list(tech);
  return face_to_face(gap, enterprise_extra, tderet_extra, orders);
}

std::string execute(const std::string& rest) {
  return R"({"do": "execute", "player": "diana", "ship": "enterprise", )" + rest + "}";
}

// "As we’ve already explained, crew & tech disks can be either revealed or concealed."
// (Step One: each player reveals or conceals his disks; only revealed crew count and act.)
TEST(Activation, StepOneRevealsAndConcealsDisks) {
  nlohmann::json setup = duel_setup(100, 100, 0, 800, 800, 180, 1,
                                    {{"crew", {disk("laforge", "la_forge", false), disk("barclay", "barclay", true)}},
                                     {"tech", {disk("pulse", "pulse_phasers", false)}}});
  Game g(setup);
  g.refused(R"({"do": "reveal", "player": "owen", "reveal": ["laforge"]})", RefusalKind::not_yours);
  g.refused(R"({"do": "reveal", "player": "diana", "reveal": ["nobody"]})", RefusalKind::unknown_name);
  g.play(R"({"do": "reveal", "player": "diana", "reveal": ["laforge", "pulse"], "conceal": ["barclay"]})");
  EXPECT_TRUE(g.disk("laforge").revealed);
  EXPECT_TRUE(g.disk("pulse").revealed);
  EXPECT_FALSE(g.disk("barclay").revealed);
  g.refused(R"({"do": "reveal", "player": "diana", "reveal": ["barclay"]})", RefusalKind::already_done);
  g.play(R"({"do": "reveal", "player": "owen"})");
  EXPECT_EQ(g.state().step, Step::orders);
}

// "Revealed disks can also be “ready” or “activated.”"
// "If a crew or tech disk is face up, capable of performing its special ability or issuing an order,
// it’s “ready.”"
// "A crew or tech disk that’s been flipped over, for any reason, has been “activated.”"
// "Activated disks can’t use abilities, issue orders, be transported, or be used in any other way
// until readied again."
TEST(Activation, ActivatedDisksCannotIssueOrdersOrBeUsed) {
  Game g = facing(30, {disk("picard", "picard", true, false)}, {}, {"activate", "raise_shields", "change_speed"});
  EXPECT_TRUE(g.disk("picard").revealed);
  EXPECT_FALSE(g.disk("picard").ready);
  std::string reason =
      g.refused(execute(R"("order": "activate", "disk": "picard", "row": 2)"), RefusalKind::disk_not_ready);
  EXPECT_NE(reason.find("activated"), std::string::npos);
  g.play(execute(R"("order": "activate", "disk": "laforge", "row": 2)"));
  EXPECT_FALSE(g.disk("laforge").ready) << "flipped over: activated";
}

// "One of the most versatile orders in the game, Activate Crew/Tech allows you to use crew and tech
// disks to perform special abilities and carry out multiple orders."
// "Some crew have order icons on their disk."
// "In this case, the crew may be flipped to execute those orders."
// "These are the same five orders your ship can execute, and they work exactly the same way."
TEST(Activation, CrewOrdersWorkExactlyLikePanelOrders) {
  Game g = facing(30, {disk("picard", "picard")}, {}, {"activate", "raise_shields", "change_speed"});
  g.play(execute(R"("order": "activate", "disk": "picard", "row": 0)"));  // Attack and Activate, paired
  EXPECT_FALSE(g.disk("picard").ready);
  // The crew's Attack is a real attack: range, drops and damage as from the panel.
  g.refused(execute(R"("order": "attack", "attack": "beam", "target": "tderet")"), RefusalKind::missing_drop);
  g.play(execute(R"("order": "attack", "attack": "beam", "target": "tderet", "drops": [{"hits": 2}, {"crits": []}])"));
  EXPECT_EQ(g.ship("tderet").shields, 5);
  // ... and its Activate activates another crew.
  g.play(execute(R"("order": "activate", "disk": "laforge", "row": 0)"));
  g.play(execute(R"("order": "raise_shields", "value": 6)"));
  EXPECT_EQ(g.ship("enterprise").shields, 6);
}

// "Many disks have more than one order."
// "Unless the orders are paired together in the same row, you must choose only one of the listed
// orders when you activate the crew."
// "Lt. Cdr. La Forge has the Raise Shields, Change Speed, and Change Heading orders listed on his disk."
// "With an Activate Crew order, Diana could flip La Forge to carry out any one—but only one—of these."
TEST(Activation, LaForgeCarriesOutOneOfHisThreeOrders) {
  const auto& rows = sample_data().disk("la_forge")->order_rows;
  ASSERT_EQ(rows.size(), 3u);
  for (const auto& row : rows) EXPECT_EQ(row.size(), 1u);
  Game g = facing(300, {}, {}, {"activate", "raise_shields", "change_speed"}, {{"speed", 2}});
  g.refused(execute(R"("order": "activate", "disk": "laforge")"), RefusalKind::choice_needed);
  g.play(execute(R"("order": "activate", "disk": "laforge", "row": 1)"));
  g.play(execute(R"("order": "change_speed", "speed": 3)"));
  g.refused(execute(R"("order": "raise_shields", "value": 3)"), RefusalKind::order_not_available);
  g.refused(execute(R"("order": "change_heading", "heading": 90)"), RefusalKind::order_not_available);
  EXPECT_EQ(g.ship("enterprise").speed, 3);
}

// "Some crew disks have one or more sets of orders paired together in rows."
// "This means you may flip and activate this disk to perform both orders in a pair in one Order phase."
// "Orders generated by crew can occur in any order, before or after movement, just like those
// prompted by normal Order counters."
// "If your crew disk has two order icons in a row, they can occur in any order, before or after movement."
// "The key thing to remember when combining crew orders and ship movement is that each order can be
// carried out before or after movement."
TEST(Activation, PairedRowOrdersInAnyOrderAroundMovement) {
  for (bool speed_first : {true, false}) {
    Game g = facing(300, {disk("picard", "picard")}, {}, {"activate", "attack", "change_heading"}, {{"speed", 1}});
    g.play(execute(R"("order": "activate", "disk": "picard", "row": 1)"));
    const std::string speed = execute(R"("order": "change_speed", "speed": 2)");
    const std::string shields = execute(R"("order": "raise_shields", "value": 4)");
    g.play(speed_first ? speed : shields);
    g.play(R"({"do": "move", "player": "diana", "ship": "enterprise"})");
    g.play(speed_first ? shields : speed);
    EXPECT_EQ(g.ship("enterprise").shields, 4);
    EXPECT_EQ(g.ship("enterprise").speed, 2);
    EXPECT_NEAR(g.ship("enterprise").pose.position.x, 300 + (speed_first ? 2 : 1) * kFlip, 1e-6);
  }
}

// "Many abilities produce their effects continuously throughout the game."
// "The Federation’s Advanced Transporter tech reads: “+1 transporter range.”"
// "This increase in range is continuous: the disk produces its effect throughout the entire game
// (unless destroyed), without requiring activation."
TEST(Activation, AdvancedTransporterAddsOneRangeContinuously) {
  EXPECT_EQ(sample_data().disk("advanced_transporter")->text, "+1 transporter range.");
  const std::string transport =
      execute(R"("order": "attack", "attack": "transport", "target": "tderet", "crew": ["at"])");
  nlohmann::json crew = nlohmann::json::array({disk("at", "away_team")});
  // Beyond one template, within two: only with the Advanced Transporter.
  Game with = facing(kTemplateReach + 20, crew, {disk("adv", "advanced_transporter")},
                     {"attack", "raise_shields", "change_speed"}, {{"shields", 0}}, {{"shields", 0}});
  with.play(transport);
  EXPECT_EQ(with.disk("at").location, "tderet");
  EXPECT_TRUE(with.disk("adv").ready) << "no activation needed";
  Game without = facing(kTemplateReach + 20, crew, {}, {"attack", "raise_shields", "change_speed"}, {{"shields", 0}},
                        {{"shields", 0}});
  without.refused(transport, RefusalKind::out_of_range);
  // The bonus is for transporting only: the beam's range is unchanged.
  Game beam = facing(kTemplateReach + 20, crew, {disk("adv", "advanced_transporter")},
                     {"attack", "raise_shields", "change_speed"});
  beam.refused(execute(R"("order": "attack", "attack": "beam", "target": "tderet", "drops": [{"hits": 1}])"),
               RefusalKind::out_of_range);
}

// "Special abilities generally affect the ship with the crew or tech disk onboard."
// "Crew and tech disks that have been activated—for any reason—generally cease to produce their
// special ability effects."
// "This is true of all disks, including those that don’t need to be flipped to perform their abilities."
TEST(Activation, ActivatedOrConcealedContinuousDisksHaveNoEffect) {
  const std::string transport =
      execute(R"("order": "attack", "attack": "transport", "target": "tderet", "crew": ["at"])");
  nlohmann::json crew = nlohmann::json::array({disk("at", "away_team")});
  for (auto adv :
       {disk("adv", "advanced_transporter", true, false), disk("adv", "advanced_transporter", false, true)}) {
    Game g = facing(kTemplateReach + 20, crew, {adv}, {"attack", "raise_shields", "change_speed"}, {{"shields", 0}},
                    {{"shields", 0}});
    g.refused(transport, RefusalKind::out_of_range);
  }
  // On the other ship it does nothing for this one.
  Game other = facing(kTemplateReach + 20, crew, {}, {"attack", "raise_shields", "change_speed"}, {{"shields", 0}},
                      {{"shields", 0}, {"tech", {disk("adv", "advanced_transporter")}}});
  other.refused(transport, RefusalKind::out_of_range);
}

// "Some disks have special abilities followed by the word “flip.”"
// "These disks can use their abilities at any point in the game, but they must be flipped after use."
// "The Federation’s Pulse Phasers disk reads: “If you score 3 hits from Beam Weapon, you may
// immediately fire again, flip.”"
// "The player with this tech can, if he scores three hits from his beam weapons, immediately fire
// again, but he must then flip this disk to its “activated” side (no order required)."
// "As a result, he cannot continue to fire again even if his next shot scores three hits."
// "The ability cannot be used again until the activated disk is readied."
TEST(Activation, PulsePhasersFireAgainOnceAfterThreeHitsAndFlip) {
  EXPECT_EQ(sample_data().disk("pulse_phasers")->text,
            "If you score 3 hits from Beam Weapon, you may immediately fire again, flip.");
  const std::string beam = R"("order": "attack", "attack": "beam", "target": "tderet", "refire": true, "drops": )";
  Game g = facing(30, {}, {disk("pulse", "pulse_phasers")}, {"attack", "raise_shields", "change_speed"});
  auto events = g.play(execute(beam + R"([{"hits": 3}, {"crits": []}, {"hits": 3}, {"crits": []}])"));
  EXPECT_EQ(of_type<event::BeamFired>(events).size(), 2u) << "fired again, once";
  EXPECT_FALSE(g.disk("pulse").ready) << "flipped to its activated side";
  EXPECT_EQ(g.ship("tderet").shields, 1);
  EXPECT_TRUE(g.ship("enterprise").pending.empty()) << "no order required for the second shot";
  // Two hits: no second shot.
  Game h = facing(30, {}, {disk("pulse", "pulse_phasers")}, {"attack", "raise_shields", "change_speed"});
  auto fewer = h.play(execute(beam + R"([{"hits": 2}, {"crits": []}])"));
  EXPECT_EQ(of_type<event::BeamFired>(fewer).size(), 1u);
  EXPECT_TRUE(h.disk("pulse").ready);
  // Already activated: no second shot.
  Game a = facing(30, {}, {disk("pulse", "pulse_phasers", true, false)}, {"attack", "raise_shields", "change_speed"});
  auto spent = a.play(execute(beam + R"([{"hits": 3}, {"crits": []}])"));
  EXPECT_EQ(of_type<event::BeamFired>(spent).size(), 1u);
}

// "Finally, some disks require the Activate Crew/Tech order to use."
// "These disks have the Activate Crew/Tech order icon at the beginning of their text."
// "When activating such a disk, you must flip it."
// "Lt. Barclay’s special ability reads: “: Ready a Tech.”"
// "If the player controlling him issues an Activate Crew/Tech order, either from his control panel or
// from another Crew, he may flip Barclay and ready any tech on the same ship."
TEST(Activation, BarclayReadiesATechFromThePanelOrAnotherCrew) {
  EXPECT_EQ(sample_data().disk("barclay")->text, ": Ready a Tech.");
  EXPECT_NE(sample_data().disk("barclay")->ability(AbilityType::ready_a_tech), nullptr);
  nlohmann::json tech = nlohmann::json::array({disk("pulse", "pulse_phasers", true, false)});
  {  // From the control panel.
    Game g = facing(30, {disk("barclay", "barclay")}, tech, {"activate", "raise_shields", "change_speed"});
    g.refused(execute(R"("order": "activate", "disk": "barclay")"), RefusalKind::choice_needed);
    g.refused(execute(R"("order": "activate", "disk": "barclay", "ready": "laforge")"), RefusalKind::bad_choice);
    g.play(execute(R"("order": "activate", "disk": "barclay", "ready": "pulse")"));
    EXPECT_FALSE(g.disk("barclay").ready) << "flipped";
    EXPECT_TRUE(g.disk("pulse").ready);
  }
  {  // From another crew: Picard's Attack + Activate row.
    Game g = facing(30, {disk("barclay", "barclay"), disk("picard", "picard")}, tech,
                    {"activate", "raise_shields", "change_speed"});
    g.play(execute(R"("order": "activate", "disk": "picard", "row": 0)"));
    g.play(execute(R"("order": "activate", "disk": "barclay", "ready": "pulse")"));
    EXPECT_TRUE(g.disk("pulse").ready);
    EXPECT_FALSE(g.disk("barclay").ready);
  }
  {  // Only tech on the same ship.
    Game g = facing(30, {disk("barclay", "barclay")}, {}, {"activate", "raise_shields", "change_speed"}, {},
                    {{"tech", tech}});
    g.refused(execute(R"("order": "activate", "disk": "barclay", "ready": "pulse")"), RefusalKind::bad_choice);
  }
}

}  // namespace
}  // namespace diskref::rules::testing
