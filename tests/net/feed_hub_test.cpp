#include "net/feed_hub.h"

#include <thread>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

namespace diskref::net {
namespace {

nlohmann::json msg(const std::string& type, int n) {
  return {{"type", type}, {"n", n}};
}

TEST(FeedHub, MessagesAreNumberedAndStampedInOrder) {
  FeedHub hub;
  const long long before = unix_time_ms();
  hub.publish(msg("table", 1));
  hub.publish(msg("ruling", 2));
  FeedHub::Batch b = hub.wait_after(0, std::chrono::milliseconds(0));
  ASSERT_EQ(b.events.size(), 2u);
  EXPECT_EQ(b.events[0]->seq, 1);
  EXPECT_EQ(b.events[1]->seq, 2);
  EXPECT_EQ(b.events[1]->type, "ruling");
  const nlohmann::json second = nlohmann::json::parse(b.events[1]->data);
  EXPECT_EQ(second["n"], 2);
  EXPECT_GE(second["sent_ms"].get<long long>(), before);
  EXPECT_TRUE(hub.wait_after(2, std::chrono::milliseconds(0)).events.empty());
}

TEST(FeedHub, TheSnapshotHoldsTheLatestStateAndEveryRuling) {
  FeedHub hub;
  hub.publish({{"type", "setup"}, {"table", "t7"}});
  hub.publish(msg("table", 1));
  hub.publish({{"type", "ruling"}, {"entry", 0}, {"text", "a"}});
  hub.publish(msg("table", 2));
  hub.publish({{"type", "ruling"}, {"entry", 1}, {"text", "b"}});
  const FeedHub::Snapshot s = hub.snapshot();
  EXPECT_EQ(s.seq, 5);
  EXPECT_EQ(s.message["table"], "t7");
  EXPECT_EQ(s.message["frame"]["n"], 2);
  ASSERT_EQ(s.message["rulings"].size(), 2u);
  EXPECT_EQ(s.message["rulings"][1]["text"], "b");
  hub.forget_rulings();
  EXPECT_TRUE(hub.snapshot().message["rulings"].empty());
}

TEST(FeedHub, AReaderThatFellOutOfTheRingIsToldSo) {
  FeedHub hub(4);
  for (int i = 0; i < 10; ++i) hub.publish(msg("table", i));
  EXPECT_TRUE(hub.wait_after(2, std::chrono::milliseconds(0)).fell_behind);
  const FeedHub::Batch recent = hub.wait_after(6, std::chrono::milliseconds(0));
  EXPECT_FALSE(recent.fell_behind);
  ASSERT_EQ(recent.events.size(), 4u);
  EXPECT_EQ(recent.events.front()->seq, 7);
}

TEST(FeedHub, AWaitingReaderWakesForAMessageAndForTheClose) {
  FeedHub hub;
  long long seen = 0;
  std::thread reader([&] {
    const FeedHub::Batch b = hub.wait_after(0, std::chrono::seconds(20));
    if (!b.events.empty()) seen = b.events.back()->seq;
  });
  hub.publish(msg("ruling", 1));
  reader.join();
  EXPECT_EQ(seen, 1);
  bool closed = false;
  std::thread closer_waiter([&] { closed = hub.wait_after(1, std::chrono::seconds(20)).closed; });
  hub.close();
  closer_waiter.join();
  EXPECT_TRUE(closed);
}

}  // namespace
}  // namespace diskref::net
