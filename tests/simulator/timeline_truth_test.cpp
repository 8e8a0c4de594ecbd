// The timeline's motions and the ground truth's states, without rendering.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/shape.h"
#include "engine/io/input_error.h"
#include "simulator/landing_truth.h"
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

double heading_of(const DiskInstant& d) {
  return geom::wrap_degrees(std::atan2(d.rotation(1, 0), d.rotation(0, 0)) * 180 / CV_PI);
}

TEST(Timeline, AFlipLandsOneFlipLengthAheadWithTheOtherFaceUp) {
  World w(with_events(
      {{{"t", 1.0}, {"flip", {{"disk", "enterprise"}, {"count", 2}, {"seconds_per_flip", 0.5}, {"pause_s", 0.2}}}}}));
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
  EXPECT_FALSE(one->moving) << "lying still between two flips of one move: nothing shows that more will follow";
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
  World w(with_events(
      {{{"t", 0.5}, {"rotate", {{"disk", "torpedo"}, {"heading", 200}, {"duration_s", 1.0}}}},
       {{"t", 2.0}, {"remove", {{"disk", "torpedo"}, {"duration_s", 1.0}}}},
       {{"t", 4.0}, {"place", {{"disk", "torpedo"}, {"x", 150}, {"y", 150}, {"heading", 10}, {"duration_s", 1.0}}}},
       {{"t", 6.0}, {"flip", {{"disk", "enterprise"}}}}}));
  EXPECT_NEAR(heading_of(w.disk(1.6, "torpedo").value()), 200.0, 1e-9);
  EXPECT_TRUE(w.disk(1.0, "torpedo").value().resting);  // turning in place stays on the table
  EXPECT_FALSE(w.disk(3.5, "torpedo"));                 // carried away
  EXPECT_FALSE(w.timeline->at(4.3).hands.empty());      // the hand that brings it back
  auto placed = w.disk(5.5, "torpedo");
  ASSERT_TRUE(placed);
  EXPECT_TRUE(placed->resting);
  EXPECT_NEAR(placed->translation[0], 150, 1e-9);
  EXPECT_TRUE(w.timeline->at(5.5).hands.empty());
}

