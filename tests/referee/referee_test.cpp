// The referee on tables whose truth the test knows (fake_table.h): moves read from the table with
// their flips, drift and verdicts; warnings for a move off its path and a disk moved out of turn;
// inputs applied when due; actions that wait for drops, a decision or a placement; corrections;
// bad input. Spec §9.
#include "referee/referee.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "engine/rules/script.h"
#include "engine/rules/state_json.h"
#include "tests/referee/fake_table.h"
#include "tests/referee/referee_game.h"

namespace diskref::referee {
namespace {

using testing::FakeTable;
using testing::kShipFlip;
using testing::kTorpedoFlip;

using testing::duel;
using testing::duel_table;
using testing::Game;
using testing::input;
using testing::pose;

TEST(Referee, TheGameStartsWhereTheTableHasTheDisks) {
  FakeTable t;
  t.place("enterprise", 212, 300, 0);  // 12 mm from the file's pose
  t.place("tderet", 700, 600, 180);
  t.still(1.0);
  Game g(duel());
  g.play(t);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 212, 1e-9) << "the table's pose, not the file's";
  ASSERT_EQ(g.warnings("start").size(), 1u);
  EXPECT_NEAR(g.warnings("start")[0]->warning.distance_mm, 12, 1e-6);
  ASSERT_FALSE(g.ref->log().empty());
  EXPECT_EQ(g.ref->log()[0].kind, Entry::Kind::setup);
}

TEST(Referee, AMoveIsReadFromTheTableWithItsFlipsAndDrift) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300.3, 0.2}, {314.7, 301.0, 0.3}});
  t.still(1.0);
  g.play(t);
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  ASSERT_TRUE(move->observed);
  EXPECT_EQ(move->observed->landings.size(), 2u);
  EXPECT_TRUE(move->observed->landings[0] && move->observed->landings[1]);
  ASSERT_EQ(move->observed->drift_mm.size(), 2u);
  EXPECT_NEAR(*move->observed->drift_mm[1],
              std::hypot(314.7 - (200.3 + 2 * kShipFlip), 301.0 - 299.8 - 2 * kShipFlip * std::sin(0.2 * M_PI / 180)),
              0.05);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 314.7, 1e-9) << "the books keep the pose on the table";
  EXPECT_TRUE(g.ship("enterprise").moved);
  EXPECT_TRUE(g.warnings("off_path").empty());
  EXPECT_TRUE(g.warnings("out_of_turn").empty());
  // Logged when the table settled after it.
  EXPECT_GT(move->t, t.frames()[0].t);
}

TEST(Referee, AMoveOffItsPathWarnsWithTheDistance) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 303.0, 0.2}, {314.7, 306.0, 0.2}});  // 6 mm to the left by the end
  t.still(1.0);
  g.play(t);
  auto w = g.warnings("off_path");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_NEAR(w[0]->warning.distance_mm, 6.0, 0.5);
  EXPECT_EQ(w[0]->warning.disk, "enterprise");
  EXPECT_NEAR(g.ship("enterprise").pose.position.y, 306.0, 1e-9) << "never silently corrected";
}

TEST(Referee, ADiskMovedOutOfTurnWarnsAndTheBooksTakeWhereItLies) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.set("tderet", 705, 603, 180);  // bumped while it is the enterprise's turn
  t.still(1.0);
  g.play(t);
  auto w = g.warnings("out_of_turn");
  ASSERT_EQ(w.size(), 1u);
  EXPECT_EQ(w[0]->warning.disk, "tderet");
  EXPECT_NEAR(w[0]->warning.distance_mm, std::hypot(5, 3), 0.05);
  EXPECT_NEAR(g.ship("tderet").pose.position.x, 705, 1e-9);
  EXPECT_FALSE(g.ship("tderet").moved) << "a bump is no move";
  // As a person reads it (diskref referee --story, the screen's log).
  EXPECT_EQ(entry_text(*w[0]).rfind("WARNING out_of_turn: tderet moved 5.8 mm", 0), 0u) << entry_text(*w[0]);
}

