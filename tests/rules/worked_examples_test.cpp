// The worked examples of the rules pages, played from the scripts in data/scripts/ with the drops
// the text gives, and checked against the outcomes the text states.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/distance.h"
#include "engine/rules/script.h"
#include "engine/rules/state_check.h"
#include "engine/rules/table_geometry.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

Script load(const std::string& name) {
  return load_script(std::string(DISKREF_SOURCE_DIR) + "/data/scripts/" + name);
}

void check_invariants(const GameState& state, const GameData& data) {
  for (const std::string& problem : state_problems(state, data)) ADD_FAILURE() << problem;
}

// The state after the first `count` actions, and the events of the last of them.
struct Prefix {
  GameState state;
  std::vector<Event> events;
};
Prefix after(const Script& script, std::size_t count) {
  Script part = script;
  part.actions.resize(count);
  PlayResult r = run_script(part, check_invariants);
  EXPECT_EQ(r.refused, 0) << (r.refused ? r.log.back().refusal->reason : "");
  return {r.final_state, r.log.empty() ? std::vector<Event>{} : r.log.back().events};
}

const ShipState& ship_in(const GameState& s, const std::string& id) {
  for (const ShipState& ship : s.ships)
    if (ship.id == id) return ship;
  throw std::runtime_error(id);
}

// Step Three's example, "Determining Command Initiative":
// "Diana has revealed Lt. Cdr. La Forge, command value 4."
// "Owen didn’t buy any crew, and has an effective command of 0."
// "Diana has the first option to act, and decides to defer to Owen, waiting to see what he’ll do."
// "Owen must now reveal his first order and execute it."
TEST(WorkedExamples, DuelInitiativeAndDeferring) {
  Script s = load("diana_owen_duel.json");
  Prefix p = after(s, 5);  // reveal, orders, initiative
  EXPECT_EQ(p.state.phase.to_act, (std::vector<std::string>{"enterprise", "tderet"}));
  const event::Initiative initiative = of_type<event::Initiative>(p.events).front();
  EXPECT_EQ(initiative.order[0].command, 4);
  EXPECT_EQ(initiative.order[1].command, 0);
  Prefix deferred = after(s, 6);
  EXPECT_EQ(deferred.state.phase.option, 1) << "the option is Owen's";
  // Owen is last to go now: he cannot defer back.
  Action defer{"owen", Defer{}, {}};
  ActionResult r = apply_action(deferred.state, s.data, defer);
  ASSERT_FALSE(r.applied());
  EXPECT_EQ(r.refusal->kind, RefusalKind::cannot_defer);
}

// Step Three's example, "Movement":
// "Owen’s going first."
// "He decides to move before revealing his Change Heading order."
// "His speed is 3, so he flips his ship three times, then reveals and executes the order by rotating
// his ship so he’s facing Diana."
// "Now Diana goes."
// "She reveals and executes her Change Heading order first and points her ship in Owen’s direction."
// "She flips her ship three times, ending about 8 inches away from the T’deret."
TEST(WorkedExamples, DuelMovement) {
  Script s = load("diana_owen_duel.json");
  Prefix owen_moved = after(s, 7);
  EXPECT_NEAR(ship_in(owen_moved.state, "tderet").pose.position.y, 700 - 3 * kFlip, 1e-6) << "three flips";
  EXPECT_FALSE(ship_in(owen_moved.state, "tderet").orders[0].revealed) << "moved before revealing";
  Prefix owen_turned = after(s, 8);
  const ShipState& t = ship_in(owen_turned.state, "tderet");
  const ShipState& e = ship_in(owen_turned.state, "enterprise");
  double to_diana =
      geom::rad_to_deg(std::atan2(e.pose.position.y - t.pose.position.y, e.pose.position.x - t.pose.position.x));
  EXPECT_NEAR(geom::angle_difference_deg(t.pose.heading_deg(), to_diana), 0, 1e-9) << "facing Diana";
  Prefix diana_moved = after(s, 10);
  double gap = geom::signed_distance(placed(ship_in(diana_moved.state, "enterprise")),
                                     placed(ship_in(diana_moved.state, "tderet")))
                   .distance;
  EXPECT_NEAR(gap, 8 * 25.4, 25.4) << "about 8 inches away";
  EXPECT_EQ(diana_moved.state.phase.number, 2);
}

