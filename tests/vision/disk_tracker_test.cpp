// The tracker's state machine on synthetic observation sequences: visible/stale/lost, identity
// across faces, motion and the still-frame average, the table's settled flag.
#include "vision/disk_tracker.h"

#include <random>

#include <gtest/gtest.h>

namespace diskref::vision {
namespace {

model::DiskRegistry two_disk_registry() {
  model::DiskSpec ship;
  ship.name = "enterprise";
  ship.kind = model::DiskKind::ship;
  ship.shape = geom::FlattedCircle{63.5, 57.2};
  ship.tags = {{10, model::Face::up, 24, 0}, {11, model::Face::down, 24, 0}};
  model::DiskSpec torpedo;
  torpedo.name = "torpedo-1";
  torpedo.kind = model::DiskKind::torpedo;
  torpedo.shape = geom::Circle{25.4};
  torpedo.tags = {{40, model::Face::up, 9.5, 0}};
  return model::DiskRegistry({ship, torpedo});
}

DiskObservation seen(std::size_t disk, double x, double y, double heading, model::Face face = model::Face::up) {
  DiskObservation o;
  o.disk_index = disk;
  o.face = face;
  o.table_from_disk = geom::Pose::from_degrees(x, y, heading);
  o.noise_sigma_mm = 0.05;
  o.heading_noise_deg = 0.1;
  o.calibration_sigma_mm = 0.1;
  o.pixels_per_mm = 2;
  o.tag_size_mm = 24;
  return o;
}

const model::DiskTrack* find(const model::TrackFrame& f, const std::string& name) {
  for (const auto& d : f.disks)
    if (d.name == name) return &d;
  return nullptr;
}

TEST(DiskTracker, ADiskNeverSeenIsNotListed) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 90)};
  model::TrackFrame f = tracker.update(0, 0.0, obs, true);
  ASSERT_EQ(f.disks.size(), 1u);
  EXPECT_EQ(f.disks[0].name, "enterprise");
  EXPECT_EQ(f.disks[0].kind, model::DiskKind::ship);
  EXPECT_EQ(f.disks[0].state, model::TrackState::visible);
  EXPECT_DOUBLE_EQ(*f.disks[0].x, 100);
  EXPECT_DOUBLE_EQ(*f.disks[0].heading, 90);
  EXPECT_EQ(find(f, "torpedo-1"), nullptr);
}

TEST(DiskTracker, UnseenDiskIsStaleWithItsLastPoseThenLost) {
  DiskTrackerOptions options;
  options.lost_after_s = 2.0;
  DiskTracker tracker(two_disk_registry(), options);
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 90)};
  tracker.update(0, 0.0, obs, true);
  const model::TrackFrame last_seen = tracker.update(1, 0.1, obs, true);
  for (int i = 2; i <= 21; ++i) {
    const double t = 0.1 * i;
    model::TrackFrame f = tracker.update(i, t, {}, true);
    ASSERT_EQ(f.disks.size(), 1u);
    const model::DiskTrack& d = f.disks[0];
    EXPECT_EQ(d.state, model::TrackState::stale) << t;
    // Never moved: exactly the last reported pose.
    EXPECT_EQ(*d.x, *last_seen.disks[0].x);
    EXPECT_EQ(*d.y, *last_seen.disks[0].y);
    EXPECT_EQ(*d.heading, *last_seen.disks[0].heading);
    ASSERT_TRUE(d.age_s);
    EXPECT_NEAR(*d.age_s, t - 0.1, 1e-12);
    EXPECT_TRUE(*f.settled) << "a stale disk (under the template, taken away) leaves the table settled";
  }
  model::TrackFrame f = tracker.update(22, 2.2 + 1e-9, {}, true);
  ASSERT_EQ(f.disks.size(), 1u);
  EXPECT_EQ(f.disks[0].state, model::TrackState::lost);
  EXPECT_FALSE(f.disks[0].x);
  EXPECT_FALSE(f.disks[0].heading);
  // Seen again: visible at once.
  obs = {seen(0, 300, 300, 0)};
  f = tracker.update(23, 2.3, obs, true);
  EXPECT_EQ(f.disks[0].state, model::TrackState::visible);
  EXPECT_DOUBLE_EQ(*f.disks[0].x, 300);
}

TEST(DiskTracker, AFlipShowsTheOtherFaceOfTheSameDisk) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 90, model::Face::up)};
  tracker.update(0, 0.0, obs, true);
  obs = {seen(0, 100, 257.2, 90, model::Face::down)};
  model::TrackFrame f = tracker.update(1, 0.1, obs, true);
  ASSERT_EQ(f.disks.size(), 1u);
  EXPECT_EQ(f.disks[0].face, model::Face::down);
  EXPECT_DOUBLE_EQ(*f.disks[0].y, 257.2);
  EXPECT_EQ(f.disks[0].motion, model::Motion::moving);
}

TEST(DiskTracker, StillDiskReportsTheMeanOfItsStillFrames) {
  DiskTracker tracker(two_disk_registry());
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0, 0.05);
  double sum_x = 0;
  model::TrackFrame f;
  for (int i = 0; i < 50; ++i) {
    std::vector<DiskObservation> obs = {seen(0, 100 + noise(rng), 200 + noise(rng), 45 + noise(rng))};
    sum_x += obs[0].table_from_disk.position.x;
    f = tracker.update(i, i / 30.0, obs, true);
    // Exactly the running mean: no lag, no quantisation.
    EXPECT_NEAR(*f.disks[0].x, sum_x / (i + 1), 1e-9);
  }
  EXPECT_EQ(f.disks[0].motion, model::Motion::settled);
  EXPECT_TRUE(*f.settled);
  // The mean of 50 frames is much closer than one frame's noise.
  EXPECT_NEAR(*f.disks[0].x, 100, 0.05);
  // Frame-to-frame noise averages away: sigma is below the single-frame figure.
  EXPECT_LT(f.disks[0].sigma_mm, std::hypot(0.05, 0.1));
  EXPECT_GE(f.disks[0].sigma_mm, 0.1);  // never below the calibration's share
}