TEST(Referee, ADiskTheGameLacksIsSaidOnceAndNeverRefereed) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.place("reliant", 400, 200, 90);  // in the registry, but no ship of this game
  t.still(1.0);
  t.set("reliant", 430, 200, 90);  // pushed about while it lies there
  t.still(1.0);
  g.play(t);
  auto w = g.warnings("not_in_game");
  ASSERT_EQ(w.size(), 1u) << "said once while it stays on the table";
  EXPECT_EQ(w[0]->warning.disk, "reliant");
  EXPECT_NE(entry_text(*w[0]).find("reliant is on the table but is no part of this game"), std::string::npos)
      << entry_text(*w[0]);
  EXPECT_TRUE(g.warnings("out_of_turn").empty()) << "a stranger's motion is no one's move";
  EXPECT_EQ(g.last_action("move"), nullptr);
  EXPECT_EQ(g.last_action("displaced"), nullptr);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 200.3, 1e-9) << "the books are untouched";
  // Taken off and put back: said again.
  t.remove("reliant");
  t.still(1.0);
  t.place("reliant", 400, 200, 90);
  t.still(1.0);
  g.play(t);
  EXPECT_EQ(g.warnings("not_in_game").size(), 2u);
}

TEST(Referee, AnInitiativeTieEnteredWaitsForItsDropsAndTheDropsDecideIt) {
  // Two ships alike (card, speed, no crew): their initiative is decided by drops.
  const nlohmann::json setup = testing::twins();
  FakeTable t;
  t.place("enterprise", 200, 300, 0);
  t.place("reliant", 700, 600, 180);
  t.still(1.0);
  Game g(setup, "tie");
  for (
      const char* line :
      {R"({"do": "reveal", "player": "diana"})", R"({"do": "reveal", "player": "owen"})",
       R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": ["change_speed", "raise_shields", "attack"]})",
       R"({"do": "orders", "player": "owen", "ship": "reliant", "orders": ["change_speed", "raise_shields", "attack"]})",
       R"({"do": "initiative"})"})
    g.give(input(0.5, line));
  g.play(t);
  ASSERT_EQ(g.ref->expecting().need, Expectation::Need::drops) << g.ref->expecting().what;
  ASSERT_TRUE(g.ref->expecting().drop.has_value());
  EXPECT_EQ(g.ref->expecting().drop->purpose, "initiative");
  EXPECT_EQ(g.ref->refused(), 0) << "waiting is no refusal";
  // The reliant's player drops more hits: the reliant acts first.
  const std::string first = g.ref->expecting().drop->subject;
  const std::string second = first == "enterprise" ? "reliant" : "enterprise";
  g.give(input(1.2, R"({"do": "drops", "drops": [{"purpose": "initiative", "subject": ")" + first +
                        R"(", "hits": 0}, {"purpose": "initiative", "subject": ")" + second + R"(", "hits": 2}]})"));
  t.still(0.5);
  g.play(t);
  EXPECT_EQ(g.ref->expecting().need, Expectation::Need::nothing) << g.ref->expecting().what;
  EXPECT_EQ(g.ref->refused(), 0);
  const Entry* initiative = g.last_action("initiative");
  ASSERT_NE(initiative, nullptr);
  ASSERT_FALSE(initiative->play.refusal) << initiative->play.refusal->reason;
  ASSERT_FALSE(g.ref->state().phase.to_act.empty());
  EXPECT_EQ(g.ref->state().phase.to_act.front(), second);
}

