// Reading a move from where the disk came to rest: flips counted from rests and distances, unseen
// landings estimated, the face checked, the legal landings and the drift per flip, a turn found.
#include "referee/move_reading.h"

#include <gtest/gtest.h>

namespace diskref::referee {
namespace {

constexpr double kFlip = 57.2;

Rest at(double x, double y, double heading, model::Face face, double t = 0) {
  return {geom::Pose::from_degrees(x, y, heading), face, 0.1, t};
}
const model::Face up = model::Face::up;
const model::Face down = model::Face::down;

ReadingInput straight(std::vector<Rest> rests, int speed) {
  ReadingInput in;
  in.start = at(100, 100, 0, up);
  in.rests = std::move(rests);
  in.flip_length_mm = kFlip;
  in.expected_flips = speed;
  return in;
}

TEST(MoveReading, EveryLandingSeenCountsTheFlipsAndMeasuresTheDrift) {
  MoveReading r =
      read_move(straight({at(157.2, 100.5, 0, down), at(214.4, 101.8, 0, up), at(271.6, 103.0, 0, down)}, 3));
  ASSERT_TRUE(r.counted) << r.uncounted_why;
  EXPECT_EQ(r.flips, 3);
  ASSERT_EQ(r.legal.size(), 3u);
  EXPECT_NEAR(r.legal[2].position.x, 271.6, 1e-9);
  EXPECT_NEAR(r.legal[2].position.y, 100, 1e-9);
  ASSERT_EQ(r.drift_mm.size(), 3u);
  EXPECT_NEAR(*r.drift_mm[0], 0.5, 1e-9);
  EXPECT_NEAR(*r.drift_mm[2], 3.0, 1e-9);
  EXPECT_NEAR(r.max_drift_mm, 3.0, 1e-9);
  EXPECT_FALSE(r.turned_after);
}

TEST(MoveReading, ALandingUnderAHandIsCountedFromTheDistanceAndEstimated) {
  // Only the last of three landings was seen: 3 flip lengths, the face down (odd): 3 flips.
  MoveReading r = read_move(straight({at(271.6, 100, 0, down)}, 3));
  ASSERT_TRUE(r.counted) << r.uncounted_why;
  EXPECT_EQ(r.flips, 3);
  EXPECT_FALSE(r.landings[0].seen);
  EXPECT_FALSE(r.landings[1].seen);
  EXPECT_TRUE(r.landings[2].seen);
  EXPECT_NEAR(r.landings[1].pose.position.x, 214.4, 1e-9) << "on the line between";
  EXPECT_GE(r.landings[1].sigma_mm, 1.5) << "an estimate is known only to half the tolerance";
  EXPECT_FALSE(r.drift_mm[1]) << "no drift for a landing not seen";
}

TEST(MoveReading, AFaceThatDoesNotFitLeavesTheMoveUncounted) {
  // Two flip lengths but the other face up: no whole count fits.
  MoveReading r = read_move(straight({at(214.4, 100, 0, down)}, 2));
  EXPECT_FALSE(r.counted);
  EXPECT_NE(r.uncounted_why.find("down"), std::string::npos) << r.uncounted_why;
  // Half-way between flips: neither one nor two.
  MoveReading half = read_move(straight({at(185.0, 100, 0, down)}, 2));
  EXPECT_FALSE(half.counted);
}

TEST(MoveReading, RestsAtOnePlaceAreOneLanding) {
  // Seen twice at the second landing (turned slightly in between): still two flips.
  MoveReading r = read_move(straight({at(157.2, 100, 0, down), at(214.4, 100, 0, up), at(214.6, 100.2, 1, up)}, 2));
  EXPECT_TRUE(r.counted);
  EXPECT_EQ(r.flips, 2);
  EXPECT_NEAR(r.end.pose.position.x, 214.6, 1e-9);
}

TEST(MoveReading, ATurnMidMoveIsFoundAndTheLegalPathTurnsWithIt) {
  // One flip east, then turned north and two flips: evasive action after flip 1.
  MoveReading r = read_move(straight(
      {at(157.2, 100, 0, down), at(157.2, 100, 90, down), at(157.2, 157.2, 90, up), at(157.2, 214.4, 90, down)}, 3));
  ASSERT_TRUE(r.counted) << r.uncounted_why;
  EXPECT_EQ(r.flips, 3);
  ASSERT_TRUE(r.turned_after);
  EXPECT_EQ(*r.turned_after, 1);
  EXPECT_NEAR(r.turned_to_deg, 90, 1e-9);
  EXPECT_NEAR(r.legal[2].position.x, 157.2, 1e-9);
  EXPECT_NEAR(r.legal[2].position.y, 214.4, 1e-9);
  EXPECT_NEAR(r.max_drift_mm, 0, 1e-9);
}

TEST(MoveReading, SmallHeadingErrorsFlipByFlipAreNoTurn) {
  MoveReading r = read_move(straight({at(157.2, 100, 2, down), at(214.4, 100, 4, up), at(271.6, 100, 5, down)}, 3));
  EXPECT_FALSE(r.turned_after);
}

TEST(MoveReading, ATorpedoMayTurnAfterEachFlipOfItsLaunch) {
  ReadingInput in;
  in.start = at(100, 100, 0, up);
  in.rests = {at(125.4, 100, 0, down), at(125.4, 125.4, 90, up), at(100, 125.4, 180, down)};
  in.flip_length_mm = 25.4;
  in.expected_flips = 3;
  in.turns = Turns::every_flip;
  MoveReading r = read_move(in);
  EXPECT_TRUE(r.counted);
  EXPECT_EQ(r.flips, 3);
  EXPECT_LT(r.max_drift_mm, 1e-9) << "each flip one length along the heading it landed with";
  EXPECT_FALSE(r.turned_after);
}

TEST(MoveReading, MoreFlipsThanTheSpeedAreCountedAndHaveNoLegalLanding) {
  MoveReading r = read_move(straight({at(157.2, 100, 0, down), at(214.4, 100, 0, up), at(271.6, 100, 0, down)}, 2));
  EXPECT_EQ(r.flips, 3);
  EXPECT_EQ(r.legal.size(), 2u);
  EXPECT_FALSE(r.drift_mm[2]);
}

}  // namespace
}  // namespace diskref::referee
