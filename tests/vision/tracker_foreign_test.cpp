// What the tracker says of things it cannot explain near damage counters, at the camera's full
// resolution: the rim of something under a counter lies against it, and could be a counter under
// it; something a few millimetres beside one does not; and a counter whose small tag is missed at the camera's
// resolution is found in the picture enlarged.
#include <algorithm>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "synthetic_table.h"
#include "vision/tracker.h"

namespace diskref::vision {
namespace {

using test::PlacedTag;

constexpr double kCounterMm = 25.4;

model::DiskRegistry registry(double counter_tag_mm) {
  model::DiskSpec ship;
  ship.name = "enterprise";
  ship.kind = model::DiskKind::ship;
  ship.shape = geom::FlattedCircle{63.5, 57.2};
  ship.tags = {{10, model::Face::up, 24, 0}, {11, model::Face::down, 24, 0}};
  std::vector<model::DiskSpec> disks = {ship};
  for (int k = 1; k <= 2; ++k) {
    model::DiskSpec c;
    c.name = "counter-" + std::to_string(k);
    c.kind = model::DiskKind::counter;
    c.shape = geom::Circle{kCounterMm};
    c.tags = {{50 + 2 * k, model::Face::up, counter_tag_mm, 0}, {51 + 2 * k, model::Face::down, counter_tag_mm, 0}};
    c.faces = model::CounterFaces{model::CounterFace{model::CounterFace::Shows::hit, ""},
                                  model::CounterFace{model::CounterFace::Shows::blank, ""}};
    disks.push_back(c);
  }
  return model::DiskRegistry(disks);
}

PlacedTag disc(const model::DiskSpec& disk, geom::Vec2 at) {
  return {disk.tags.front().id, disk.tags.front().size_mm, disk.thickness_mm, geom::Pose{at, {}},
          geom::bounding_radius(disk.shape)};
}

const model::ForeignBox* part_against(const model::TrackFrame& f, const std::string& name) {
  for (const model::ForeignBox& b : f.foreign)
    if (std::find(b.against.begin(), b.against.end(), name) != b.against.end()) return &b;
  return nullptr;
}

class TrackerForeign : public ::testing::Test {
 protected:
  test::SyntheticTable drawer;
  model::TableSpec table = test::small_table();
  // 1920 x 1080, about 1.3 px per mm.
  calib::CameraPose pose = test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 1000, 10);
};

TEST_F(TrackerForeign, TheRimOfSomethingUnderACounterLiesAgainstItWhatLiesBesideOneDoesNot) {
  const model::DiskRegistry reg = registry(12);
  Tracker tracker(table, reg, pose.camera);
  const PlacedTag ship = disc(*reg.find("enterprise"), {150, 450});
  // Under counter-1, 11 mm to its left: a counter the camera cannot read (a tag of no disk, most
  // of it covered). Beside counter-2, 6 mm from its edge: a small dark thing.
  const PlacedTag under{30, 12, 2, geom::Pose{{289, 300}, {}}, kCounterMm / 2};
  const PlacedTag counter1 = disc(*reg.find("counter-1"), {300, 300});
  const PlacedTag counter2 = disc(*reg.find("counter-2"), {400, 300});
  const geom::Vec2 beside{400 + kCounterMm / 2 + 6 + 4, 300};
  model::TrackFrame last;
  for (int i = 0; i < 45; ++i) {
    const bool dropped = i >= 20;  // the table settles first, with the ship alone
    std::vector<PlacedTag> tags = {ship};
    if (dropped) tags.insert(tags.end(), {under, counter1, counter2});
    // The small dark thing: a "hand" disc 4 mm across, drawn 60 mm over the table: it is placed
    // so that it is seen where `beside` is.
    const cv::Vec3d eye = pose.camera_center_table();
    const double k = 1 - 60.0 / eye[2];
    const geom::Vec2 drawn{eye[0] + k * (beside.x - eye[0]), eye[1] + k * (beside.y - eye[1])};
    std::vector<std::pair<geom::Vec2, double>> blob;
    if (dropped) blob.push_back({drawn, 2.0 * k});
    last = tracker.process(drawer.draw(pose, table, tags, blob), i, i / 30.0).track;
  }
  ASSERT_TRUE(last.still_s && *last.still_s > 0.3);
  for (const std::string name : {"counter-1", "counter-2"}) {
    const model::DiskTrack* c = model::find_track(last, name);
    ASSERT_NE(c, nullptr) << name;
    EXPECT_EQ(c->state, model::TrackState::visible) << name;
  }
  const model::ForeignBox* rim = part_against(last, "counter-1");
  ASSERT_NE(rim, nullptr) << "the rim of what lies under counter-1";
  EXPECT_FALSE(rim->outline.empty());
  EXPECT_EQ(rim->under, std::vector<std::string>{"counter-1"})
      << "a counter could lie under counter-1, showing that rim";
  // The rim lies outside counter-1, over the counter under it (give or take the blur of its edge:
  // two pixels of the 3 x 3 mean, at 1.3 px/mm, and its anti-aliased pixel).
  for (const geom::Vec2& p : rim->outline) {
    EXPECT_LE(geom::distance(p, {289, 300}), kCounterMm / 2 + 3.5) << p.x << ", " << p.y;
    EXPECT_GE(geom::distance(p, {300, 300}), kCounterMm / 2) << p.x << ", " << p.y;
  }
  EXPECT_EQ(part_against(last, "counter-2"), nullptr) << "6 mm away is beside it, not against it";
  // ...but it is seen, with its outline, where it is.
  const auto blob = std::find_if(last.foreign.begin(), last.foreign.end(), [&](const model::ForeignBox& b) {
    return !b.outline.empty() && std::fabs((b.x0 + b.x1) / 2 - beside.x) < 3 &&
           std::fabs((b.y0 + b.y1) / 2 - beside.y) < 3;
  });
  ASSERT_NE(blob, last.foreign.end());
  // 4 mm, and a pixel more each side (the 3 x 3 mean; 1.3 px/mm here).
  EXPECT_NEAR(blob->width(), 4 + 2 / 1.3, 1.0);
}

TEST_F(TrackerForeign, ACounterWhoseSmallSoftTagIsMissedAtTheCamerasResolutionIsFoundEnlarged) {
  // An 8 mm tag: about 2.1 px a cell here, and softly focused (found at the camera's resolution
  // with a sharper picture or a larger tag).
  const model::DiskRegistry reg = registry(8);
  Tracker tracker(table, reg, pose.camera);
  const PlacedTag ship = disc(*reg.find("enterprise"), {150, 450});
  const geom::Vec2 at{350.4, 260.7};
  const PlacedTag counter = disc(*reg.find("counter-1"), at);
  TrackerResult r;
  bool enlarged = false;
  for (int i = 0; i < 45; ++i) {
    std::vector<PlacedTag> tags = {ship};
    if (i >= 20) tags.push_back(counter);
    cv::Mat soft;
    cv::GaussianBlur(drawer.draw(pose, table, tags), soft, cv::Size(0, 0), 1.0);
    r = tracker.process(soft, i, i / 30.0);
    for (const DetectionRecord& d : r.detections)
      if (d.disk_index && reg.disks()[*d.disk_index].name == "counter-1") enlarged = enlarged || d.enlarged;
  }
  EXPECT_TRUE(enlarged) << "the case this is for: missed at the camera's own resolution";
  const model::DiskTrack* c = model::find_track(r.track, "counter-1");
  ASSERT_NE(c, nullptr);
  EXPECT_EQ(c->state, model::TrackState::visible);
  ASSERT_TRUE(c->x && c->y);
  EXPECT_NEAR(*c->x, at.x, 0.5);
  EXPECT_NEAR(*c->y, at.y, 0.5);
  EXPECT_EQ(c->face, model::Face::up);
}

}  // namespace
}  // namespace diskref::vision