// Boarding, entered at the screen: the segment waits for its drops, then for each losing side's
// choice of the crew it loses; a choice that is none of the options changes nothing.
TEST(Referee, ABoardingSegmentWaitsForItsDropsThenForEachSidesLoss) {
  auto crew = [](const std::string& id, const std::string& card, const std::string& owner) {
    return nlohmann::json{{"id", id}, {"card", card}, {"owner", owner}, {"revealed", true}};
  };
  nlohmann::json setup = duel(0);
  setup["ships"][0].erase("crew");
  setup["ships"][1]["speed"] = 0;
  setup["ships"][1]["crew"] = {crew("sec1", "security", "owen"), crew("sec2", "security", "owen"),
                               crew("at1", "away_team", "diana"), crew("at2", "away_team", "diana")};
  FakeTable t = duel_table();
  Game g(setup, "boarding");
  for (
      const char* line :
      {R"({"do": "reveal", "player": "diana"})", R"({"do": "reveal", "player": "owen"})",
       R"({"do": "orders", "player": "diana", "ship": "enterprise", "orders": ["change_speed", "raise_shields", "attack"]})",
       R"({"do": "orders", "player": "owen", "ship": "tderet", "orders": ["change_speed", "raise_shields", "attack"]})"})
    g.give(input(0.5, line));
  g.play(t);
  // Three phases of ships at Full Stop declining their orders.
  for (int guard = 0; guard < 20 && g.ref->state().step == rules::Step::execute; ++guard) {
    const rules::GameState& s = g.ref->state();
    std::string line = R"({"do": "initiative"})";
    if (g.ref->expecting().need == Expectation::Need::drops)  // the two ships tie for initiative
      line =
          R"({"do": "drops", "drops": [{"purpose": "initiative", "hits": 2}, {"purpose": "initiative", "hits": 0}]})";
    else if (s.phase.stage == rules::PhaseStage::ships) {
      const std::string id = s.phase.to_act[static_cast<std::size_t>(s.phase.option)];
      line = R"({"do": "decline", "player": ")" + g.ship(id).controller + R"(", "ship": ")" + id + R"("})";
    }
    g.give(input(t.now(), line));
    t.still(0.2);
    g.play(t);
  }
  ASSERT_EQ(g.ref->state().step, rules::Step::boarding) << g.ref->expecting().what;

  g.give(input(t.now(), R"({"do": "boarding_segment", "ship": "tderet"})"));
  t.still(0.2);
  g.play(t);
  ASSERT_EQ(g.ref->expecting().need, Expectation::Need::drops) << g.ref->expecting().what;
  EXPECT_EQ(g.ref->expecting().drop->purpose, "boarding");
  // No hits either side: a tie, each side loses one revealed crew of its choosing.
  g.give(
      input(t.now(),
            R"({"do": "drops", "drops": [{"purpose": "boarding", "hits": 0}, {"purpose": "boarding", "hits": 0}]})"));
  t.still(0.2);
  g.play(t);
  ASSERT_EQ(g.ref->expecting().need, Expectation::Need::choice) << g.ref->expecting().what;
  std::vector<std::string> first = g.ref->expecting().options;
  ASSERT_EQ(first.size(), 2u) << g.ref->expecting().what;
  g.give(input(t.now(), R"({"do": "choose", "choice": "enterprise"})"));  // no crew: refused in words
  t.still(0.2);
  g.play(t);
  ASSERT_EQ(g.warnings("input").size(), 1u);
  EXPECT_NE(g.warnings("input")[0]->warning.text.find("none of the options"), std::string::npos);
  EXPECT_EQ(g.ref->expecting().options, first) << "still waiting for the same choice";
  // A player named who is not of the losing side: refused in words, the choice still waits.
  const std::string other_side = first[0].rfind("sec", 0) == 0 ? "diana" : "owen";
  g.give(input(t.now(), R"({"do": "choose", "choice": ")" + first[0] + R"(", "player": ")" + other_side + R"("})"));
  t.still(0.2);
  g.play(t);
  ASSERT_EQ(g.warnings("input").size(), 2u);
  EXPECT_NE(
      g.warnings("input")[1]->warning.text.find("member \"player\": " + other_side + " is not of the side that loses"),
      std::string::npos)
      << g.warnings("input")[1]->warning.text;
  EXPECT_EQ(g.ref->expecting().options, first);
  g.give(input(t.now(), R"({"do": "choose", "choice": ")" + first[0] + R"("})"));
  t.still(0.2);
  g.play(t);
  ASSERT_EQ(g.ref->expecting().need, Expectation::Need::choice) << g.ref->expecting().what;
  std::vector<std::string> second = g.ref->expecting().options;
  ASSERT_EQ(second.size(), 2u);
  g.give(input(t.now(), R"({"do": "choose", "choice": ")" + second[1] + R"("})"));
  t.still(0.2);
  g.play(t);
  EXPECT_NE(g.ref->expecting().need, Expectation::Need::choice) << g.ref->expecting().what;
  const Entry* segment = g.last_action("boarding_segment");
  ASSERT_NE(segment, nullptr);
  ASSERT_FALSE(segment->play.refusal) << segment->play.refusal->reason;
  int killed = 0;
  for (const rules::CrewTechDisk& d : g.ref->state().disks)
    if (!d.in_play) {
      ++killed;
      EXPECT_TRUE(d.id == first[0] || d.id == second[1]) << d.id;
    }
  EXPECT_EQ(killed, 2);
}

