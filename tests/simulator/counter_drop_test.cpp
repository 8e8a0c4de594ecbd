// Dropped counters in the timeline (simulator/counter_drop.h): where each comes to rest as the
// scenario says — flat, on top of a disk, leaning against one, on its rim — by a tumbling way that
// never goes through the table, ending exactly there; the truth's view of them; bad drops refused.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/distance.h"
#include "engine/geometry/shape.h"
#include "engine/io/input_error.h"
#include "simulator/counter_drop.h"
#include "simulator/timeline.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

nlohmann::json with_counters(nlohmann::json events) {
  nlohmann::json doc = testing::small_table_scenario(false, false);
  for (int i = 1; i <= 4; ++i)
    doc["disks"]["disks"].push_back(
        {{"name", "counter-" + std::to_string(i)},
         {"kind", "counter"},
         {"shape", {{"type", "circle"}, {"diameter_mm", 38.1}}},
         {"tags",
          {{{"id", 98 + 2 * i}, {"face", "up"}, {"size_mm", 14.5}, {"shows", "hit"}},
           {{"id", 99 + 2 * i}, {"face", "down"}, {"size_mm", 14.5}, {"shows", "critical"}, {"crit", "bridge"}}}}});
  doc["events"] = std::move(events);
  doc["duration_s"] = 10.0;
  return doc;
}

nlohmann::json counter(const std::string& name, double x, double y, const std::string& face = "up") {
  return {{"disk", name}, {"x", x}, {"y", y}, {"heading", 20}, {"face", face}};
}

// The lowest point of a disk (its rims), table frame z.
double lowest_z(const DiskInstant& d, double radius, double thickness) {
  double low = 1e300;
  for (int k = 0; k < 72; ++k) {
    const double a = k * CV_PI / 36;
    for (double z : {0.0, thickness}) {
      const cv::Vec3d p = d.rotation * cv::Vec3d(radius * std::cos(a), radius * std::sin(a), z) + d.translation;
      low = std::min(low, p[2]);
    }
  }
  return low;
}

struct Drop {
  explicit Drop(const nlohmann::json& events)
      : scenario(testing::parse_test_scenario(with_counters(events))), timeline(scenario) {}
  std::optional<DiskInstant> disk(double t, const std::string& name) const {
    const std::size_t i = *scenario.registry.index_of(name);
    for (const DiskInstant& d : timeline.at(t).disks)
      if (d.disk == i) return d;
    return std::nullopt;
  }
  const CounterLanding& landing(const std::string& name) const {
    const std::size_t i = *scenario.registry.index_of(name);
    for (const CounterLanding& l : timeline.counter_landings())
      if (l.disk == i) return l;
    throw std::runtime_error("no landing of " + name);
  }
  Scenario scenario;
  Timeline timeline;
};

TEST(CounterDrop, EachCounterTumblesAndComesToRestWhereTheScenarioSays) {
  nlohmann::json lean = counter("counter-3", 80 + 31.75 + 19.05 * 0.6, 90);  // partly over the enterprise's round side
  lean["on"] = "enterprise";
  nlohmann::json on_top = counter("counter-4", 300, 200, "down");
  on_top["on"] = "defiant";
  nlohmann::json edge = counter("counter-2", 250, 120);
  edge["rest"] = "edge";
  nlohmann::json drop = {{"counters", {counter("counter-1", 200, 150), edge, lean, on_top}}, {"height_mm", 160}};
  Drop d(nlohmann::json::array({{{"t", 1.0}, {"drop", drop}}}));
  const double r = 19.05, thick = 2.0;
  ASSERT_EQ(d.timeline.counter_landings().size(), 4u);
  for (const CounterLanding& l : d.timeline.counter_landings()) {
    EXPECT_FALSE(d.disk(l.released - 0.01, d.scenario.registry.disks()[l.disk].name)) << "in the hand until let go";
    EXPECT_LE(l.t - l.released, std::sqrt(2 * 160.0 / 9810) + 0.6 + 1e-6) << "falls, then at most settle_s to rest";
    // On the way down it spins, and never dips through the table.
    for (double t = l.released; t < l.t; t += 0.01) {
      const auto in_air = d.disk(t, d.scenario.registry.disks()[l.disk].name);
      ASSERT_TRUE(in_air);
      EXPECT_TRUE(in_air->moving);
      EXPECT_FALSE(in_air->resting);
      EXPECT_GE(lowest_z(*in_air, r, thick), -1e-6) << "at t = " << t;
    }
  }

  const auto flat = d.disk(5.0, "counter-1");
  ASSERT_TRUE(flat);
  EXPECT_TRUE(flat->resting);
  EXPECT_FALSE(flat->moving);
  EXPECT_NEAR(cv::norm(flat->translation - cv::Vec3d(200, 150, 0)), 0, 1e-9);
  EXPECT_NEAR(flat->rotation(2, 2), 1, 1e-12);
  EXPECT_EQ(d.landing("counter-1").kind, CounterRestKind::flat);

  const auto on_rim = d.disk(5.0, "counter-2");
  ASSERT_TRUE(on_rim);
  EXPECT_FALSE(on_rim->resting) << "on its edge: its tag is not square to the table";
  EXPECT_NEAR(on_rim->rotation(2, 2), 0, 1e-12);
  EXPECT_NEAR(lowest_z(*on_rim, r, thick), 0, 1e-3);
  EXPECT_EQ(d.landing("counter-2").kind, CounterRestKind::edge);

  const auto leaning = d.disk(5.0, "counter-3");
  ASSERT_TRUE(leaning);
  EXPECT_FALSE(leaning->resting);
  EXPECT_EQ(d.landing("counter-3").kind, CounterRestKind::leaning);
  EXPECT_NEAR(lowest_z(*leaning, r, thick), 0, 1e-3) << "one side on the table";
  const double tilt = std::acos(leaning->rotation(2, 2)) * 180 / CV_PI;
  EXPECT_GT(tilt, 1.0);
  EXPECT_LT(tilt, 10.0) << "resting on a 2 mm disk's edge";

  const auto stacked = d.disk(5.0, "counter-4");
  ASSERT_TRUE(stacked);
  EXPECT_TRUE(stacked->resting) << "flat on top of the defiant";
  EXPECT_NEAR(stacked->translation[2], 2.0, 1e-9);
  EXPECT_EQ(stacked->top_face, model::Face::down);
  EXPECT_EQ(d.landing("counter-4").kind, CounterRestKind::on_disk);
  EXPECT_EQ(d.landing("counter-4").on, "defiant");
}