// Step Three's example, "Attacking and Damage" and "Critical Hits":
// "Moving into the second Order phase, Diana still holds the highest command and may act first or defer."
// "She’s got the T’deret in her sights, so she decides to go first."
// "Diana’s current speed is 3, so she flips her ship 3 times, moving in a straight line."
// "She then reveals her Attack order and uses her range template to determine that she’s in range."
// "She fires!"
// "Her Beam Weapon rating is 4."
// "She picks up 4 damage counters and drops them on the table: 2 of them land with “HIT” face up."
// "She’s scored 2 hits to the T’deret!"
// "Owen’s ship has current Shields of 7 and a Hull of 7."
// "Diana’s two hits inflict two points of damage to Owen’s ship."
// "Owen applies the damage to his shields, rotating his shield status counter so it reads “5.”"
// "Diana has inflicted two hits on Owen’s ship."
// "She picks up five damage counters, each with a different critical on the back, shakes them, and
// drops them on the table."
// "Diana drops her critical counters."
// "Only one of them shows a critical (a “bridge crit”), the rest show ordinary hits."
// "Owen doesn’t have any bridge crew, so he doesn’t suffer from this effect."
// "Owen didn’t lose any crew, but he did take the critical to his bridge."
// "He takes one of his bridge crit counters and places it on his control panel."
TEST(WorkedExamples, DuelBeamAttackAndBridgeCrit) {
  Script s = load("diana_owen_duel.json");
  Prefix before = after(s, 11);
  EXPECT_EQ(before.state.phase.to_act.front(), "enterprise") << "Diana still holds the highest command";
  EXPECT_EQ(ship_in(before.state, "tderet").shields, 7);
  EXPECT_EQ(ship_in(before.state, "tderet").hull, 7);
  Prefix moved = after(s, 12);
  EXPECT_NEAR(geom::distance(geom::Vec2{ship_in(before.state, "enterprise").pose.position.x,
                                        ship_in(before.state, "enterprise").pose.position.y},
                             geom::Vec2{ship_in(moved.state, "enterprise").pose.position.x,
                                        ship_in(moved.state, "enterprise").pose.position.y}),
              3 * kFlip, 1e-6);
  Prefix fired = after(s, 13);
  ASSERT_TRUE(has_event<event::InRange>(fired.events));
  auto drops = of_type<event::Drop>(fired.events);
  ASSERT_EQ(drops.size(), 2u);
  EXPECT_EQ(drops[0].counters, 4);
  EXPECT_EQ(drops[0].hits, 2);
  EXPECT_EQ(drops[1].counters, 5);
  EXPECT_EQ(drops[1].crit_types, std::vector<std::string>{"bridge"});
  const ShipState& t = ship_in(fired.state, "tderet");
  EXPECT_EQ(t.shields, 5);
  EXPECT_EQ(t.hull, 7);
  EXPECT_EQ(t.crits.at("bridge"), 1);
  EXPECT_FALSE(t.destroyed);
  ASSERT_TRUE(has_event<event::CrewRemoved>(fired.events));
  EXPECT_TRUE(of_type<event::CrewRemoved>(fired.events).front().crew.empty());
}

// "If he takes another bridge crit this game, his ship is destroyed and Diana wins."
TEST(WorkedExamples, DuelSecondBridgeCritDestroysAndDianaWins) {
  Script s = load("diana_owen_duel.json");
  PlayResult r = run_script(s, check_invariants);
  EXPECT_EQ(r.refused, 0);
  const ShipState& t = ship_in(r.final_state, "tderet");
  EXPECT_TRUE(t.destroyed);
  EXPECT_EQ(t.crits.at("bridge"), 2);
  EXPECT_EQ(r.final_state.step, Step::game_over);
  EXPECT_EQ(r.final_state.winner, "federation");
  EXPECT_EQ(r.final_state.turn, 2);
}

