#include "net/problem_reports.h"

#include <thread>
#include <vector>

#include <gtest/gtest.h>

namespace diskref::net {
namespace {

TEST(ProblemReports, EachKindIsSaidOnceHoweverOftenItHappens) {
  std::vector<std::string> said;
  ProblemReports r([&](const std::string& text) { said.push_back(text); });
  for (int i = 0; i < 50; ++i) r.report("bad_request_400", "bad request " + std::to_string(i));
  r.report("slow_client", "slow");
  ASSERT_EQ(said.size(), 2u);
  EXPECT_EQ(said[0], "bad request 0");
  EXPECT_EQ(said[1], "slow");
  EXPECT_EQ(r.count("bad_request_400"), 50);
  EXPECT_EQ(r.count("never"), 0);
}

TEST(ProblemReports, AStateIsSaidAtEachChangeOnly) {
  std::vector<std::string> said;
  ProblemReports r([&](const std::string& text) { said.push_back(text); });
  for (const char* s : {"broker lost", "broker lost", "broker back", "broker back", "broker lost"}) r.state("mqtt", s);
  EXPECT_EQ(said, (std::vector<std::string>{"broker lost", "broker back", "broker lost"}));
}

TEST(ProblemReports, ThreadsReportingAtOnceAreSaidOnce) {
  int said = 0;
  ProblemReports r([&](const std::string&) { ++said; });  // the sink is called once: no race on said
  std::vector<std::thread> threads;
  for (int t = 0; t < 8; ++t)
    threads.emplace_back([&] {
      for (int i = 0; i < 200; ++i) r.report("stalled_client", "stalled");
    });
  for (std::thread& t : threads) t.join();
  EXPECT_EQ(said, 1);
  EXPECT_EQ(r.count("stalled_client"), 1600);
}

}  // namespace
}  // namespace diskref::net
