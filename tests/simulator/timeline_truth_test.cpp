// The timeline's motions and the ground truth's states, without rendering.

#include <gtest/gtest.h>

#include "engine/geometry/shape.h"
#include "engine/io/input_error.h"
#include "simulator/timeline.h"
#include "simulator/truth.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

struct World {
  Scenario scenario;
  std::unique_ptr<TableSurface> surface;
  SceneModel model;
  std::unique_ptr<Timeline> timeline;

  explicit World(const nlohmann::json& doc) : scenario(testing::parse_test_scenario(doc)) {
    surface = std::make_unique<TableSurface>(scenario.table, scenario.surface, 1.0, 1);
    model.surface = surface.get();
    for (const model::DiskSpec& d : scenario.registry.disks()) model.disks.emplace_back(d);
    timeline = std::make_unique<Timeline>(scenario);
    for (const print::BoardSpec& b : timeline->boards()) model.boards.emplace_back(b);
  }
  // The disk in the scene at time t, if present.
  std::optional<DiskInstant> disk(double t, const std::string& name) const {
    std::size_t i = scenario.registry.index_of(name).value();
    for (const DiskInstant& d : timeline->at(t).disks)
      if (d.disk == i) return d;
    return std::nullopt;
  }
};

nlohmann::json with_events(nlohmann::json events) {
  nlohmann::json doc = testing::small_table_scenario(false, false);
  doc["events"] = std::move(events);
  doc["duration_s"] = 20.0;
  return doc;
}

double heading_of(const DiskInstant& d) { return geom::wrap_degrees(std::atan2(d.rotation(1, 0), d.rotation(0, 0)) * 180 / CV_PI); }

TEST(Timeline, AFlipLandsOneFlipLengthAheadWithTheOtherFaceUp) {
  World w(with_events({{{"t", 1.0}, {"flip", {{"disk", "enterprise"}, {"count", 2}, {"seconds_per_flip", 0.5}, {"pause_s", 0.2}}}}}));
  double step = geom::flip_length(w.scenario.registry.find("enterprise")->shape);  // 57.2
  auto before = w.disk(0.9, "enterprise");
  auto mid = w.disk(1.25, "enterprise");
  ASSERT_TRUE(before && mid);
  EXPECT_TRUE(before->resting);
  EXPECT_FALSE(mid->resting);
  EXPECT_TRUE(mid->moving);
  // Half-way the disk stands on its front edge: its body z axis lies flat, its top 90 degrees up.
  EXPECT_NEAR((mid->rotation * cv::Vec3d(0, 0, 1))[2], 0.0, 1e-9);
  auto one = w.disk(1.6, "enterprise");
  auto two = w.disk(3.0, "enterprise");
  ASSERT_TRUE(one && two);
  double h = 30 * CV_PI / 180;
  EXPECT_NEAR(one->translation[0], 80 + step * std::cos(h), 1e-9);
  EXPECT_NEAR(one->translation[1], 90 + step * std::sin(h), 1e-9);
  EXPECT_NEAR(one->translation[2], 0.0, 1e-9);
  EXPECT_EQ(one->top_face, model::Face::down);
  EXPECT_TRUE(one->moving);  // lying still between two flips of one move
  EXPECT_NEAR(two->translation[0], 80 + 2 * step * std::cos(h), 1e-9);
  EXPECT_EQ(two->top_face, model::Face::up);
  EXPECT_FALSE(two->moving);
  EXPECT_NEAR(heading_of(*two), 30.0, 1e-9);
  // The flip ends exactly where its landing begins (no jump at the last moment).
  // (Compare the disks' middles: the turned-over body's origin is on its face that is now on top.)
  auto almost = w.disk(1.5 - 1e-9, "enterprise");
  ASSERT_TRUE(almost);
  auto middle = [](const DiskInstant& d) { return d.rotation * cv::Vec3d(0, 0, 1.0) + d.translation; };
  EXPECT_LT(cv::norm(middle(*almost) - middle(*one)), 1e-5);
  EXPECT_LT(cv::norm(almost->rotation * cv::Vec3d(1, 0, 0) - (-(one->rotation * cv::Vec3d(1, 0, 0)))), 1e-5);
}

TEST(Timeline, TurnsPlacementsRemovalsAndTemplates) {
  World w(with_events({{{"t", 0.5}, {"rotate", {{"disk", "torpedo"}, {"heading", 200}, {"duration_s", 1.0}}}},
                       {{"t", 2.0}, {"remove", {{"disk", "torpedo"}, {"duration_s", 1.0}}}},
                       {{"t", 4.0}, {"place", {{"disk", "torpedo"}, {"x", 150}, {"y", 150}, {"heading", 10}, {"duration_s", 1.0}}}},
                       {{"t", 6.0}, {"flip", {{"disk", "enterprise"}}}}}));
  EXPECT_NEAR(heading_of(w.disk(1.6, "torpedo").value()), 200.0, 1e-9);
  EXPECT_TRUE(w.disk(1.0, "torpedo").value().resting);  // turning in place stays on the table
  EXPECT_FALSE(w.disk(3.5, "torpedo"));                 // carried away
  EXPECT_FALSE(w.timeline->at(4.3).hands.empty());               // the hand that brings it back
  auto placed = w.disk(5.5, "torpedo");
  ASSERT_TRUE(placed);
  EXPECT_TRUE(placed->resting);
  EXPECT_NEAR(placed->translation[0], 150, 1e-9);
  EXPECT_TRUE(w.timeline->at(5.5).hands.empty());
}

