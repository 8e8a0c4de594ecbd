// The whole pipeline on synthetic frames with exact truth: poses, identity across faces, motion,
// covered disks, rejections by reason, with and without a lens model.
#include "vision/tracker.h"

#include <algorithm>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "synthetic_table.h"

namespace diskref::vision {
namespace {

using test::PlacedTag;

model::DiskRegistry registry() {
  model::DiskSpec ship;
  ship.name = "enterprise";
  ship.kind = model::DiskKind::ship;
  ship.shape = geom::FlattedCircle{63.5, 57.2};
  ship.tags = {{10, model::Face::up, 24, 0}, {11, model::Face::down, 24, 0}};
  model::DiskSpec klingon;
  klingon.name = "d7";
  klingon.kind = model::DiskKind::ship;
  klingon.thickness_mm = 3.0;
  klingon.shape = geom::Circle{63.5};
  klingon.tags = {{12, model::Face::up, 24, 90}};  // printed turned: heading = tag x + 90
  model::DiskSpec torpedo;
  torpedo.name = "torpedo-1";
  torpedo.kind = model::DiskKind::torpedo;
  torpedo.shape = geom::Circle{25.4};
  torpedo.tags = {{40, model::Face::up, 12, 0}};
  return model::DiskRegistry({ship, klingon, torpedo});
}

// 1920 x 1080, about 1.3 px per mm, a little tilted, the table in the middle of the view.
calib::CameraPose camera() {
  return test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 1000, 10);
}

struct Truth {
  std::string name;
  geom::Pose pose;  // disk centre and heading
  model::Face face = model::Face::up;
};

PlacedTag tag_for(const model::DiskRegistry& reg, const Truth& t) {
  const model::DiskSpec& disk = *reg.find(t.name);
  for (const auto& tag : disk.tags)
    if (tag.face == t.face) {
      const geom::Pose table_from_tag{t.pose.position,
                                      geom::compose(t.pose.rotation, geom::Rot::from_degrees(-tag.heading_offset_deg))};
      return {tag.id, tag.size_mm, disk.thickness_mm, table_from_tag, geom::bounding_radius(disk.shape)};
    }
  throw std::logic_error("no tag on that face");
}

const model::DiskTrack* find(const model::TrackFrame& f, const std::string& name) {
  for (const auto& d : f.disks)
    if (d.name == name) return &d;
  return nullptr;
}

class TrackerOnSyntheticTable : public ::testing::Test {
 protected:
  test::SyntheticTable drawer;
  model::TableSpec table = test::small_table();
  model::DiskRegistry reg = registry();
  calib::CameraPose pose = camera();

