// A camera that went away and came back (referee/camera_gaps.h, spec §9 "Camera gaps"): the gap is
// a warning of its own; the table is read again once it settles: a disk found elsewhere moved
// unseen (a warning, the books take it, never a move); a move begun once the camera is back, or
// under way when it went away, is read as a move.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "referee/referee.h"
#include "tests/referee/fake_table.h"
#include "tests/referee/referee_game.h"

namespace diskref::referee {
namespace {

using testing::duel;
using testing::duel_table;
using testing::FakeTable;
using testing::Game;
using testing::input;
using testing::kShipFlip;

// The entries of the log in order, as "kind" for a warning's kind and the action's name otherwise.
std::vector<std::string> gap_test_outline(const std::vector<Entry>& log) {
  std::vector<std::string> out;
  for (const Entry& e : log) {
    if (e.kind == Entry::Kind::warning)
      out.push_back(e.warning.kind);
    else if (e.kind == Entry::Kind::action)
      out.emplace_back(rules::action_name(e.play.action.body));
  }
  return out;
}

int gap_count_of(const std::vector<std::string>& outline, const std::string& what) {
  return static_cast<int>(std::count(outline.begin(), outline.end(), what));
}

TEST(CameraGap, FramesHalfASecondApartAreNoGap) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.camera_away(0.5);  // a hiccup: frames half a second apart
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300.3, 0.2}, {314.7, 301.0, 0.3}});
  t.camera_away(0.5);
  t.still(1.0);
  g.play(t);
  EXPECT_TRUE(g.warnings("camera_gap").empty());
  EXPECT_TRUE(g.warnings("moved_unseen").empty());
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  EXPECT_FALSE(move->play.refusal);
}

TEST(CameraGap, AGapWithNothingMovedIsOnlyTheGapWarning) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  const double before = t.now() - 1.0 / 30;  // the last frame before the gap
  t.camera_away(3.0);
  const double back = t.now();
  t.still(1.0);
  g.play(t);
  const std::vector<std::string> outline = gap_test_outline(g.ref->log());
  ASSERT_EQ(g.warnings("camera_gap").size(), 1u);
  EXPECT_EQ(gap_count_of(outline, "moved_unseen"), 0);
  EXPECT_EQ(gap_count_of(outline, "displaced"), 0);
  EXPECT_EQ(gap_count_of(outline, "move"), 0);
  const Entry& gap = *g.warnings("camera_gap")[0];
  EXPECT_NEAR(gap.t, back, 1e-9) << "said the moment the camera is back";
  const nlohmann::json j = entry_to_json(gap);
  const nlohmann::json w = j.at("warning");
  EXPECT_NEAR(w.at("from").get<double>(), before, 1e-3);
  EXPECT_NEAR(w.at("to").get<double>(), back, 1e-3);
  EXPECT_NEAR(w.at("seconds").get<double>(), back - before, 1e-3);
  EXPECT_EQ(entry_text(gap).rfind("WARNING camera_gap: no frame for 3.03 s", 0), 0u) << entry_text(gap);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 200.3, 1e-9);
  // The table was read again after the gap: a settle after it carries what the camera found.
  bool read_again = false;
  for (const TableSettle& s : g.ref->settles()) read_again = read_again || (s.after_gap && s.t >= back);
  EXPECT_TRUE(read_again);
}

