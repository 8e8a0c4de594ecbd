#include "ui/event_log.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/referee/test_table.h"

namespace diskref::ui {
namespace {

using geom::Vec2;
using referee::testing::track;

std::vector<std::string> texts(const std::vector<Event>& events) {
  std::vector<std::string> out;
  for (const Event& e : events) out.push_back(e.text);
  return out;
}

bool mentions(const std::vector<Event>& events, const std::string& part) {
  for (const Event& e : events) {
    if (e.text.find(part) != std::string::npos) return true;
  }
  return false;
}

TEST(TableEvents, FirstFrameAnnouncesEveryDisk) {
  model::TrackFrame f = referee::testing::spec_example_frame();
  std::vector<Event> e = table_events(nullptr, f);
  ASSERT_EQ(e.size(), 2u);
  EXPECT_NE(e[0].text.find("enterprise appeared (up) at (100.0, 200.0) mm"), std::string::npos) << e[0].text;
  EXPECT_EQ(e[0].frame, 7);
  EXPECT_DOUBLE_EQ(e[0].t, 0.25);
}

TEST(TableEvents, StateFaceAndMotionChanges) {
  model::TrackFrame a = referee::testing::spec_example_frame();
  a.disks[0].motion = model::Motion::settled;
  a.settled = true;
  model::TrackFrame b = a;
  b.frame = 8;
  EXPECT_TRUE(table_events(&a, b).empty()) << "nothing changed";

  b.disks[0].state = model::TrackState::stale;
  b.disks[1].face = model::Face::down;
  std::vector<Event> e = table_events(&a, b);
  EXPECT_TRUE(mentions(e, "enterprise hidden")) << ::testing::PrintToString(texts(e));
  EXPECT_TRUE(mentions(e, "tderet now down face up"));

  model::TrackFrame c = b;
  c.disks[0].state = model::TrackState::lost;
  c.disks[0].x.reset();
  e = table_events(&b, c);
  ASSERT_EQ(e.size(), 1u);
  EXPECT_EQ(e[0].severity, Severity::warning);
  EXPECT_EQ(e[0].text, "enterprise lost");

  model::TrackFrame d = a;
  d.disks[0].motion = model::Motion::moving;
  d.settled = false;
  e = table_events(&a, d);
  EXPECT_TRUE(mentions(e, "enterprise moving"));
  EXPECT_TRUE(mentions(e, "table busy"));
  e = table_events(&d, a);
  EXPECT_TRUE(mentions(e, "enterprise settled at (100.0, 200.0) mm"));
  EXPECT_TRUE(mentions(e, "table settled"));

  model::TrackFrame gone = a;
  gone.disks.pop_back();
  e = table_events(&a, gone);
  EXPECT_TRUE(mentions(e, "tderet no longer reported"));
}

TEST(EventLogTest, KeepsTheNewestWithinCapacity) {
  EventLog log(3);
  for (int i = 0; i < 5; ++i)
    log.add({static_cast<double>(i), i, Severity::info, std::string("e").append(std::to_string(i))});
  ASSERT_EQ(log.events().size(), 3u);
  EXPECT_EQ(log.events().front().text, "e2");
  EXPECT_EQ(log.total_added(), 5u);
}

TEST(EventLogTest, FormatsForThePanelAndJson) {
  Event e{12.4, 310, Severity::warning, "camera moved"};
  EXPECT_NE(format_event(e).find("12.40 s"), std::string::npos);
  EXPECT_NE(format_event(e).find("#310"), std::string::npos);
  EXPECT_NE(format_event(e).find("WARNING: camera moved"), std::string::npos);
  nlohmann::json j = to_json(e);
  EXPECT_EQ(j["severity"], "warning");
  EXPECT_EQ(j["frame"], 310);
  EXPECT_FALSE(to_json(Event{1, -1, Severity::info, "x"}).contains("frame"));
}

}  // namespace
}  // namespace diskref::ui
