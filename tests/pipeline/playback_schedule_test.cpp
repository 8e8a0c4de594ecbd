#include "pipeline/playback_schedule.h"

#include <gtest/gtest.h>

namespace diskref::pipeline {
namespace {

TEST(PlaybackSchedule, FramesAreDueAtTheirOwnPaceFromTheFirst) {
  PlaybackSchedule schedule;
  EXPECT_DOUBLE_EQ(schedule.due(10.0, 1.0, 500.0), 500.0) << "the first frame is due when it is ready";
  EXPECT_DOUBLE_EQ(schedule.due(10.2, 1.0, 500.01), 500.2);
  EXPECT_DOUBLE_EQ(schedule.due(11.0, 1.0, 500.3), 501.0);
}

TEST(PlaybackSchedule, SpeedDividesTheVideosTimeAndAChangeOfSpeedStartsAgain) {
  PlaybackSchedule schedule;
  schedule.due(0.0, 2.0, 100.0);
  EXPECT_DOUBLE_EQ(schedule.due(1.0, 2.0, 100.1), 100.5);
  // Half speed from frame 2.0 on, ready at 101: the old timeline is left.
  EXPECT_DOUBLE_EQ(schedule.due(2.0, 0.5, 101.0), 101.0);
  EXPECT_DOUBLE_EQ(schedule.due(2.5, 0.5, 101.2), 102.0);
}

TEST(PlaybackSchedule, APlayerThatCatchesUpKeepsItsTimelineWhenLate) {
  PlaybackSchedule schedule({.catch_up = true, .fall_behind_s = 0.25});
  schedule.due(0.0, 1.0, 0.0);
  const double due = schedule.due(1.0, 1.0, 3.0);  // three seconds late
  EXPECT_DOUBLE_EQ(due, 1.0);
  schedule.shown(due, 3.0);
  EXPECT_DOUBLE_EQ(schedule.due(2.0, 1.0, 3.1), 2.0) << "still on the first timeline: no waiting until on time";
}

TEST(PlaybackSchedule, APlayerThatDoesNotCatchUpStartsAgainFromTheLateFrame) {
  PlaybackSchedule schedule({.catch_up = false, .fall_behind_s = 0.25});
  schedule.due(0.0, 1.0, 0.0);
  double due = schedule.due(1.0, 1.0, 1.2);  // 0.2 s late: within the allowance
  schedule.shown(due, 1.2);
  EXPECT_DOUBLE_EQ(schedule.due(2.0, 1.0, 1.3), 2.0);
  due = schedule.due(3.0, 1.0, 3.5);  // 0.5 s late
  schedule.shown(due, 3.5);
  EXPECT_DOUBLE_EQ(schedule.due(4.0, 1.0, 3.6), 3.6) << "the next frame anchors a new timeline";
  EXPECT_DOUBLE_EQ(schedule.due(4.5, 1.0, 3.7), 4.1);
}

TEST(PlaybackSchedule, ARestartAnchorsTheNextFrame) {
  PlaybackSchedule schedule;
  schedule.due(0.0, 1.0, 0.0);
  schedule.restart();  // a seek to 60 s
  EXPECT_DOUBLE_EQ(schedule.due(60.0, 1.0, 5.0), 5.0);
  EXPECT_DOUBLE_EQ(schedule.due(60.5, 1.0, 5.1), 5.5);
}

}  // namespace
}  // namespace diskref::pipeline