TEST(Referee, ALandingUnderAHandIsCountedFromTheDistance) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300, 0.2}, {314.7, 300.2, 0.2}}, 0.5, 0.3, {false, true});
  t.still(1.0);
  g.play(t);
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_TRUE(move->observed);
  ASSERT_EQ(move->observed->landings.size(), 2u);
  EXPECT_FALSE(move->observed->landings[0]) << "the first landing was covered";
  EXPECT_FALSE(move->observed->drift_mm[0]);
  EXPECT_TRUE(g.warnings("uncounted").empty());
}

TEST(Referee, FewerFlipsThanTheSpeedWaitForTheRestOfTheMove) {
  FakeTable t = duel_table();
  Game g(duel(3));
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300, 0.2}});
  t.still(1.0);  // the player stops to think
  g.play(t);
  EXPECT_EQ(g.last_action("move"), nullptr) << "one of three flips: the move goes on";
  EXPECT_NE(g.ref->expecting().what.find("1 of 3"), std::string::npos) << g.ref->expecting().what;
  t.flips("enterprise", {{314.7, 300.2, 0.2}, {371.9, 300.4, 0.2}});
  t.still(1.0);
  g.play(t);
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  EXPECT_EQ(move->observed->landings.size(), 3u);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 371.9, 1e-9);
}

TEST(Referee, InputsWaitForTheTableToSettle) {
  FakeTable t = duel_table();
  Game g(duel());
  g.give(input(0.8, R"({"do": "reveal", "player": "diana"})"));
  t.hand(1.0);  // from 1.0 s a hand is over the table
  g.give(input(1.3, R"({"do": "reveal", "player": "owen"})"));
  t.still(1.0);
  g.play(t);
  const Entry* first = nullptr;
  const Entry* second = nullptr;
  for (const Entry& e : g.ref->log())
    if (e.kind == Entry::Kind::action) (first ? second : first) = &e;
  ASSERT_TRUE(first && second);
  EXPECT_NEAR(first->t, 0.8, 1e-9) << "the table was settled at 0.8 s: applied at once";
  EXPECT_GT(second->t, 2.0) << "given under the hand: applied when the table settled again";
}

TEST(Referee, AnInputTheRulesRefuseIsLoggedAndChangesNothing) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  g.give(input(0.6, R"({"do": "reveal_order", "player": "owen", "ship": "tderet"})"));  // not its option
  t.still(1.0);
  g.play(t);
  EXPECT_EQ(g.ref->refused(), 1);
  const Entry* refused = g.last_action("reveal_order");
  ASSERT_NE(refused, nullptr);
  ASSERT_TRUE(refused->play.refusal);
  EXPECT_EQ(refused->play.refusal->kind, rules::RefusalKind::not_your_option);
}

