// One definition of a quiet play area: what breaks it for the settle and for stillness alike, and the two ways they
// differ.
#include "vision/play_area_quiet.h"

#include <gtest/gtest.h>

namespace diskref::vision {
namespace {

PlayAreaFrame quiet_frame() {
  PlayAreaFrame f;
  f.view_trusted = true;
  f.first_frame = false;
  return f;
}

TEST(TableQuiet, AFrameWithNothingGoingOnIsQuietForTheSettleAndForStillness) {
  EXPECT_TRUE(play_area_quiet(quiet_frame(), kSettleQuiet));
  EXPECT_TRUE(play_area_quiet(quiet_frame(), kStillQuiet));
}

TEST(TableQuiet, AnUntrustedViewAFirstFrameAChangeOrALiftedDiskBreakBoth) {
  for (bool PlayAreaFrame::*breaker : {&PlayAreaFrame::changing, &PlayAreaFrame::disk_lifted}) {
    PlayAreaFrame f = quiet_frame();
    f.*breaker = true;
    EXPECT_FALSE(play_area_quiet(f, kSettleQuiet));
    EXPECT_FALSE(play_area_quiet(f, kStillQuiet));
  }
  PlayAreaFrame untrusted = quiet_frame();
  untrusted.view_trusted = false;
  EXPECT_FALSE(play_area_quiet(untrusted, kSettleQuiet));
  EXPECT_FALSE(play_area_quiet(untrusted, kStillQuiet));
  PlayAreaFrame first = quiet_frame();
  first.first_frame = true;
  EXPECT_FALSE(play_area_quiet(first, kSettleQuiet));
  EXPECT_FALSE(play_area_quiet(first, kStillQuiet));
}

TEST(TableQuiet, SomethingNoDiskOverTheTableKeepsItFromSettlingButNotFromBeingStill) {
  PlayAreaFrame f = quiet_frame();
  f.foreign = true;
  EXPECT_FALSE(play_area_quiet(f, kSettleQuiet));
  EXPECT_TRUE(play_area_quiet(f, kStillQuiet));
}

TEST(TableQuiet, TheSettleWaitsForADiskStillMovingStillnessOnlyForOneThatMovedInThisFrame) {
  PlayAreaFrame moving = quiet_frame();
  moving.disk_moving = true;  // moved a moment ago, still `moving`
  EXPECT_FALSE(play_area_quiet(moving, kSettleQuiet));
  EXPECT_TRUE(play_area_quiet(moving, kStillQuiet));
  PlayAreaFrame moved_now = moving;
  moved_now.disk_moved_now = true;
  EXPECT_FALSE(play_area_quiet(moved_now, kSettleQuiet));
  EXPECT_FALSE(play_area_quiet(moved_now, kStillQuiet));
}

}  // namespace
}  // namespace diskref::vision