TEST(CameraGap, DisksMovedWhileAwayAreOneWarningAndTheBooksTakeThemNeverAMove) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.camera_away(3.0);
  // The ship whose turn it is, a flip ahead and face down; the other bumped.
  t.moved_unseen("enterprise", 257.5, 300.0, 0.0, model::Face::down);
  t.moved_unseen("tderet", 690, 595, 175);
  t.still(1.0);
  g.play(t);
  const std::vector<std::string> outline = gap_test_outline(g.ref->log());
  ASSERT_EQ(g.warnings("moved_unseen").size(), 1u) << "one warning naming the disks";
  EXPECT_EQ(gap_count_of(outline, "move"), 0) << "never read as a move";
  EXPECT_EQ(gap_count_of(outline, "out_of_turn"), 0);
  EXPECT_EQ(gap_count_of(outline, "displaced"), 2);
  const Entry& w = *g.warnings("moved_unseen")[0];
  ASSERT_EQ(w.unseen.size(), 2u);
  EXPECT_EQ(w.unseen[0].disk, "enterprise");
  EXPECT_EQ(w.unseen[1].disk, "tderet");
  EXPECT_NEAR(w.unseen[1].distance_mm, std::hypot(10, 5), 1e-6);
  EXPECT_EQ(w.unseen[0].found.face, model::Face::down);
  const nlohmann::json j = entry_to_json(w).at("warning");
  EXPECT_EQ(j.at("disks").size(), 2u);
  EXPECT_EQ(j.at("disks")[0].at("found").at("face"), "down");
  EXPECT_NEAR(j.at("seconds").get<double>(), 3.0 + 1.0 / 30, 1e-3);
  const std::string text = entry_text(w);
  EXPECT_EQ(text.rfind("WARNING moved_unseen: moved while the camera was away", 0), 0u) << text;
  EXPECT_NE(text.find("enterprise 57.2 mm (turned 0.2 degrees, the other face up); tderet 11.2 mm"), std::string::npos)
      << text;
  // The books take where they were found; the enterprise has not moved this phase.
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 257.5, 1e-9);
  EXPECT_NEAR(g.ship("tderet").pose.position.x, 690, 1e-9);
  EXPECT_FALSE(g.ship("enterprise").moved);
  // Its move, made afterwards, starts where it was found, on the face it was found on.
  t.flips("enterprise", {{314.7, 300.1, 0.0}, {371.9, 300.2, 0.0}});
  t.still(1.0);
  g.play(t);
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  EXPECT_TRUE(g.warnings("uncounted").empty()) << entry_text(*g.warnings("uncounted")[0]);
  ASSERT_TRUE(move->observed && move->observed->start);
  EXPECT_NEAR(move->observed->start->pose.position.x, 257.5, 1e-9);
  EXPECT_EQ(move->observed->landings.size(), 2u);
  EXPECT_TRUE(g.ship("enterprise").moved);
}

// The risk: a player starts a real move as soon as the camera is back, before the table settles
// (here unsettled by the tderet, found bumped). The enterprise was seen where it lay before it
// went: its move is a move, and only the tderet moved unseen.
TEST(CameraGap, AMoveStartedRightAfterTheGapIsReadAsAMove) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.camera_away(3.0);
  t.moved_unseen("tderet", 690, 595, 175);
  t.still(0.1);  // three frames, the enterprise where it was
  t.flips("enterprise", {{257.5, 300.3, 0.2}, {314.7, 301.0, 0.3}});
  t.still(1.0);
  g.play(t);
  ASSERT_EQ(g.warnings("moved_unseen").size(), 1u);
  const Entry& w = *g.warnings("moved_unseen")[0];
  ASSERT_EQ(w.unseen.size(), 1u);
  EXPECT_EQ(w.unseen[0].disk, "tderet");
  EXPECT_EQ(w.warning.disk, "tderet");
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  EXPECT_NEAR(move->t, w.t, 1e-9) << "the table first settled after the move: both read at that settle";
  ASSERT_TRUE(move->observed);
  EXPECT_EQ(move->observed->landings.size(), 2u);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 314.7, 1e-9);
  EXPECT_TRUE(g.ship("enterprise").moved);
}

// Found a flip ahead, face down, and moved on before the table settles: moved unseen up to where
// it was found, and a move from there (its start face the one it was found on).
TEST(CameraGap, ADiskFoundMovedAndMovedOnBeforeTheTableSettlesMovesFromWhereItWasFound) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.camera_away(3.0);
  t.moved_unseen("enterprise", 257.5, 300.0, 0.0, model::Face::down);
  t.still(0.1);
  t.flips("enterprise", {{314.7, 300.1, 0.0}, {371.9, 300.2, 0.0}});
  t.still(1.0);
  g.play(t);
  ASSERT_EQ(g.warnings("moved_unseen").size(), 1u);
  EXPECT_EQ(g.warnings("moved_unseen")[0]->warning.disk, "enterprise");
  EXPECT_TRUE(g.warnings("uncounted").empty()) << entry_text(*g.warnings("uncounted")[0]);
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  ASSERT_TRUE(move->observed && move->observed->start);
  EXPECT_NEAR(move->observed->start->pose.position.x, 257.5, 1e-9);
  EXPECT_EQ(move->observed->landings.size(), 2u);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 371.9, 1e-9);
}