  cv::Mat frame(const std::vector<Truth>& truth, std::vector<PlacedTag> extra = {},
                const std::vector<std::pair<geom::Vec2, double>>& hands = {}) {
    for (const auto& t : truth) extra.push_back(tag_for(reg, t));
    return drawer.draw(pose, table, extra, hands);
  }
};

void expect_at(const model::TrackFrame& f, const Truth& t, double mm, double deg) {
  const model::DiskTrack* d = find(f, t.name);
  ASSERT_NE(d, nullptr) << t.name;
  EXPECT_EQ(d->state, model::TrackState::visible) << t.name;
  EXPECT_EQ(d->face, t.face) << t.name;
  ASSERT_TRUE(d->x && d->y && d->heading);
  EXPECT_NEAR(*d->x, t.pose.position.x, mm) << t.name;
  EXPECT_NEAR(*d->y, t.pose.position.y, mm) << t.name;
  EXPECT_NEAR(geom::angle_difference_deg(*d->heading, t.pose.heading_deg()), 0, deg) << t.name;
}

TEST_F(TrackerOnSyntheticTable, StillDisksArePlacedWithinATenthOfAMillimetre) {
  std::vector<Truth> truth = {{"enterprise", geom::Pose::from_degrees(200, 300, 30)},
                              {"d7", geom::Pose::from_degrees(450, 480, 200)},
                              {"torpedo-1", geom::Pose::from_degrees(320, 120, 0)}};
  Tracker tracker(table, reg, pose.camera);
  const cv::Mat image = frame(truth);
  TrackerResult r;
  for (int i = 0; i < 16; ++i) {
    r = tracker.process(image, i, i / 30.0);
    EXPECT_EQ(*r.track.settled, i == 15) << "settled once quiet for the settle window, 0.5 s: frame " << i;
  }
  ASSERT_TRUE(r.table_pose);
  EXPECT_LT(r.table_pose->reprojection_rms_px, 0.3);
  ASSERT_EQ(r.track.disks.size(), 3u);
  for (const auto& t : truth) expect_at(r.track, t, 0.1, 0.3);
  for (const auto& d : r.track.disks) {
    EXPECT_GT(d.sigma_mm, 0.0);
    EXPECT_LT(d.sigma_mm, 0.5);
    EXPECT_EQ(d.motion, model::Motion::settled);
  }
  EXPECT_TRUE(r.table_quiet);
  EXPECT_FALSE(r.foreign_over_table);
  EXPECT_EQ(tracker.stats().rejected_total(), 0);
  // After the first frame only small windows are searched.
  double searched = 0;
  for (const auto& s : r.searched) searched += s.roi.area();
  EXPECT_LT(searched, 0.25 * 1920 * 1080);
}

TEST_F(TrackerOnSyntheticTable, WithoutALensTheMarkersAloneGiveThePlane) {
  std::vector<Truth> truth = {{"enterprise", geom::Pose::from_degrees(500, 250, 123)}};
  Tracker tracker(table, reg, std::nullopt);
  TrackerResult r = tracker.process(frame(truth), 0, 0.0);
  ASSERT_TRUE(r.table_pose);
  EXPECT_FALSE(r.table_pose->lens_calibrated);
  expect_at(r.track, truth[0], 0.3, 0.5);
}

TEST_F(TrackerOnSyntheticTable, AMovingDiskIsFollowedAndAFlipKeepsItsIdentity) {
  Tracker tracker(table, reg, pose.camera);
  Truth ship{"enterprise", geom::Pose::from_degrees(300, 250, 90)};
  for (int i = 0; i < 25; ++i) {
    // 4 mm per frame along its heading (+y), and the other face up from frame 15.
    ship.pose.position.y = 250 + 4.0 * i;
    ship.face = i >= 15 ? model::Face::down : model::Face::up;
    TrackerResult r = tracker.process(frame({ship}), i, i / 30.0);
    expect_at(r.track, ship, 0.15, 0.5);
    const model::DiskTrack* d = find(r.track, "enterprise");
    ASSERT_NE(d, nullptr);
    if (i > 0) {
      EXPECT_EQ(d->motion, model::Motion::moving) << i;
    }
  }
  EXPECT_EQ(tracker.stats().rejected_total(), 0);
}

TEST_F(TrackerOnSyntheticTable, ACoveredDiskIsStaleAndDoesNotMove) {
  Tracker tracker(table, reg, pose.camera);
  Truth ship{"enterprise", geom::Pose::from_degrees(400, 400, 0)};
  Truth torpedo{"torpedo-1", geom::Pose::from_degrees(150, 450, 45)};
  std::optional<model::DiskTrack> before;
  for (int i = 0; i < 20; ++i) {
    const bool covered = i >= 5 && i < 15;
    const std::vector<std::pair<geom::Vec2, double>> hands =
        covered ? std::vector<std::pair<geom::Vec2, double>>{{{400, 400}, 70.0}}
                : std::vector<std::pair<geom::Vec2, double>>{};
    TrackerResult r = tracker.process(frame({ship, torpedo}, {}, hands), i, i / 30.0);
    const model::DiskTrack* d = find(r.track, "enterprise");
    ASSERT_NE(d, nullptr);
    if (i == 4) before = *d;
    if (covered) {
      EXPECT_EQ(d->state, model::TrackState::stale) << i;
      EXPECT_EQ(*d->x, *before->x);
      EXPECT_EQ(*d->y, *before->y);
      EXPECT_EQ(*d->heading, *before->heading);
      EXPECT_NEAR(*d->age_s, (i - 4) / 30.0, 1e-9);
      expect_at(r.track, torpedo, 0.15, 1.0);
    } else {
      expect_at(r.track, ship, 0.1, 0.3);
    }
  }
}

TEST_F(TrackerOnSyntheticTable, AHandHeldStillOverTheTableKeepsItUnsettledUntilItHasGone) {
  Tracker tracker(table, reg, pose.camera);
  Truth ship{"enterprise", geom::Pose::from_degrees(200, 300, 0)};
  const std::vector<std::pair<geom::Vec2, double>> hand = {{{420, 250}, 60.0}};  // over nothing but felt
  for (int i = 0; i < 90; ++i) {
    const bool held = i >= 20 && i < 60;  // comes in at frame 20, perfectly still, gone at 60
    TrackerResult r =
        tracker.process(frame({ship}, {}, held ? hand : std::vector<std::pair<geom::Vec2, double>>{}), i, i / 30.0);
    if (held) {
      EXPECT_TRUE(r.foreign_over_table) << i;
      EXPECT_FALSE(*r.track.settled) << i;
    }
    const bool window_after_it = i >= 60 && i < 75;
    const bool quiet_for_the_window = (i >= 15 && i < 20) || i >= 75;
    EXPECT_EQ(*r.track.settled, quiet_for_the_window) << (window_after_it ? "not for the whole window yet: " : "") << i;
  }
}

TEST_F(TrackerOnSyntheticTable, StillnessIsMeasuredAndWhatLiesUnexplainedIsPlacedOnTheTable) {
  Tracker tracker(table, reg, pose.camera);
  Truth ship{"enterprise", geom::Pose::from_degrees(200, 300, 0)};
  const std::vector<std::pair<geom::Vec2, double>> hand = {{{420, 250}, 60.0}};
  for (int i = 0; i < 50; ++i) {
    const bool held = i >= 20;  // comes in at frame 20 and stays perfectly still
    TrackerResult r =
        tracker.process(frame({ship}, {}, held ? hand : std::vector<std::pair<geom::Vec2, double>>{}), i, i / 30.0);
    ASSERT_TRUE(r.track.still_s) << i;
    // Still from frame 1 (the first frame starts the clock), again from the frame after it came.
    EXPECT_NEAR(*r.track.still_s, i < 20 ? i / 30.0 : (i - 20) / 30.0, 1e-9) << i;
    if (!held) {
      EXPECT_TRUE(r.track.foreign.empty()) << i;
      continue;
    }
    EXPECT_FALSE(*r.track.settled) << "a hand held still is still, but the table is not settled: " << i;
    ASSERT_EQ(r.track.foreign.size(), 1u) << i;
    const model::ForeignBox& b = r.track.foreign[0];
    // Around the hand, to the shrunk picture's coarseness (about 6 mm a shrunk pixel here).
    EXPECT_NEAR((b.x0 + b.x1) / 2, 420, 15) << i;
    EXPECT_NEAR((b.y0 + b.y1) / 2, 250, 15) << i;
    EXPECT_NEAR(b.width(), 120, 30) << i;
  }
}

// d7's tag, leaning at `tilt_deg` about its own x axis with its lower edge on the table at
// (`x`, 450), drawn onto `image`.
void draw_leaning_tag(cv::Mat& image, const test::SyntheticTable& drawer, const calib::CameraPose& pose, double x,
                      double tilt_deg) {
  const double a = geom::deg_to_rad(tilt_deg), h = 12;  // half the 24 mm tag
  // A point of the leaning face, `u` across and `v` up its slope from the tag's middle.
  auto at = [&](double u, double v) {
    return cv::Point3d(x + u, 450 + (v + h) * std::cos(a) - h, 2 + (v + h) * std::sin(a));
  };
  std::vector<cv::Point> face;  // the counter's white face behind the tag, a little larger
  for (const cv::Point2d& p : calib::image_from_table(pose, {at(-16, -14), at(16, -14), at(16, 18), at(-16, 18)}))
    face.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
  cv::fillConvexPoly(image, face, cv::Scalar(235), cv::LINE_AA);
  // The tag's corners in the order tag_corners_table gives a flat one.
  const std::vector<cv::Point2d> px = calib::image_from_table(pose, {at(-h, -h), at(h, -h), at(h, h), at(-h, h)});
  test::draw_tag(image, drawer.family(), 12, {px[0], px[1], px[2], px[3]});
}

bool seen_tilted(const TrackerResult& r) {
  return std::any_of(r.detections.begin(), r.detections.end(),
                     [](const DetectionRecord& d) { return d.tag.id == 12 && d.rejected == RejectReason::not_flat; });
}

TEST_F(TrackerOnSyntheticTable, ADiskLeaningStillIsStillATagTiltedSomewhereNewIsNot) {
  // A counter that came to rest leaning, or on its edge, shows a tilted tag that the detector
  // catches now and then; a disk turning over or carried shows it somewhere new each time. The
  // first is still, the second is not, even when it creeps too slowly for the picture to change.
  // It comes at frame 5, unexplained by the table's picture, so it is searched for every frame.
  Truth ship{"enterprise", geom::Pose::from_degrees(200, 300, 0)};
  constexpr int kComes = 5;
  {
    Tracker tracker(table, reg, pose.camera);
    std::optional<int> first_seen;
    model::TrackFrame last;
    for (int i = 0; i < 25; ++i) {
      cv::Mat image = frame({ship});
      if (i >= kComes) draw_leaning_tag(image, drawer, pose, 420, 25);
      TrackerResult r = tracker.process(image, i, i / 30.0);
      ASSERT_TRUE(r.track.still_s);
      if (seen_tilted(r) && !first_seen) first_seen = i;
      if (!first_seen) continue;
      ASSERT_LE(*first_seen, kComes + 1) << "the test's premise: found where the picture changed";
      ASSERT_TRUE(seen_tilted(r)) << "the test's premise: a tag seen tilted in every frame, frame " << i;
      // Seen tilted for the first time, it was not still; from then on the clock runs.
      EXPECT_NEAR(*r.track.still_s, (i - *first_seen) / 30.0, 1e-9) << i;
      last = r.track;
    }
    ASSERT_TRUE(first_seen);
    // Never seen lying flat, it is said to lie tilted, in the part it makes in the picture.
    const model::DiskTrack* d7 = find(last, "d7");
    ASSERT_NE(d7, nullptr);
    ASSERT_TRUE(d7->tilted);
    EXPECT_NEAR(d7->tilted->since_t, *first_seen / 30.0, 1e-9);
    const bool in_a_part = std::any_of(last.foreign.begin(), last.foreign.end(), [](const model::ForeignBox& b) {
      return b.tilted == std::vector<std::string>{"d7"};
    });
    EXPECT_TRUE(in_a_part) << last.foreign.size() << " parts";
  }
  {
    // Seen lying flat first, then knocked over to lean where it lay: once it lies so, at rest. Its
    // tilted tag is caught where its flat one was looked for, now and then.
    Tracker tracker(table, reg, pose.camera);
    std::optional<int> first_seen;
    int seen_again = 0;
    model::TrackFrame last;
    for (int i = 0; i < 45; ++i) {
      cv::Mat image = i < 20 ? frame({ship, {"d7", geom::Pose::from_degrees(420, 450, 0)}}) : frame({ship});
      if (i >= 20) draw_leaning_tag(image, drawer, pose, 420, 25);
      TrackerResult r = tracker.process(image, i, i / 30.0);
      if (i >= 20 && seen_tilted(r) && !first_seen) first_seen = i;
      last = r.track;
      if (!first_seen) continue;
      if (i > *first_seen && seen_tilted(r)) ++seen_again;
      EXPECT_NEAR(*r.track.still_s, (i - *first_seen) / 30.0, 1e-9) << i;
    }
    ASSERT_TRUE(first_seen);
    EXPECT_GE(seen_again, 3) << "the test's premise: caught tilted again and again";
    const model::DiskTrack* d7 = find(last, "d7");
    ASSERT_NE(d7, nullptr);
    EXPECT_EQ(d7->state, model::TrackState::stale) << "not seen lying flat";
    EXPECT_EQ(d7->motion, model::Motion::settled) << "nor moving: it lies where it was knocked over";
    // ...and said to lie tilted, where its tag is: its middle 12 mm up the 25-degree slope from
    // its bottom edge at (x 420, y 438, z 2).
    ASSERT_TRUE(d7->tilted) << "seen tilted at rest";
    const double a = geom::deg_to_rad(25);
    // Along the camera's ray to within a millimetre; how far along it, from the tag's size in the
    // picture: a tenth of a pixel on its 31 px is 3 mm at 1 m.
    EXPECT_NEAR(d7->tilted->x, 420, 1.0);
    EXPECT_NEAR(d7->tilted->y, 438 + 12 * std::cos(a), 1.0);
    EXPECT_NEAR(d7->tilted->z, 2 + 12 * std::sin(a), 4.0);
    EXPECT_NEAR(d7->tilted->tilt_deg, 25, 2);
    EXPECT_EQ(d7->tilted->face, model::Face::up);
    EXPECT_NEAR(d7->tilted->since_t, *first_seen / 30.0, 1e-9);
    // Taken away: the picture changes where it stood, and it is no longer said to lie tilted.
    for (int i = 45; i < 50; ++i) {
      TrackerResult r = tracker.process(frame({ship}), i, i / 30.0);
      last = r.track;
    }
    d7 = find(last, "d7");
    ASSERT_NE(d7, nullptr);
    EXPECT_FALSE(d7->tilted) << "taken away";
  }
  {
    // Seen lying flat for a moment only (the table's picture, taken at the last settle, does not
    // show it), then knocked over where it lay: at the watch's coarse scale its tilted tag lies
    // where d7 was last seen flat, explained, and no part is found there; the part it makes is
    // measured around its tag at full resolution, and holds it.
    Tracker tracker(table, reg, pose.camera);
    int tilted_frames = 0, in_a_part = 0;
    for (int i = 0; i < 40; ++i) {
      cv::Mat image = i < 16 || i >= 20 ? frame({ship}) : frame({ship, {"d7", geom::Pose::from_degrees(420, 450, 0)}});
      if (i >= 20) draw_leaning_tag(image, drawer, pose, 420, 25);
      const model::TrackFrame f = tracker.process(image, i, i / 30.0).track;
      const model::DiskTrack* d7 = find(f, "d7");
      if (d7 == nullptr || !d7->tilted || (f.settled && *f.settled)) continue;
      ++tilted_frames;
      if (std::any_of(f.foreign.begin(), f.foreign.end(),
                      [](const model::ForeignBox& b) { return b.tilted == std::vector<std::string>{"d7"}; }))
        ++in_a_part;
    }
    ASSERT_GE(tilted_frames, 3) << "the test's premise: said to lie tilted before the table settles again";
    EXPECT_EQ(in_a_part, tilted_frames);
  }
  {
    Tracker tracker(table, reg, pose.camera);
    ChangeDetector picture;  // as the tracker's own: what the picture alone shows
    double longest_still = 0;
    for (int i = 0; i < 45; ++i) {
      cv::Mat image = frame({ship});
      if (i >= kComes) draw_leaning_tag(image, drawer, pose, 420 + 0.15 * (i - kComes), 25);  // about 0.2 px a frame
      const ChangeResult change = picture.update(image);
      TrackerResult r = tracker.process(image, i, i / 30.0);
      if (i <= kComes + 1) continue;
      EXPECT_TRUE(change.regions.empty()) << "the test's premise: too slow to change the picture, frame " << i;
      ASSERT_TRUE(seen_tilted(r)) << i;
      longest_still = std::max(longest_still, *r.track.still_s);
    }
    // Each pixel it creeps from where it was first seen tilted starts the clock again.
    EXPECT_LT(longest_still, 0.25);
  }
}

TEST_F(TrackerOnSyntheticTable, DetectionsThatCannotBeRealAreRejectedByReason) {
  Tracker tracker(table, reg, pose.camera);
  std::vector<Truth> truth = {{"enterprise", geom::Pose::from_degrees(200, 300, 0)}};
  std::vector<PlacedTag> extra = {
      {30, 24, 2, geom::Pose::from_degrees(450, 300, 0), 32},   // id in no disk
      {12, 40, 3, geom::Pose::from_degrees(420, 470, 0), 40},   // d7's id, printed far too big
      {40, 12, 2, geom::Pose::from_degrees(100, 500, 0), 13},   // the torpedo...
      {40, 12, 2, geom::Pose::from_degrees(450, 100, 0), 13}};  // ...twice
  TrackerResult r = tracker.process(frame(truth, extra), 0, 0.0);
  const auto& rejected = tracker.stats().rejected;
  EXPECT_EQ(rejected[static_cast<std::size_t>(RejectReason::unknown_id)], 1);
  EXPECT_EQ(rejected[static_cast<std::size_t>(RejectReason::wrong_size)], 1);
  EXPECT_EQ(rejected[static_cast<std::size_t>(RejectReason::seen_twice)], 2);
  EXPECT_EQ(tracker.stats().accepted, 1);
  EXPECT_EQ(find(r.track, "d7"), nullptr);
  EXPECT_EQ(find(r.track, "torpedo-1"), nullptr);
  expect_at(r.track, truth[0], 0.1, 0.3);
  // Every detection is reported for overlays, accepted or not.
  EXPECT_EQ(r.detections.size(), 4u + 1u + 4u);
}

TEST_F(TrackerOnSyntheticTable, ADiskPlacedLaterIsFound) {
  Tracker tracker(table, reg, pose.camera);
  Truth ship{"enterprise", geom::Pose::from_degrees(200, 300, 0)};
  Truth torpedo{"torpedo-1", geom::Pose::from_degrees(440, 420, 10)};
  for (int i = 0; i < 5; ++i) tracker.process(frame({ship}), i, i / 30.0);
  // It appears (the hand that brought it has gone): the image changed there, and once it has
  // stopped changing, that place is searched.
  tracker.process(frame({ship, torpedo}), 5, 5 / 30.0);
  TrackerResult r = tracker.process(frame({ship, torpedo}), 6, 6 / 30.0);
  expect_at(r.track, torpedo, 0.15, 1.0);
}

TEST_F(TrackerOnSyntheticTable, ABumpedCameraIsNoticedAndThePoseReestimated) {
  Tracker tracker(table, reg, pose.camera);
  Truth ship{"enterprise", geom::Pose::from_degrees(250, 350, 60)};
  bool moved_noted = false;
  for (int i = 0; i < 25; ++i) {
    if (i == 10) pose = test::camera_looking_at({1920, 1080}, 1300, {320, 290}, 1000, 11);  // bumped
    TrackerResult r = tracker.process(frame({ship}), i, i / 30.0);
    bool said = false;
    for (const auto& note : r.notes) said = said || note.find("camera moved") != std::string::npos;
    EXPECT_EQ(r.camera_moved, said) << i;  // the flag and the log line come together
    moved_noted = moved_noted || r.camera_moved;
    const model::DiskTrack* d = find(r.track, "enterprise");
    ASSERT_NE(d, nullptr);
    if (i < 10 || i >= 14) {
      // Before the bump, and once the monitor has confirmed it (5 frames), the disk is in place.
      expect_at(r.track, ship, 0.15, 0.5);
    } else {
      // Meanwhile nothing is measured with the old pose: stale where it was.
      EXPECT_EQ(d->state, model::TrackState::stale) << i;
      EXPECT_NEAR(*d->x, 250, 0.15);
    }
  }
  EXPECT_TRUE(moved_noted);
  EXPECT_EQ(tracker.stats().rejected[static_cast<std::size_t>(RejectReason::camera_moved)], 4);
}

TEST_F(TrackerOnSyntheticTable, StillDisksInAnUnchangedPictureAreNotSearchedEveryFrameYetStayVisible) {
  std::vector<Truth> truth = {{"enterprise", geom::Pose::from_degrees(200, 300, 30)},
                              {"d7", geom::Pose::from_degrees(450, 480, 200)}};
  Tracker tracker(table, reg, pose.camera);
  const cv::Mat image = frame(truth);
  int frames_searching_enterprise = 0;
  const cv::Point2d at = test::tag_corners_image(pose, truth[0].pose, 24, 2.0)[0];
  for (int i = 0; i < 30; ++i) {
    TrackerResult r = tracker.process(image, i, i / 30.0);
    for (const auto& t : truth) expect_at(r.track, t, 0.1, 0.3);
    for (const auto& s : r.searched)
      if (s.roi.contains(at)) {
        ++frames_searching_enterprise;
        break;
      }
  }
  // Measured again every still_refresh_frames frames (and found by the sweep now and then).
  EXPECT_LE(frames_searching_enterprise, 30 / TrackerOptions{}.still_refresh_frames + 6);
  EXPECT_GE(frames_searching_enterprise, 30 / TrackerOptions{}.still_refresh_frames);
}

// The same picture, not merely no change from frame to frame: a tag fading away too slowly for
// any one frame to differ is no longer the picture it was measured in, and the disk goes stale
// once it is missed; and a disk taken away goes stale at once.
TEST_F(TrackerOnSyntheticTable, ATagThatFadesSlowlyOrADiskTakenAwayIsNotHeldVisible) {
  Truth torpedo{"torpedo-1", geom::Pose::from_degrees(150, 450, 45)};
  Truth ship{"enterprise", geom::Pose::from_degrees(400, 300, 0)};
  const cv::Mat clean = frame({torpedo, ship});
  const cv::Mat without = frame({ship});
  cv::Mat white = clean.clone();  // the torpedo's tag gone: its disc white all over
  {
    const std::array<cv::Point2d, 4> c =
        test::tag_corners_image(pose, tag_for(reg, torpedo).table_from_tag, 12 * 9.0 / 5, 2.0);
    std::vector<cv::Point> poly;
    for (const cv::Point2d& p : c)
      poly.emplace_back(static_cast<int>(std::lround(p.x)), static_cast<int>(std::lround(p.y)));
    cv::fillConvexPoly(white, poly, cv::Scalar(255));
  }
  for (const bool fade : {true, false}) {
    Tracker tracker(table, reg, pose.camera);
    bool stale = false;
    for (int i = 0; i < 700 && !stale; ++i) {
      cv::Mat image = clean;  // shared, never written
      if (i >= 15 && fade) {
        // Half a grey level a frame at most: the change detector sees no change in any one frame.
        const double towards = std::min(1.0, (i - 15) / 600.0);
        cv::Mat faded;
        cv::addWeighted(clean, 1 - towards, white, towards, 0, faded);
        image = faded;
      } else if (i >= 15) {
        image = without;
      }
      TrackerResult r = tracker.process(image, i, i / 30.0);
      const model::DiskTrack* d = find(r.track, "torpedo-1");
      ASSERT_NE(d, nullptr);
      if (i < 15) {
        EXPECT_EQ(d->state, model::TrackState::visible) << i;
      }
      if (i == 15 && !fade) {
        EXPECT_NE(d->state, model::TrackState::visible) << "taken away";
      }
      stale = d->state != model::TrackState::visible;
    }
    EXPECT_TRUE(stale) << (fade ? "faded away" : "taken away");
  }
}

}  // namespace
}  // namespace diskref::vision