TEST(Referee, ACollisionWaitsForItsDropsThenForTheShipToBePutDown) {
  nlohmann::json reliant = {{"id", "reliant"}, {"card", "escort"}, {"player", "owen"}, {"pose", pose(360, 300, 180)}};
  FakeTable t;
  t.place("enterprise", 200, 300, 0);
  t.place("tderet", 700, 600, 180);
  t.place("reliant", 360, 300, 180);
  t.still(1.0);
  Game g(duel(2, nlohmann::json::array({reliant})));
  g.start(
      t, 0.5, {"change_speed", "raise_shields", "attack"}, {"change_speed", "raise_shields", "attack"},
      {R"({"do": "orders", "player": "owen", "ship": "reliant", "orders": ["change_speed", "raise_shields", "attack"]})"});
  t.still(1.0);
  t.flips("enterprise", {{257.2, 300, 0}, {314.4, 300, 0}});  // ends 11.8 mm deep in the reliant
  t.still(1.0);
  g.play(t);
  EXPECT_EQ(g.ref->expecting().need, Expectation::Need::drops) << g.ref->expecting().what;
  EXPECT_NE(g.ref->expecting().what.find("collision"), std::string::npos) << g.ref->expecting().what;
  // What the screen asks for: the collision check of the enterprise, drop 0 of the move.
  ASSERT_TRUE(g.ref->expecting().drop.has_value());
  EXPECT_EQ(g.ref->expecting().drop->purpose, "collision");
  EXPECT_EQ(g.ref->expecting().drop->index, 0u);
  // The collision check: one critical showing (collided); the critical check after the hull hit.
  g.give(input(
      t.now(),
      R"({"do": "drops", "drops": [{"purpose": "collision", "crits": ["bridge"]}, {"purpose": "critical", "crits": []}]})"));
  t.still(0.5);
  g.play(t);
  EXPECT_EQ(g.ref->expecting().need, Expectation::Need::placement) << g.ref->expecting().what;
  EXPECT_TRUE(g.ref->expecting().placement_optional);  // a ship-ship collision: the hit player may leave it
  // Owen puts the enterprise down touching the reliant's back, facing north.
  t.put("enterprise", 360 - 28.6 - 31.75 - 0.2, 300, 90);
  t.still(1.0);
  g.play(t);
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  ASSERT_TRUE(move->observed && move->observed->placed);
  EXPECT_EQ(g.ship("enterprise").hull, 6);
  EXPECT_EQ(g.ship("enterprise").speed, 0);
  EXPECT_NEAR(g.ship("enterprise").pose.heading_deg(), 90, 1e-6);
  bool overlap_yes = false;
  for (const Verdict& v : move->observed->verdicts)
    if (v.kind == VerdictKind::overlap && v.with == "reliant") overlap_yes = v.call == Call::yes;
  EXPECT_TRUE(overlap_yes);
}

TEST(Referee, TooCloseToCallWaitsForTheRefereesDecision) {
  // The tderet within reach of the enterprise's beam by 0.1 mm, measured to 0.3 mm: too close.
  FakeTable t(30, 0.5, 0.3);
  double gap = 88.9 * std::sqrt(1 + std::pow(25.4 / 88.9, 2)) - 0.1;  // the template's reach is its diagonal
  double tderet_x = 200 + 28.6 + gap + 28.6;
  t.place("enterprise", 200, 300, 0);
  t.place("tderet", tderet_x, 300, 180);
  t.still(1.0);
  nlohmann::json setup = duel();
  setup["ships"][1]["pose"] = pose(tderet_x, 300, 180);
  Game g(setup);
  g.start(t, 0.5, {"attack", "raise_shields", "change_speed"});
  g.give(input(
      0.7,
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam", "target": "tderet"})"));
  t.still(0.5);
  g.play(t);
  ASSERT_EQ(g.ref->expecting().need, Expectation::Need::decision) << g.ref->expecting().what;
  ASSERT_EQ(g.ref->expecting().undecided.size(), 1u);
  EXPECT_EQ(g.ref->expecting().undecided[0].kind, VerdictKind::range);
  g.give(input(t.now(), R"({"do": "decide", "kind": "range", "with": "tderet", "call": "yes"})"));
  g.give(
      input(t.now(),
            R"({"do": "drops", "drops": [{"purpose": "damage", "hits": 2}, {"purpose": "critical", "crits": []}]})"));
  t.still(0.5);
  g.play(t);
  const Entry* attack = g.last_action("execute");
  ASSERT_NE(attack, nullptr);
  ASSERT_FALSE(attack->play.refusal) << attack->play.refusal->reason;
  ASSERT_TRUE(attack->observed);
  ASSERT_EQ(attack->observed->verdicts.size(), 1u);
  EXPECT_TRUE(attack->observed->verdicts[0].decided) << "logged as the referee's";
  EXPECT_EQ(g.ship("tderet").shields, 5);
}

