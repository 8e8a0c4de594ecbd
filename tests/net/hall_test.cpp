// The hall (net/hall.h) fed as the broker would feed it, by anyone who can publish: a state of
// the wrong shape, one nested 100,000 deep, one not JSON, one too large, more tables than the
// hall takes, a table updated a hundred times. Each bad table is shown as such on its own, the
// others are untouched, the hall keeps one state a table and publishes only what changed.
#include "net/hall.h"

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "net/feed_hub.h"

namespace diskref::net {
namespace {

// A table's state as a referee publishes it (spec §10.4), smaller.
std::string state_text(int turn) {
  return nlohmann::json{
      {"feed", 1},
      {"type", "state"},
      {"setup", {{"play_area_mm", {900, 600}}, {"disks", nlohmann::json::array()}}},
      {"frame", nullptr},
      {"game", {{"turn", {{"turn", turn}, {"step", "movement"}}}, {"ships", nlohmann::json::array()}}},
      {"last_ruling", nullptr}}
      .dump();
}

class HallTest : public ::testing::Test {
 protected:
  // No broker listens on port 1: the hall keeps trying in the background, which is not tested here.
  std::unique_ptr<Hall> make(HallLimits limits = {}) {
    return std::make_unique<Hall>(Endpoint{"127.0.0.1", 1}, "diskref/tables", hub_, problems_, limits);
  }
  std::map<std::string, nlohmann::json> tables_in_snapshot() {
    std::map<std::string, nlohmann::json> out;
    const nlohmann::json snapshot = hub_.snapshot().message;
    for (const nlohmann::json& t : snapshot["hall_tables"]) out[t["name"]] = t;
    return out;
  }
  FeedHub hub_;
  std::vector<std::string> said_;
  ProblemReports problems_{[this](const std::string& line) { said_.push_back(line); }};
};

TEST_F(HallTest, EachBadTableIsShownAsSuchAndTheOthersAreUntouched) {
  auto hall = make();
  hall->take("diskref/tables/a-good/state", state_text(3));
  hall->take("diskref/tables/b-shape/state", R"({"type": "state", "game": 5, "frame": {"disks": 7}})");
  hall->take("diskref/tables/c-deep/state", std::string(100000, '[') + std::string(100000, ']'));
  hall->take("diskref/tables/d-not-json/state", "{\"type\": \"state\", \"game\": ");
  hall->take("diskref/tables/e-large/state", "{\"x\": \"" + std::string(300 * 1024, 'a') + "\"}");
  hall->take("diskref/tables/f-array/state", "[1, 2, 3]");
  hall->take("diskref/tables/z-good/state", state_text(5));
  hall->settle();
  std::map<std::string, nlohmann::json> t = tables_in_snapshot();
  ASSERT_EQ(t.size(), 7u);
  EXPECT_EQ(t["a-good"]["state"]["game"]["turn"]["turn"], 3);
  EXPECT_EQ(t["z-good"]["state"]["game"]["turn"]["turn"], 5);
  EXPECT_FALSE(t["a-good"].contains("error"));
  for (const char* bad : {"b-shape", "c-deep", "d-not-json", "e-large", "f-array"}) {
    EXPECT_TRUE(t[bad]["state"].is_null()) << bad;
    EXPECT_FALSE(t[bad].value("error", "").empty()) << bad;
  }
  EXPECT_NE(t["b-shape"]["error"].get<std::string>().find("\"game\" is not an object"), std::string::npos);
  EXPECT_NE(t["c-deep"]["error"].get<std::string>().find("nest deeper than"), std::string::npos);
  EXPECT_NE(t["e-large"]["error"].get<std::string>().find("more than the 262144"), std::string::npos);
  // A good state after a bad one is shown again.
  hall->take("diskref/tables/b-shape/state", state_text(9));
  hall->settle();
  t = tables_in_snapshot();
  EXPECT_EQ(t["b-shape"]["state"]["game"]["turn"]["turn"], 9);
  EXPECT_FALSE(t["b-shape"].contains("error"));
}

TEST_F(HallTest, OneCurrentStateATableAndOnlyWhatChangedIsPublished) {
  auto hall = make();
  for (const char* name : {"t1", "t2", "t3"}) {
    hall->take(std::string("diskref/tables/") + name + "/online", "true");
    hall->take(std::string("diskref/tables/") + name + "/state", state_text(1));
  }
  hall->settle();
  const long long before = hub_.snapshot().seq;
  for (int turn = 2; turn <= 120; ++turn) hall->take("diskref/tables/t2/state", state_text(turn));
  hall->settle();
  const FeedHub::Batch b = hub_.wait_after(before, std::chrono::milliseconds(0));
  ASSERT_FALSE(b.events.empty());
  for (const auto& e : b.events) {
    // Only t2's state, never the whole hall, and no "hall" message (its list did not change).
    EXPECT_EQ(e->type, "hall_table");
    EXPECT_EQ(nlohmann::json::parse(e->data)["name"], "t2");
  }
  EXPECT_LE(b.events.size(), 119u);  // updates not yet taken are replaced by the newer one
  const auto t = tables_in_snapshot();
  ASSERT_EQ(t.size(), 3u);
  EXPECT_EQ(t.at("t2")["state"]["game"]["turn"]["turn"], 120);
  // Going offline changes the hall's list: one "hall" message.
  const long long then = hub_.snapshot().seq;
  hall->take("diskref/tables/t1/online", "false");
  hall->settle();
  const FeedHub::Batch off = hub_.wait_after(then, std::chrono::milliseconds(0));
  ASSERT_EQ(off.events.size(), 1u);
  EXPECT_EQ(off.events[0]->type, "hall");
  EXPECT_EQ(nlohmann::json::parse(off.events[0]->data)["tables"][0]["online"], false);
}

TEST_F(HallTest, MoreTablesThanTheHallTakesAreIgnoredAndSaidOnce) {
  HallLimits limits;
  limits.max_tables = 5;
  auto hall = make(limits);
  for (int i = 0; i < 12; ++i) hall->take("diskref/tables/t" + std::to_string(10 + i) + "/state", state_text(i));
  hall->take("diskref/tables/" + std::string(100, 'n') + "/state", state_text(1));  // a name too long
  hall->settle();
  EXPECT_EQ(tables_in_snapshot().size(), 5u);
  EXPECT_EQ(hub_.snapshot().message["hall"]["tables"].size(), 5u);
  EXPECT_EQ(problems_.count("hall_too_many_tables"), 7);
  int said = 0;
  for (const std::string& line : said_) said += line.find("more than 5 tables") != std::string::npos;
  EXPECT_EQ(said, 1);
  EXPECT_EQ(problems_.count("hall_long_name"), 1);
}

TEST_F(HallTest, WhatATableNameOrTopicHoldsIsEscapedBeforeItIsSaid) {
  auto hall = make();
  hall->take("diskref/tables/\x1b[2Jevil\r\n/state", "not json");
  hall->settle();
  bool found = false;
  for (const std::string& line : said_) {
    if (line.find("evil") == std::string::npos) continue;
    found = true;
    for (const char c : line) EXPECT_FALSE(static_cast<unsigned char>(c) < 0x20) << line;
  }
  EXPECT_TRUE(found);
}

TEST(FeedHubBytes, TheRingIsBoundedInBytesAndAReaderOutOfItIsToldSo) {
  FeedHub hub(2048, 2000);
  for (int i = 0; i < 20; ++i) hub.publish({{"type", "hall_table"}, {"name", "t"}, {"pad", std::string(300, 'x')}});
  EXPECT_TRUE(hub.wait_after(0, std::chrono::milliseconds(0)).fell_behind);
  const FeedHub::Batch recent = hub.wait_after(18, std::chrono::milliseconds(0));
  EXPECT_FALSE(recent.fell_behind);
  EXPECT_EQ(recent.events.size(), 2u);
  // The snapshot shares one text among the readers until something new is published.
  const FeedHub::SnapshotText a = hub.snapshot_text(), b = hub.snapshot_text();
  EXPECT_EQ(a.text.get(), b.text.get());
  hub.publish({{"type", "status"}});
  EXPECT_NE(hub.snapshot_text().text.get(), a.text.get());
}

}  // namespace
}  // namespace diskref::net