// Seen where it lay, moving (a hand already on it) as the camera comes back: found there, so what
// the hand does with it is read as usual (here a bump out of turn), not as moved unseen.
TEST(CameraGap, ADiskTouchedAsTheCameraComesBackIsReadAsUsual) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.camera_away(3.0);
  t.set("tderet", 705, 603, 180);  // moving where it lay from the first frame back, then slid
  t.still(1.0);
  g.play(t);
  EXPECT_TRUE(g.warnings("moved_unseen").empty());
  ASSERT_EQ(g.warnings("out_of_turn").size(), 1u);
  EXPECT_EQ(g.warnings("out_of_turn")[0]->warning.disk, "tderet");
  EXPECT_NEAR(g.ship("tderet").pose.position.x, 705, 1e-9);
}

// Decided (spec §9): a move under way when the camera went away is read from the table as it is
// after the gap, the flips the camera missed counted from the distance; it is no moved_unseen.
TEST(CameraGap, AMoveUnderWayWhenTheCameraWentAwayIsReadFromTheTableAfter) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300.3, 0.2}});  // one flip of two: the move waits for the next
  t.still(1.0);
  g.play(t);
  ASSERT_EQ(g.ref->expecting().need, Expectation::Need::table) << g.ref->expecting().what;
  t.camera_away(3.0);
  t.moved_unseen("enterprise", 314.7, 301.0, 0.3, model::Face::up);  // its second flip, unseen
  t.still(1.0);
  g.play(t);
  EXPECT_EQ(g.warnings("camera_gap").size(), 1u);
  EXPECT_TRUE(g.warnings("moved_unseen").empty());
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  ASSERT_TRUE(move->observed);
  EXPECT_EQ(move->observed->landings.size(), 2u);
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 314.7, 1e-9);
  EXPECT_TRUE(g.ship("enterprise").moved);
}

// The same for a flip seen under way (the table not settled yet) when the camera went away.
TEST(CameraGap, AFlipSeenUnderWayWhenTheCameraWentAwayIsReadAsTheMove) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.flips("enterprise", {{257.5, 300.3, 0.2}});  // rests 0.3 s: the table has not settled since
  t.camera_away(3.0);
  t.moved_unseen("enterprise", 314.7, 301.0, 0.3, model::Face::up);
  t.still(1.0);
  g.play(t);
  EXPECT_TRUE(g.warnings("moved_unseen").empty());
  const Entry* move = g.last_action("move");
  ASSERT_NE(move, nullptr);
  ASSERT_FALSE(move->play.refusal) << move->play.refusal->reason;
  EXPECT_NEAR(g.ship("enterprise").pose.position.x, 314.7, 1e-9);
}

TEST(CameraGap, ACorrectionReplaysTheGapWhereItWas) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  g.give(input(t.now(),
               R"({"do": "drops", "drops": [{"purpose": "damage", "hits": 1}]})"));  // input 5: nothing waits for drops
  t.still(0.5);
  t.camera_away(3.0);
  t.moved_unseen("tderet", 690, 595, 175);
  t.still(1.0);
  g.play(t);
  std::vector<std::string> live = gap_test_outline(g.ref->log());
  ASSERT_EQ(gap_count_of(live, "input"), 1);
  live.erase(std::find(live.begin(), live.end(), "input"));
  g.give(input(t.now(), R"({"do": "correct", "input": 5, "with": null})"));  // replays the game without it
  t.still(0.1);
  g.play(t);
  const std::vector<std::string> replayed = gap_test_outline(g.ref->log());
  EXPECT_EQ(replayed, live);
  EXPECT_EQ(gap_count_of(replayed, "camera_gap"), 1);
  EXPECT_EQ(gap_count_of(replayed, "moved_unseen"), 1);
  EXPECT_NEAR(g.ship("tderet").pose.position.x, 690, 1e-9);
}

TEST(CameraGap, AGapTheTableNeverSettledAfterIsSaidWhenTheGameEnds) {
  FakeTable t = duel_table();
  Game g(duel());
  g.start(t, 0.5);
  t.still(1.0);
  t.camera_away(3.0);
  t.hand(2.0);
  g.play(t);
  g.ref->finish();
  bool said = false;
  for (const std::string& w : g.ref->waiting()) said = said || w.find("the camera was away") != std::string::npos;
  EXPECT_TRUE(said);
}

}  // namespace
}  // namespace diskref::referee