TEST(Referee, ACorrectedDropReplaysTheGameWithIt) {
  FakeTable t(30, 0.5, 0.1);
  t.place("enterprise", 200, 300, 0);
  t.place("tderet", 320, 300, 180);
  t.still(1.0);
  nlohmann::json setup = duel();
  setup["ships"][1]["pose"] = pose(320, 300, 180);
  Game g(setup);
  g.start(t, 0.5, {"attack", "raise_shields", "change_speed"});
  g.give(input(
      0.7,
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam", "target": "tderet"})"));
  g.give(input(
      0.8, R"({"do": "drops", "drops": [{"purpose": "damage", "hits": 1}, {"purpose": "critical", "crits": []}]})"));
  t.still(1.0);
  g.play(t);
  ASSERT_EQ(g.ship("tderet").shields, 6);
  std::size_t entries_before = g.ref->log().size();
  // The referee mistyped: it was three hits. Input 6 (0-based) is the drops.
  g.give(input(
      t.now(),
      R"({"do": "correct", "input": 6, "with": {"do": "drops", "drops": [{"purpose": "damage", "hits": 3}, {"purpose": "critical", "crits": []}]}})"));
  EXPECT_EQ(g.ship("tderet").shields, 6) << "a correction is due at its time: the next frame's";
  t.still(0.1);
  g.play(t);
  EXPECT_EQ(g.ship("tderet").shields, 4) << "replayed with the correction";
  bool logged = false;
  for (const Entry& e : g.ref->log())
    if (e.kind == Entry::Kind::correction) logged = e.correction.contains("was") && e.correction.contains("entry_was");
  EXPECT_TRUE(logged) << "the log keeps what was corrected";
  EXPECT_EQ(g.ref->log().size(), entries_before + 1);
}

TEST(Referee, ACorrectionWithNullDropsTheInput) {
  FakeTable t(30, 0.5, 0.1);
  t.place("enterprise", 200, 300, 0);
  t.place("tderet", 320, 300, 180);
  t.still(1.0);
  nlohmann::json setup = duel();
  setup["ships"][1]["pose"] = pose(320, 300, 180);
  Game g(setup);
  g.start(t, 0.5, {"attack", "raise_shields", "change_speed"});
  g.give(input(
      0.7,
      R"({"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam", "target": "tderet"})"));
  g.give(input(
      0.8, R"({"do": "drops", "drops": [{"purpose": "damage", "hits": 1}, {"purpose": "critical", "crits": []}]})"));
  t.still(1.0);
  g.play(t);
  ASSERT_EQ(g.ship("tderet").shields, 6);
  // The undo of the screen: the drops (input 6) dropped; the beam waits for its drops again.
  g.give(input(t.now(), R"({"do": "correct", "input": 6, "with": null})"));
  t.still(0.1);
  g.play(t);
  EXPECT_EQ(g.ship("tderet").shields, 7) << "replayed without the drops";
  EXPECT_EQ(g.ref->expecting().need, Expectation::Need::drops);
}

TEST(Referee, AVideoThatEndsMidMoveSaysSoAndChangesNothing) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300, 0.2}}, 0.5, 0.1);  // the video ends before it settles
  g.play(t);
  g.ref->finish();
  EXPECT_EQ(g.last_action("move"), nullptr);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 200.3, 1e-9) << "the books untouched";
  ASSERT_FALSE(g.ref->waiting().empty());
  EXPECT_NE(g.ref->waiting()[0].find("enterprise"), std::string::npos) << g.ref->waiting()[0];
  EXPECT_TRUE(g.ref->log_json().contains("waiting"));
}

TEST(Referee, AGameFileNamingADiskTheRegistryLacksIsRefused) {
  nlohmann::json setup = duel();
  setup["ships"][1]["id"] = "kobayashi";
  model::TableSpec table = model::default_table();
  try {
    load_game_file(testing::write_game(setup, "bad"), table, testing::game_registry());
    FAIL() << "accepted";
  } catch (const diskref::io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("kobayashi"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("registry"), std::string::npos) << e.what();
  }
}

TEST(Referee, ThePlayScriptItWritesEndsInTheSameState) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300.3, 0.2}, {314.7, 301.0, 0.3}});
  t.still(1.0);
  g.play(t);
  g.ref->finish();
  std::filesystem::path file = testing::write_game({}, "script");
  std::ofstream(file) << g.ref->as_play_script().dump(1);
  rules::Script script = rules::load_script(file);
  rules::PlayResult played = rules::run_script(script);
  EXPECT_EQ(rules::state_to_json(played.final_state), rules::state_to_json(g.ref->state()));
}

}  // namespace
}  // namespace diskref::referee
