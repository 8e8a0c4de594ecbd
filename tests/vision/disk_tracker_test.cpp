// The tracker's state machine on synthetic observation sequences: visible/stale/lost, identity
// across faces, motion and the still-frame average, the table's settled flag.
#include "vision/disk_tracker.h"

#include <random>
#include <vector>

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
  model::TrackFrame f = tracker.update(0, 0.0, obs);
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
  tracker.update(0, 0.0, obs);
  const model::TrackFrame last_seen = tracker.update(1, 0.1, obs);
  for (int i = 2; i <= 21; ++i) {
    const double t = 0.1 * i;
    model::TrackFrame f = tracker.update(i, t, {});
    ASSERT_EQ(f.disks.size(), 1u);
    const model::DiskTrack& d = f.disks[0];
    EXPECT_EQ(d.state, model::TrackState::stale) << t;
    // Never moved: exactly the last reported pose.
    EXPECT_EQ(*d.x, *last_seen.disks[0].x);
    EXPECT_EQ(*d.y, *last_seen.disks[0].y);
    EXPECT_EQ(*d.heading, *last_seen.disks[0].heading);
    ASSERT_TRUE(d.age_s);
    EXPECT_NEAR(*d.age_s, t - 0.1, 1e-12);
    EXPECT_FALSE(tracker.any_moving()) << "a stale disk (under the template, taken away) is not moving";
  }
  model::TrackFrame f = tracker.update(22, 2.2 + 1e-9, {});
  ASSERT_EQ(f.disks.size(), 1u);
  EXPECT_EQ(f.disks[0].state, model::TrackState::lost);
  EXPECT_FALSE(f.disks[0].x);
  EXPECT_FALSE(f.disks[0].heading);
  // Seen again: visible at once.
  obs = {seen(0, 300, 300, 0)};
  f = tracker.update(23, 2.3, obs);
  EXPECT_EQ(f.disks[0].state, model::TrackState::visible);
  EXPECT_DOUBLE_EQ(*f.disks[0].x, 300);
}

TEST(DiskTracker, AFlipShowsTheOtherFaceOfTheSameDisk) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 90, model::Face::up)};
  tracker.update(0, 0.0, obs);
  obs = {seen(0, 100, 257.2, 90, model::Face::down)};
  model::TrackFrame f = tracker.update(1, 0.1, obs);
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
    f = tracker.update(i, i / 30.0, obs);
    // Exactly the running mean: no lag, no quantisation.
    EXPECT_NEAR(*f.disks[0].x, sum_x / (i + 1), 1e-9);
  }
  EXPECT_EQ(f.disks[0].motion, model::Motion::settled);
  EXPECT_FALSE(f.settled) << "the table's settle is the pipeline's (settle_clock.h)";
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
    f = tracker.update(i, i / 30.0, obs);
  }
  EXPECT_EQ(f.disks[0].motion, model::Motion::settled);
  // Pushed 2 mm per frame for 10 frames: each frame's pose is reported as measured.
  int frame = 10;
  for (int k = 1; k <= 10; ++k, ++frame) {
    std::vector<DiskObservation> obs = {seen(0, 100 + 2.0 * k, 200, 0)};
    f = tracker.update(frame, frame / 30.0, obs);
    EXPECT_DOUBLE_EQ(*f.disks[0].x, 100 + 2.0 * k);
    EXPECT_EQ(f.disks[0].motion, model::Motion::moving);
    EXPECT_TRUE(tracker.any_moving());
    EXPECT_TRUE(tracker.moved_now()) << "it moved in this very frame";
  }
  // Stopped: moving for settle_time_s, then settled.
  const double stop_t = (frame - 1) / 30.0;
  for (int k = 0; k < 10; ++k, ++frame) {
    std::vector<DiskObservation> obs = {seen(0, 120, 200, 0)};
    f = tracker.update(frame, frame / 30.0, obs);
    const bool should_settle = frame / 30.0 - stop_t >= options.settle_time_s;
    EXPECT_EQ(f.disks[0].motion, should_settle ? model::Motion::settled : model::Motion::moving) << frame;
    // It moved last in the frame before this loop (to 120): in none of these.
    EXPECT_FALSE(tracker.moved_now()) << frame;
    EXPECT_DOUBLE_EQ(*f.disks[0].x, 120);
  }
  EXPECT_FALSE(tracker.any_moving());
}

