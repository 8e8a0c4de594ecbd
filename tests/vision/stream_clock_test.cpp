// A network camera's own frame times on the local clock (vision/stream_clock.h): trusted when the
// frames are read late (a referee behind its camera), placed again only when the stream's times
// break (a sender restarted, a clock that leapt).
#include <gtest/gtest.h>

#include "vision/stream_clock.h"

namespace diskref::vision {
namespace {

constexpr double kPeriod = 1.0 / 30;

TEST(StreamClock, FramesReadOnTimeKeepTheStreamsSpacing) {
  StreamClock clock;
  for (int i = 0; i < 90; ++i)
    EXPECT_NEAR(clock.place(5 + i * kPeriod, 100 + i * kPeriod + 0.004), 100.004 + i * kPeriod, 1e-9);
  EXPECT_EQ(clock.replaced(), 0);
}

TEST(StreamClock, FramesReadLaterAndLaterKeepTheCamerasTimesNotTheReadersOnes) {
  // The reader takes 50 ms a frame of a 30 frames/s camera: after 10 s of video it is 5 s behind.
  // The frames keep the times the camera took them at; nothing jumps.
  StreamClock clock;
  double previous = 0;
  for (int i = 0; i < 300; ++i) {
    const double placed = clock.place(i * kPeriod, 100 + i * 0.05);
    EXPECT_NEAR(placed, 100 + i * kPeriod, 1e-9) << "frame " << i;
    if (i > 0) {
      EXPECT_NEAR(placed - previous, kPeriod, 1e-9);
    }
    previous = placed;
  }
  EXPECT_EQ(clock.replaced(), 0);
}

TEST(StreamClock, AStreamGoneForSecondsKeepsItsTimesAndItsGap) {
  // The network gone for 3 s while the camera goes on stamping: the gap is in the times.
  StreamClock clock;
  EXPECT_NEAR(clock.place(10, 100), 100, 1e-9);
  EXPECT_NEAR(clock.place(13, 103.2), 103, 1e-9);
  EXPECT_EQ(clock.replaced(), 0);
}

TEST(StreamClock, ASenderThatRestartsOrLeapsIsPlacedAgainAtTheFrameItBroke) {
  StreamClock clock;
  clock.place(50, 100);
  clock.place(50 + kPeriod, 100 + kPeriod);
  // The phone's app restarted: its times begin again at 0.
  EXPECT_NEAR(clock.place(0, 100.5), 100.5, 1e-9);
  EXPECT_NEAR(clock.place(kPeriod, 100.5 + kPeriod), 100.5 + kPeriod, 1e-9);
  EXPECT_EQ(clock.replaced(), 1);
  // Its clock leapt an hour ahead in 33 ms.
  EXPECT_NEAR(clock.place(3600, 100.5 + 2 * kPeriod), 100.5 + 2 * kPeriod, 1e-9);
  EXPECT_EQ(clock.replaced(), 2);
}

}  // namespace
}  // namespace diskref::vision