TEST(CounterDrop, ACounterMayComeToRestOnOneOfTheSameDrop) {
  nlohmann::json leaning = counter("counter-2", 223, 171);  // 31 mm from counter-1: it leans on its rim
  leaning["on"] = "counter-1";
  nlohmann::json stacked = counter("counter-3", 300, 300);
  nlohmann::json on_it = counter("counter-4", 310, 305);
  on_it["on"] = "counter-3";
  Drop d(nlohmann::json::array(
      {{{"t", 1.0}, {"drop", {{"counters", {counter("counter-1", 200, 150), leaning, stacked, on_it}}}}}}));
  EXPECT_EQ(d.landing("counter-2").kind, CounterRestKind::leaning);
  EXPECT_EQ(d.landing("counter-4").kind, CounterRestKind::on_disk);
  const auto top = d.disk(5.0, "counter-4");
  ASSERT_TRUE(top);
  EXPECT_NEAR(top->translation[2], 2.0, 1e-9);
}

TEST(CounterDrop, GatheredCountersLeaveTheTableAndMayBeDroppedAgain) {
  nlohmann::json first = {{"counters", {counter("counter-1", 200, 150), counter("counter-2", 240, 150)}}};
  nlohmann::json gather = {{"disks", {"counter-1", "counter-2"}}, {"duration_s", 1.0}};
  nlohmann::json again_drop = {{"counters", nlohmann::json::array({counter("counter-1", 150, 100, "down")})}};
  Drop d(nlohmann::json::array(
      {{{"t", 0.5}, {"drop", first}}, {{"t", 3.0}, {"gather", gather}}, {{"t", 5.0}, {"drop", again_drop}}}));
  EXPECT_TRUE(d.disk(2.9, "counter-2"));
  EXPECT_FALSE(d.disk(4.1, "counter-2")) << "taken away";
  ASSERT_EQ(d.timeline.counter_landings().size(), 3u);
  EXPECT_EQ(d.timeline.counter_landings()[2].drop, 1u);
  const auto again = d.disk(9.0, "counter-1");
  ASSERT_TRUE(again);
  EXPECT_EQ(again->top_face, model::Face::down);
  EXPECT_NEAR(again->translation[0], 150, 1e-9);
}

TEST(CounterDrop, DropsThatCannotHappenAreRefusedWithTheirPlace) {
  auto error_of = [](const nlohmann::json& events) {
    try {
      Drop d(events);
    } catch (const io::InputError& e) {
      return std::string(e.what());
    }
    return std::string("(no error)");
  };
  // The counters as a list: a braced json of one json element is that element under clang, an
  // array of it under gcc.
  auto one_drop = [](std::initializer_list<nlohmann::json> counters) {
    return nlohmann::json::array({{{"t", 1.0}, {"drop", {{"counters", std::vector<nlohmann::json>(counters)}}}}});
  };
  EXPECT_NE(error_of(one_drop({counter("enterprise", 200, 150)}))
                .find("events[0].drop.counters[0].disk: \"enterprise\" is not a counter"),
            std::string::npos)
      << error_of(one_drop({counter("enterprise", 200, 150)}));
  EXPECT_NE(error_of(one_drop({counter("counter-1", 200, 150), counter("counter-1", 250, 150)})).find("dropped twice"),
            std::string::npos);
  nlohmann::json far = counter("counter-1", 200, 150);
  far["on"] = "enterprise";
  EXPECT_NE(error_of(one_drop({far})).find("does not touch the disk it is to rest on"), std::string::npos)
      << error_of(one_drop({far}));
  nlohmann::json twice = one_drop({counter("counter-1", 200, 150)});
  twice.push_back({{"t", 3.0}, {"drop", {{"counters", nlohmann::json::array({counter("counter-1", 200, 150)})}}}});
  EXPECT_NE(error_of(twice).find("events[1]: counter \"counter-1\" is on the table: gather it before dropping it"),
            std::string::npos)
      << error_of(twice);
}

}  // namespace
}  // namespace diskref::simulator