TEST(DiskTracker, ADiskFoundAgainMovedNowOnlyIfThePictureHasNotChangedSinceItWasLastSeen) {
  // Seen at rest, then hidden for ten frames, then seen 8 mm away. Whether that jump is motion in
  // this very frame depends on the picture: if it changed after the disk was last seen, the disk
  // moved with that change; if it did not, the disk slid unseen and unnoticed, just now for all
  // anyone can tell.
  for (const bool changed_while_hidden : {true, false}) {
    DiskTracker tracker(two_disk_registry());
    int frame = 0;
    for (; frame < 10; ++frame) {
      std::vector<DiskObservation> obs = {seen(1, 300, 200, 0)};
      tracker.update(frame, frame / 30.0, obs);
    }
    const double last_seen_t = (frame - 1) / 30.0;
    for (; frame < 20; ++frame) tracker.update(frame, frame / 30.0, {});
    std::vector<DiskObservation> obs = {seen(1, 308, 200, 0)};
    const model::TrackFrame f = tracker.update(frame, frame / 30.0, obs);
    const model::DiskTrack* torpedo = find(f, "torpedo-1");
    ASSERT_NE(torpedo, nullptr);
    EXPECT_EQ(torpedo->motion, model::Motion::moving) << "a jump is motion, whenever it happened";
    EXPECT_TRUE(tracker.moved_now()) << "without the picture's word, it moved now";
    const double picture_changed_t = changed_while_hidden ? last_seen_t + 3 / 30.0 : last_seen_t - 1 / 30.0;
    EXPECT_EQ(tracker.moved_now(picture_changed_t), !changed_while_hidden) << changed_while_hidden;
    // The picture changing in the very frame it was last seen in does not account for the jump.
    EXPECT_TRUE(tracker.moved_now(last_seen_t));
  }
}

TEST(DiskTracker, ATurnOnTheSpotIsMotion) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 10)};
  tracker.update(0, 0, obs);
  tracker.update(1, 1.0 / 30, obs);
  obs = {seen(0, 100, 200, 15)};
  model::TrackFrame f = tracker.update(2, 2.0 / 30, obs);
  EXPECT_EQ(f.disks[0].motion, model::Motion::moving);
  EXPECT_DOUBLE_EQ(*f.disks[0].heading, 15);
}

TEST(DiskTracker, HeadingsAverageAcrossZero) {
  DiskTracker tracker(two_disk_registry());
  model::TrackFrame f;
  for (int i = 0; i < 4; ++i) {
    std::vector<DiskObservation> obs = {seen(0, 100, 200, i % 2 ? 359.95 : 0.05)};
    f = tracker.update(i, i / 30.0, obs);
  }
  EXPECT_NEAR(geom::angle_difference_deg(*f.disks[0].heading, 0), 0, 1e-9);
}

TEST(DiskTracker, AnUnchangedSettledDiskStaysVisibleWhereItWas) {
  DiskTracker tracker(two_disk_registry());
  std::vector<DiskObservation> obs = {seen(0, 100, 200, 10), seen(1, 300, 300, 0)};
  model::TrackFrame f;
  for (int i = 0; i < 5; ++i) f = tracker.update(i, i / 30.0, obs);
  const model::DiskTrack* found = find(f, "enterprise");
  ASSERT_NE(found, nullptr);
  const model::DiskTrack before = *found;
  const std::vector<std::size_t> unchanged = {0};
  std::vector<DiskObservation> only_torpedo = {seen(1, 300, 300, 0)};
  f = tracker.update(5, 5 / 30.0, only_torpedo, unchanged);
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
  tracker.update(0, 0.0, obs);
  obs = {seen(0, 130, 200, 10)};  // moved: moving for settle_time_s
  tracker.update(1, 1 / 30.0, obs);
  const std::vector<std::size_t> unchanged = {0};
  model::TrackFrame f = tracker.update(2, 2 / 30.0, {}, unchanged);
  const model::DiskTrack* d = find(f, "enterprise");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->state, model::TrackState::stale);
}

// Frames of a disk lying at (x, y) on `face` from frame `from` to frame `to` (inclusive), 30 fps.
void lie(DiskTracker& tracker, int from, int to, double x, double y, model::Face face,
         std::vector<model::Landing>& landings) {
  for (int k = from; k <= to; ++k) {
    std::vector<DiskObservation> obs = {seen(0, x, y, 90, face)};
    for (model::Landing& l : tracker.update(k, k / 30.0, obs).landings) landings.push_back(l);
  }
}

void unseen(DiskTracker& tracker, int from, int to, std::vector<model::Landing>& landings) {
  for (int k = from; k <= to; ++k)
    for (model::Landing& l : tracker.update(k, k / 30.0, {}).landings) landings.push_back(l);
}

TEST(DiskTracker, EveryLandingBetweenFlipsIsReportedOnceWithItsStillPose) {
  DiskTracker tracker(two_disk_registry());
  std::vector<model::Landing> landings;
  lie(tracker, 0, 9, 100, 200, model::Face::up, landings);        // where it starts: no landing
  unseen(tracker, 10, 18, landings);                              // turning over: no tag lies flat
  lie(tracker, 19, 27, 100, 257.2, model::Face::down, landings);  // landed; flipped again at once
  unseen(tracker, 28, 36, landings);
  ASSERT_EQ(landings.size(), 1u) << "the first landing, as soon as it is gone from view again";
  EXPECT_EQ(landings[0].name, "enterprise");
  EXPECT_DOUBLE_EQ(landings[0].y, 257.2);
  EXPECT_EQ(landings[0].face, model::Face::down);
  EXPECT_NEAR(landings[0].t, 19 / 30.0, 1e-12) << "when it came to rest";
  EXPECT_GT(landings[0].sigma_mm, 0.0);
  lie(tracker, 37, 60, 100, 314.4, model::Face::up, landings);  // the move's last landing
  EXPECT_EQ(landings.size(), 1u) << "still lying there: not over yet";
  std::vector<model::Landing> at_settle = tracker.settle();
  ASSERT_EQ(at_settle.size(), 1u);
  EXPECT_DOUBLE_EQ(at_settle[0].y, 314.4);
  EXPECT_TRUE(tracker.settle().empty()) << "reported once";
  lie(tracker, 61, 90, 100, 314.4, model::Face::up, landings);
  unseen(tracker, 91, 95, landings);
  EXPECT_EQ(landings.size(), 1u) << "the same rest goes on: nothing new";
}