TEST(Timeline, TheTemplateLiesAcrossTheTwoDisksFacingFromTheFirstToTheSecond) {
  nlohmann::json doc = with_events({{{"t", 1.0},
                                     {"template",
                                      {{"disk", "range"},
                                       {"between", {"enterprise", "torpedo"}},
                                       {"lay_s", 1.0},
                                       {"hold_s", 2.0},
                                       {"lift_s", 1.0}}}}});
  doc["disks"]["disks"].push_back(
      {{"name", "range"},
       {"kind", "template"},
       {"thickness_mm", 1.5},
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
  nlohmann::json doc = with_events(
      {{{"t", 0.0}, {"hand", {{"over", {"defiant"}}, {"enter_s", 0.3}, {"hold_s", 10}, {"from", "east"}}}},
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
  EXPECT_EQ(f0.settled, false);        // nothing watched before the first frame (and a hand comes)
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

TEST(Timeline, EveryFlipLandingIsListedWithItsPoseAndHowLongItLies) {
  World w(with_events(
      {{{"t", 1.0}, {"flip", {{"disk", "enterprise"}, {"count", 2}, {"seconds_per_flip", 0.5}, {"pause_s", 0.2}}}},
       {{"t", 4.0}, {"rotate", {{"disk", "enterprise"}, {"heading", 100}}}},
       {{"t", 5.0}, {"flip", {{"disk", "torpedo"}}}}}));
  const auto& landings = w.timeline->flip_landings();
  ASSERT_EQ(landings.size(), 3u);
  const double step = geom::flip_length(w.scenario.registry.find("enterprise")->shape);
  EXPECT_DOUBLE_EQ(landings[0].t, 1.5);
  EXPECT_DOUBLE_EQ(landings[0].rest_until, 1.7);  // the pause, then the second flip
  EXPECT_EQ(landings[0].pose.face, model::Face::down);
  EXPECT_NEAR(landings[0].pose.x, 80 + step * std::cos(30 * CV_PI / 180), 1e-9);
  EXPECT_DOUBLE_EQ(landings[1].t, 2.2);
  EXPECT_DOUBLE_EQ(landings[1].rest_until, 4.0);  // until it is turned
  EXPECT_EQ(landings[1].pose.face, model::Face::up);
  EXPECT_EQ(w.scenario.registry.disks()[landings[2].disk].name, "torpedo");
  EXPECT_TRUE(std::isinf(landings[2].rest_until));
}

// A GroundTruth and its timeline, stepped frame by frame at `fps`.
std::vector<model::TrackFrame> truth_frames(const World& w, double fps, double settle_window_s = 0.5) {
  GroundTruth truth(w.model, w.scenario.rig, 10.0, settle_window_s);
  std::vector<model::TrackFrame> out;
  for (int k = 0; k / fps <= w.scenario.duration_s; ++k) out.push_back(truth.next(k, k / fps, w.timeline->at(k / fps)));
  return out;
}

TEST(GroundTruth, SettledOnceNothingButStillDisksHasCoveredThePlayAreaForTheWindow) {
  // A still hand over defiant from 1.0 to 3.0 s (moving in 0.5 s before, out in 0.5 s after), a
  // flip of enterprise at 5 s.
  World w(with_events(
      {{{"t", 0.5},
        {"hand", {{"over", {"defiant"}}, {"enter_s", 0.5}, {"hold_s", 2.0}, {"leave_s", 0.5}, {"from", "east"}}}},
       {{"t", 5.0}, {"flip", {{"disk", "enterprise"}, {"seconds_per_flip", 0.4}}}}}));
  const double fps = 20;
  const std::vector<model::TrackFrame> frames = truth_frames(w, fps);
  auto settled_at = [&](double t) { return frames.at(static_cast<std::size_t>(std::lround(t * fps))).settled.value(); };
  EXPECT_FALSE(settled_at(0.0)) << "nothing watched before the first frame";
  EXPECT_FALSE(settled_at(0.45));
  EXPECT_TRUE(settled_at(0.5)) << "quiet since the first frame; the hand is still off the table";
  EXPECT_FALSE(settled_at(2.0)) << "a hand held perfectly still over the play area";
  EXPECT_FALSE(settled_at(3.4)) << "the hand has gone, but not for the whole window yet";
  EXPECT_TRUE(settled_at(4.5));
  EXPECT_FALSE(settled_at(5.2)) << "mid-flip";
  EXPECT_FALSE(settled_at(5.8));
  EXPECT_TRUE(settled_at(6.0));
  // The hand's arm is over the play area from some moment while it comes in until some moment
  // while it leaves, and never in the window after.
  for (const model::TrackFrame& f : frames) {
    if (f.t > 1.0 && f.t < 3.0) {
      EXPECT_FALSE(*f.settled) << f.t;
    }
  }
  // A longer window only delays the settles.
  const std::vector<model::TrackFrame> slow = truth_frames(w, fps, 1.0);
  for (std::size_t k = 0; k < frames.size(); ++k) {
    if (*slow[k].settled) {
      EXPECT_TRUE(*frames[k].settled) << frames[k].t;
    }
  }
}

TEST(GroundTruth, AHandBeyondThePlayAreasEdgeDoesNotDisturbItOneOverItDoes) {
  // Play area 400 x 300 mm; the fingertips of a hand from the east with its palm at x = 570 end
  // about 50 mm beyond the edge, and the camera above the middle sees them beyond it too.
  World w(with_events(
      {{{"t", 0.0}, {"hand", {{"at_mm", {570, 150}}, {"enter_s", 0.5}, {"hold_s", 2.0}, {"from", "east"}}}},
       {{"t", 3.5}, {"hand", {{"at_mm", {350, 150}}, {"enter_s", 0.5}, {"hold_s", 2.0}, {"from", "east"}}}}}));
  GroundTruth truth(w.model, w.scenario.rig);
  EXPECT_FALSE(truth.play_area_disturbed(w.timeline->at(1.5)));
  EXPECT_TRUE(truth.play_area_disturbed(w.timeline->at(5.0)));
  EXPECT_FALSE(truth.play_area_disturbed(w.timeline->at(10.0)));
}

TEST(LandingTruth, EveryLandingOnceInTheFrameItHappensWithWhetherItsTagWasSeen) {
  // enterprise flips twice; the torpedo (a tag on its up face only) once, so it lies face down;
  // reliant flips under a hand that stays until the end.
  World w(with_events(
      {{{"t", 0.5}, {"flip", {{"disk", "enterprise"}, {"count", 2}, {"seconds_per_flip", 0.3}, {"pause_s", 0.4}}}},
       {{"t", 0.5}, {"flip", {{"disk", "torpedo"}}}},
       {{"t", 2.0}, {"hand", {{"over", {"reliant"}}, {"enter_s", 0.5}, {"hold_s", 30}, {"from", "west"}}}},
       {{"t", 3.0}, {"flip", {{"disk", "reliant"}}}}}));
  const double fps = 10;
  const int frames = static_cast<int>(w.scenario.duration_s * fps);
  GroundTruth truth(w.model, w.scenario.rig);
  LandingTruth landings(*w.timeline, w.model, truth, fps, frames);
  std::vector<std::pair<int, model::Landing>> all;
  for (int k = 0; k < frames; ++k)
    for (const model::Landing& l : landings.landings_of_frame(k)) all.emplace_back(k, l);
  ASSERT_EQ(all.size(), 4u);
  EXPECT_EQ(all[0].second.name, "enterprise");
  EXPECT_EQ(all[0].first, 8);  // landed at 0.8 s
  EXPECT_DOUBLE_EQ(all[0].second.t, 0.8);
  EXPECT_EQ(all[0].second.face, model::Face::down);
  EXPECT_EQ(all[0].second.tag_visible, true);
  EXPECT_EQ(all[0].second.sigma_mm, 0.0);
  EXPECT_EQ(all[1].second.name, "torpedo");
  EXPECT_EQ(all[1].second.tag_visible, false) << "its down face has no tag";
  EXPECT_EQ(all[2].second.name, "enterprise");
  EXPECT_EQ(all[2].first, 15);  // 0.8 + 0.4 + 0.3 s
  EXPECT_NEAR(all[2].second.x, 80 + 2 * 57.2 * std::cos(30 * CV_PI / 180), 1e-9);
  EXPECT_EQ(all[2].second.face, model::Face::up);
  EXPECT_EQ(all[3].second.name, "reliant");
  EXPECT_EQ(all[3].second.tag_visible, false) << "under the hand all the time it lay there";
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
  EXPECT_EQ(refused({{{"t", 1.0}, {"flip", {{"disk", "enterprise"}, {"count", 3}}}},
                     {{"t", 1.5}, {"rotate", {{"disk", "enterprise"}, {"heading", 0}}}}}),
            "events[1]: disk \"enterprise\" is still moving until t = 2.4 s");
  EXPECT_NE(refused({{{"t", 1.0}, {"remove", {{"disk", "torpedo"}}}}, {{"t", 5.0}, {"flip", {{"disk", "torpedo"}}}}})
                .find("is not on the table"),
            std::string::npos);
  EXPECT_NE(refused({{{"t", 1.0}, {"place", {{"disk", "torpedo"}, {"x", 1}, {"y", 1}, {"heading", 0}}}}})
                .find("already on the table"),
            std::string::npos);
}

}  // namespace
}  // namespace diskref::simulator