// Step Three's example, "Using Crew to Execute Orders":
// "Charles reveals an Activate Crew/Tech order."
// "He’s got Cpt. Picard on his ship, and decides to use him."
// "Picard has three order options: Attack and Activate Crew/Tech (paired together), Raise Shields and
// Change Speed (again, paired), and Change Heading (alone)."
// "Charles decides to use the middle row of icons: Raise Shields and Change Speed."
// "Charles activates Picard, and may now move, Raise Shields, and Change Speed in any sequence desired."
TEST(WorkedExamples, CharlesUsesPicardsPairedRow) {
  Script s = load("charles_picard.json");
  const DiskCard& picard = *s.data.disk("picard");
  ASSERT_EQ(picard.order_rows.size(), 3u);
  EXPECT_EQ(picard.order_rows[0], (std::vector<OrderKind>{OrderKind::attack, OrderKind::activate}));
  EXPECT_EQ(picard.order_rows[1], (std::vector<OrderKind>{OrderKind::raise_shields, OrderKind::change_speed}));
  EXPECT_EQ(picard.order_rows[2], (std::vector<OrderKind>{OrderKind::change_heading}));
  PlayResult r = run_script(s, check_invariants);
  ASSERT_EQ(r.refused, 1) << "the Attack from Picard's first row";
  EXPECT_EQ(r.log[6].refusal->kind, RefusalKind::order_not_available);
  const ShipState& ship = ship_in(r.final_state, "stargazer");
  EXPECT_EQ(ship.shields, 7);
  EXPECT_EQ(ship.speed, 3);
  EXPECT_NEAR(ship.pose.position.x, 200 + 2 * kFlip * std::cos(geom::deg_to_rad(45)), 1e-6)
      << "moved at the old speed, 2";
  for (const CrewTechDisk& d : r.final_state.disks)
    if (d.id == "picard") {
      EXPECT_FALSE(d.ready) << "Picard was flipped";
    }
  // The phase is over for the Stargazer: both orders of the row and the move are done.
  EXPECT_EQ(r.final_state.phase.number, 2);
}

// Step 4's example:
// "Christian and Julie are teammates, and have both beamed crew aboard Matt’s ship."
// "Christian’s crew has combat value total of 2, Julie’s has a total of 5."
// "They drop their damage disks, with Christian scoring 2 hits and Julie scoring 1."
// "They have a combined total of 3 hits for their team."
// "Matt’s total crew combat Value is 3."
// "He drops 3 damage counters and scores 2 hits."
// "Julie and Christian have a higher total, so Matt eliminates one of his crew."
TEST(WorkedExamples, ChristianJulieAndMattsBoarding) {
  Script s = load("boarding_christian_julie_matt.json");
  std::size_t first_segment = 0;
  while (first_segment < s.actions.size() && !std::holds_alternative<BoardingSegment>(s.actions[first_segment].body))
    ++first_segment;
  ASSERT_LT(first_segment, s.actions.size());
  Prefix before = after(s, first_segment);
  ASSERT_EQ(before.state.step, Step::boarding);
  ASSERT_EQ(before.state.boarding.size(), 1u);
  EXPECT_EQ(before.state.boarding[0].ship, "ship-m");
  Prefix first = after(s, first_segment + 1);
  auto drops = of_type<event::BoardingDrop>(first.events);
  ASSERT_EQ(drops.size(), 3u);
  EXPECT_EQ(drops[0].player, "christian");
  EXPECT_EQ(drops[0].combat, 2);
  EXPECT_EQ(drops[0].hits, 2);
  EXPECT_EQ(drops[1].combat, 5);
  EXPECT_EQ(drops[1].hits, 1);
  EXPECT_EQ(drops[2].combat, 3);
  EXPECT_EQ(drops[2].hits, 2);
  const event::BoardingSegment segment = of_type<event::BoardingSegment>(first.events).front();
  EXPECT_EQ(segment.team_hits.at("federation"), 3);
  EXPECT_EQ(segment.team_hits.at("klingons"), 2);
  EXPECT_EQ(segment.losing_teams, std::vector<std::string>{"klingons"});
  EXPECT_EQ(of_type<event::CrewKilled>(first.events).size(), 1u);
  EXPECT_EQ(of_type<event::CrewKilled>(first.events).front().crew, "m-sec1") << "Matt's choice";
  // The script plays on: Matt loses his last crew and Julie (command 2) takes his ship.
  PlayResult r = run_script(s, check_invariants);
  EXPECT_EQ(r.refused, 0);
  EXPECT_EQ(ship_in(r.final_state, "ship-m").controller, "julie");
  EXPECT_EQ(r.final_state.winner, "federation");
}

}  // namespace
}  // namespace diskref::rules::testing