TEST(DiskTracker, ALandingSeenTiltedAtOnceIsReportedWhenTheNextFlipStarts) {
  DiskTracker tracker(two_disk_registry());
  std::vector<model::Landing> landings;
  lie(tracker, 0, 5, 100, 200, model::Face::up, landings);
  unseen(tracker, 6, 12, landings);
  lie(tracker, 13, 20, 100, 257.2, model::Face::down, landings);
  const std::vector<std::size_t> lifted = {0};
  model::TrackFrame f = tracker.update(21, 21 / 30.0, {}, {}, lifted);
  ASSERT_EQ(f.landings.size(), 1u);
  EXPECT_EQ(f.landings[0].face, model::Face::down);
  EXPECT_TRUE(tracker.any_moving()) << "a tag seen tilted is a disk in motion";
  EXPECT_EQ(f.disks[0].motion, model::Motion::moving);
}

TEST(DiskTracker, TurnsNudgesPlacementsAndOneFrameGlimpsesAreNoLandings) {
  DiskTracker tracker(two_disk_registry());
  std::vector<model::Landing> landings;
  lie(tracker, 0, 9, 100, 200, model::Face::up, landings);  // put down: its first place
  for (int k = 10; k <= 19; ++k) {                          // turned on the spot
    std::vector<DiskObservation> obs = {seen(0, 100, 200, 90 + 5.0 * (k - 9))};
    tracker.update(k, k / 30.0, obs);
  }
  lie(tracker, 20, 29, 110, 200, model::Face::up, landings);  // nudged 10 mm (less than half a flip)
  EXPECT_TRUE(tracker.settle().empty());
  // Mid-flip, one frame seen on the other face, then gone: a glimpse, not a rest.
  lie(tracker, 30, 30, 120, 230, model::Face::down, landings);
  unseen(tracker, 31, 40, landings);
  EXPECT_TRUE(landings.empty());
  EXPECT_TRUE(tracker.settle().empty());
}

TEST(DiskTracker, SigmaKeepsTheBiasAndTheTablePosesShareWhateverTheFrames) {
  DiskTracker tracker(two_disk_registry());
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0, 0.05);
  model::TrackFrame f;
  for (int i = 0; i < 300; ++i) {
    DiskObservation o = seen(0, 100 + noise(rng), 200 + noise(rng), 45);
    o.bias_sigma_mm = 0.04;
    o.calibration_sigma_mm = 0.03;
    std::vector<DiskObservation> obs = {o};
    f = tracker.update(i, i / 30.0, obs);
  }
  // Frame noise averages away over 300 frames; bias and pose do not.
  EXPECT_NEAR(f.disks[0].sigma_mm, 0.05, 0.003);
  EXPECT_GE(f.disks[0].sigma_mm, std::hypot(0.04, 0.03));
}

// The table pose corrected for the same view (a drift re-fitted): a still disk's window follows
// the shift, so its next observation through the new pose is no motion, and the rest goes on with
// the frames before and after averaged together.
TEST(DiskTracker, APoseCorrectionShiftsTheStillWindows) {
  auto run = [](bool shifted) {
    DiskTracker tracker(two_disk_registry());
    for (int f = 0; f < 10; ++f) {
      std::vector<DiskObservation> obs = {seen(0, 100, 200, 90)};
      tracker.update(f, f / 30.0, obs);
    }
    if (shifted) tracker.shift_poses(std::vector<geom::Vec2>{{0.8, 0}, {0, 0}});
    // Through the new pose, a tenth of a millimetre from where the old frames put it (noise).
    std::vector<DiskObservation> obs = {seen(0, 100.9, 200, 90)};
    return tracker.update(10, 10 / 30.0, obs);
  };
  const model::TrackFrame after = run(true);
  const model::DiskTrack* d = find(after, "enterprise");
  ASSERT_NE(d, nullptr);
  EXPECT_EQ(d->motion, model::Motion::settled);
  EXPECT_NEAR(*d->x, (10 * 100.8 + 100.9) / 11, 1e-9) << "the ten frames before, moved, and the one after";
  EXPECT_TRUE(after.landings.empty());
  // Without the shift the same observation is a move of 0.9 mm.
  const model::TrackFrame unshifted = run(false);  // kept: `find` points into it
  const model::DiskTrack* moved = find(unshifted, "enterprise");
  ASSERT_NE(moved, nullptr);
  EXPECT_EQ(moved->motion, model::Motion::moving);
}

}  // namespace
}  // namespace diskref::vision