TEST(Timeline, TheTemplateLiesAcrossTheTwoDisksFacingFromTheFirstToTheSecond) {
  nlohmann::json doc = with_events({{{"t", 1.0}, {"template", {{"disk", "range"}, {"between", {"enterprise", "torpedo"}}, {"lay_s", 1.0}, {"hold_s", 2.0}, {"lift_s", 1.0}}}}});
  doc["disks"]["disks"].push_back({{"name", "range"}, {"kind", "template"}, {"thickness_mm", 1.5},
                                   {"shape", {{"type", "rect"}, {"length_mm", 88.9}, {"width_mm", 25.4}}},
                                   {"tags", {{{"id", 60}, {"face", "up"}, {"size_mm", 14}, {"heading_offset_deg", 0}}}}});
  World w(doc);
  auto t = w.disk(2.5, "range");
  ASSERT_TRUE(t);
  EXPECT_NEAR(t->translation[0], (80 + 190) / 2.0, 1e-9);
  EXPECT_NEAR(t->translation[1], (90 + 80) / 2.0, 1e-9);
  EXPECT_NEAR(t->translation[2], 2.0, 1e-9);  // on top of the 2 mm disks
  EXPECT_NEAR(heading_of(*t), geom::wrap_degrees(std::atan2(-10.0, 110.0) * 180 / CV_PI), 1e-9);
  EXPECT_TRUE(w.disk(4.5, "range"));  // being lifted away
  EXPECT_FALSE(w.disk(5.5, "range"));
}

TEST(GroundTruth, VisibleStaleLostAndNeverSeen) {
  nlohmann::json doc = with_events({{{"t", 0.0}, {"hand", {{"over", {"defiant"}}, {"enter_s", 0.3}, {"hold_s", 10}, {"from", "east"}}}},
                                    {{"t", 1.0}, {"flip", {{"disk", "enterprise"}, {"seconds_per_flip", 0.5}}}},
                                    {{"t", 1.0}, {"place", {{"disk", "edge"}, {"x", 290}, {"y", 70}, {"heading", 0}, {"duration_s", 1.0}}}}});
  doc["start"].erase(3);  // "edge" starts off the table
  World w(doc);
  GroundTruth truth(w.model, w.scenario.rig, 2.0);
  auto state_of = [](const model::TrackFrame& f, const std::string& name) -> std::optional<model::DiskTrack> {
    for (const auto& d : f.disks)
      if (d.name == name) return d;
    return std::nullopt;
  };
  model::TrackFrame f0 = truth.next(0, 0.0, w.timeline->at(0.0));
  EXPECT_EQ(state_of(f0, "enterprise").value().state, model::TrackState::visible);
  EXPECT_EQ(state_of(f0, "defiant").value().state, model::TrackState::visible) << "the hand has not arrived yet";
  EXPECT_FALSE(state_of(f0, "edge"));  // never seen: not listed
  EXPECT_EQ(f0.settled, false);  // a hand is over the table
  model::TrackFrame f1 = truth.next(1, 1.25, w.timeline->at(1.25));
  model::DiskTrack mid = state_of(f1, "enterprise").value();
  EXPECT_EQ(mid.state, model::TrackState::stale);
  EXPECT_EQ(mid.x, 80.0);  // last seen pose kept
  EXPECT_EQ(mid.face, model::Face::up);
  EXPECT_EQ(mid.motion, model::Motion::moving);
  EXPECT_EQ(state_of(f1, "defiant").value().state, model::TrackState::stale);  // under the hand
  model::TrackFrame f2 = truth.next(2, 2.5, w.timeline->at(2.5));
  EXPECT_EQ(state_of(f2, "enterprise").value().state, model::TrackState::visible);
  EXPECT_EQ(state_of(f2, "enterprise").value().face, model::Face::down);
  EXPECT_EQ(state_of(f2, "edge").value().state, model::TrackState::visible);
  EXPECT_EQ(state_of(f2, "enterprise").value().sigma_mm, 0.0);
  model::TrackFrame f3 = truth.next(3, 4.5, w.timeline->at(4.5));
  model::DiskTrack gone = state_of(f3, "defiant").value();
  EXPECT_EQ(gone.state, model::TrackState::lost);  // under the hand for more than 2 s
  EXPECT_FALSE(gone.x.has_value());
}

TEST(Timeline, ImpossibleEventsAreRefusedWithTheirPlace) {
  auto refused = [](nlohmann::json events) {
    try {
      World w(with_events(std::move(events)));
    } catch (const io::InputError& e) {
      return e.path() + ": " + e.problem();
    }
    return std::string();
  };
  EXPECT_EQ(refused({{{"t", 1.0}, {"flip", {{"disk", "enterprise"}, {"count", 3}}}}, {{"t", 1.5}, {"rotate", {{"disk", "enterprise"}, {"heading", 0}}}}}),
            "events[1]: disk \"enterprise\" is still moving until t = 2.4 s");
  EXPECT_NE(refused({{{"t", 1.0}, {"remove", {{"disk", "torpedo"}}}}, {{"t", 5.0}, {"flip", {{"disk", "torpedo"}}}}}).find("is not on the table"),
            std::string::npos);
  EXPECT_NE(refused({{{"t", 1.0}, {"place", {{"disk", "torpedo"}, {"x", 1}, {"y", 1}, {"heading", 0}}}}}).find("already on the table"),
            std::string::npos);
}

}  // namespace
}  // namespace diskref::simulator