TEST(DiskTracker, AMovingDiskReportsItsRawPoseAndSettlesAfterStopping) {
  DiskTrackerOptions options;
  options.settle_time_s = 0.1;
  DiskTracker tracker(two_disk_registry(), options);
  model::TrackFrame f;
  for (int i = 0; i < 10; ++i) {
    std::vector<DiskObservation> obs = {seen(0, 100, 200, 0)};
    f = tracker.update(i, i / 30.0, obs, true);
  }
  EXPECT_EQ(f.disks[0].motion, model::Motion::settled);
  // Pushed 2 mm per frame for 10 frames: each frame's pose is reported as measured.
  int frame = 10;
  for (int k = 1; k <= 10; ++k, ++frame) {
    std::vector<DiskObservation> obs = {seen(0, 100 + 2.0 * k, 200, 0)};
    f = tracker.update(frame, frame / 30.0, obs, false);
    EXPECT_DOUBLE_EQ(*f.disks[0].x, 100 + 2.0 * k);
    EXPECT_EQ(f.disks[0].motion, model::Motion::moving);
    EXPECT_FALSE(*f.settled);
  }
  // Stopped: moving for settle_time_s, then settled.
  const double stop_t = (frame - 1) / 30.0;
  for (int k = 0; k < 10; ++k, ++frame) {
    std::vector<DiskObservation> obs = {seen(0, 120, 200, 0)};
    f = tracker.update(frame, frame / 30.0, obs, true);
    const bool should_settle = frame / 30.0 - stop_t >= options.settle_time_s;
    EXPECT_EQ(f.disks[0].motion, should_settle ? model::Motion::settled : model::Motion::moving) << frame;
    EXPECT_DOUBLE_EQ(*f.disks[0].x, 120);
  }
  EXPECT_TRUE(*f.settled);
}

TEST(DiskTracker, ATurnOnTheSpotIsMotion) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 10)};
  tracker.update(0, 0, obs, true);
  tracker.update(1, 1.0 / 30, obs, true);
  obs = {seen(0, 100, 200, 15)};
  model::TrackFrame f = tracker.update(2, 2.0 / 30, obs, true);
  EXPECT_EQ(f.disks[0].motion, model::Motion::moving);
  EXPECT_DOUBLE_EQ(*f.disks[0].heading, 15);
}

TEST(DiskTracker, HeadingsAverageAcrossZero) {
  DiskTracker tracker(two_disk_registry());
  model::TrackFrame f;
  for (int i = 0; i < 4; ++i) {
    std::vector<DiskObservation> obs = {seen(0, 100, 200, i % 2 ? 359.95 : 0.05)};
    f = tracker.update(i, i / 30.0, obs, true);
  }
  EXPECT_NEAR(geom::angle_difference_deg(*f.disks[0].heading, 0), 0, 1e-9);
}

TEST(DiskTracker, MotionInTheImageKeepsTheTableUnsettledForTheSettleTime) {
  DiskTrackerOptions options;
  options.settle_time_s = 0.1;
  DiskTracker tracker(two_disk_registry(), options);
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 0), seen(1, 300, 300, 0)};
  EXPECT_TRUE(*tracker.update(0, 0, obs, true).settled);
  EXPECT_FALSE(*tracker.update(1, 0.2, obs, false).settled);
  EXPECT_FALSE(*tracker.update(2, 0.25, obs, true).settled);
  EXPECT_TRUE(*tracker.update(3, 0.31, obs, true).settled);
}

TEST(DiskTracker, AnUnchangedSettledDiskStaysVisibleWhereItWas) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 10), seen(1, 300, 300, 0)};
  model::TrackFrame f;
  for (int i = 0; i < 5; ++i) f = tracker.update(i, i / 30.0, obs, true);
  const model::DiskTrack* found = find(f, "enterprise");
  ASSERT_NE(found, nullptr);
  const model::DiskTrack before = *found;
  const std::vector<std::size_t> unchanged = {0};
  std::vector<DiskObservation> only_torpedo = {seen(1, 300, 300, 0)};
  f = tracker.update(5, 5 / 30.0, only_torpedo, true, unchanged);
  const model::DiskTrack* d = find(f, "enterprise");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->state, model::TrackState::visible);
  EXPECT_EQ(*d->x, *before.x);
  EXPECT_EQ(*d->heading, *before.heading);
  EXPECT_FALSE(d->age_s);
  EXPECT_NEAR(tracker.estimates()[0].last_seen_t, 5 / 30.0, 1e-12);
}

TEST(DiskTracker, OnlyASettledVisibleDiskCanBeUnchanged) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 10)};
  tracker.update(0, 0.0, obs, true);
  obs = {seen(0, 130, 200, 10)};  // moved: moving for settle_time_s
  tracker.update(1, 1 / 30.0, obs, true);
  const std::vector<std::size_t> unchanged = {0};
  model::TrackFrame f = tracker.update(2, 2 / 30.0, {}, true, unchanged);
  const model::DiskTrack* d = find(f, "enterprise");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->state, model::TrackState::stale);
}

}  // namespace
}  // namespace diskref::vision
