// The table's settle rule: quiet in every frame of the window, counted from the first frame.
#include "vision/settle_clock.h"

#include <stdexcept>

#include <gtest/gtest.h>

namespace diskref::vision {
namespace {

TEST(SettleClock, SettledOnlyAfterAWholeWindowOfQuietFrames) {
  SettleClock clock(0.5);
  EXPECT_FALSE(clock.update(0.0, true)) << "nothing was watched before the first frame";
  EXPECT_FALSE(clock.update(0.4, true));
  EXPECT_TRUE(clock.update(0.5, true));
  EXPECT_TRUE(clock.update(1.0, true));
  EXPECT_FALSE(clock.update(1.1, false)) << "busy: at once not settled";
  EXPECT_FALSE(clock.update(1.2, true));
  EXPECT_FALSE(clock.update(1.59, true));
  EXPECT_TRUE(clock.update(1.6, true));
  // 15 frames at 30 fps make the window, rounding aside.
  SettleClock frames(0.5);
  for (int k = 0; k < 15; ++k) EXPECT_FALSE(frames.update(k / 30.0, true)) << k;
  EXPECT_TRUE(frames.update(15 / 30.0, true));
}

TEST(SettleClock, ResetStartsTheClockAgainAndBadWindowsAreRefused) {
  SettleClock clock(0.2);
  clock.update(0.0, true);
  EXPECT_TRUE(clock.update(0.3, true));
  clock.reset();
  EXPECT_FALSE(clock.update(5.0, true));
  EXPECT_TRUE(clock.update(5.2, true));
  EXPECT_THROW(SettleClock(-1), std::invalid_argument);
  EXPECT_TRUE(SettleClock(0).update(0.0, true)) << "no window: settled whenever quiet";
}

}  // namespace
}  // namespace diskref::vision
