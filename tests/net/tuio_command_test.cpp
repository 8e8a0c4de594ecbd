// `diskref referee --tuio` end to end: the sample game refereed from its truth, a real OSC
// receiver (liblo) in the test listening where it sends; what arrives is what the truth says.
#include <lo/lo.h>
#include <nlohmann/json.hpp>

#include "osc_args.h"

#include <array>
#include <cmath>
#include <map>
#include <numbers>
#include <set>

#include <gtest/gtest.h>

#include "child_process.h"
#include "referee_feed_run.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

struct Seen {
  std::vector<int> fseq;
  std::map<int, int> symbol_of_session;      // session -> the last symbol seen for it
  std::vector<std::array<float, 3>> places;  // x y a of every set
  std::string source;
};

int on_2dobj(const char*, const char* types, lo_arg** argv, int argc, lo_message, void* data) {
  auto* s = static_cast<Seen*>(data);
  if (argc < 1 || types[0] != 's') return 0;
  const std::string command = testing::osc_string(argv[0]);
  if (command == "fseq") s->fseq.push_back(testing::osc_int(argv[1]));
  if (command == "source") s->source = testing::osc_string(argv[1]);
  if (command == "set" && argc == 11) {
    s->symbol_of_session[testing::osc_int(argv[1])] = testing::osc_int(argv[2]);
    s->places.push_back({testing::osc_float(argv[3]), testing::osc_float(argv[4]), testing::osc_float(argv[5])});
  }
  return 0;
}

TEST(TuioCommand, AReceiverSeesTheSampleGamesDisksWithTheirTags) {
  lo_server server = lo_server_new(nullptr, nullptr);
  Seen seen;
  lo_server_add_method(server, "/tuio/2Dobj", nullptr, on_2dobj, &seen);
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("diskref-tuio-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ChildProcess run(diskref_program(),
                   skirmish_referee_args(dir / "log.json") +
                       std::vector<std::string>{"--tuio", "127.0.0.1:" + std::to_string(lo_server_get_port(server)),
                                                "--table-name", "t9", "--realtime", "--speed", "10", "--quiet"},
                   dir / "referee.log");
  while (run.running()) lo_server_recv_noblock(server, 50);
  while (lo_server_recv_noblock(server, 200) > 0) {
  }
  lo_server_free(server);
  ASSERT_EQ(run.wait(1s), 0) << run.log_text();

  EXPECT_EQ(seen.source, "diskref@t9");
  ASSERT_GT(seen.fseq.size(), 50u);  // 3 s of game at 30 bundles a second (UDP may drop a few)
  for (std::size_t i = 1; i < seen.fseq.size(); ++i) EXPECT_GT(seen.fseq[i], seen.fseq[i - 1]);
  // Every symbol is a tag of the registry; both ships' are there; the torpedo's too, each on
  // sessions of its own.
  std::map<int, std::string> tag_owner;
  const nlohmann::json registry = read_json(skirmish() / "disks.json");
  for (const nlohmann::json& d : registry["disks"])
    for (const nlohmann::json& t : d["tags"]) tag_owner[t["id"].get<int>()] = d["name"].get<std::string>();
  std::set<std::string> disks_seen;
  for (const auto& [session, symbol] : seen.symbol_of_session) {
    ASSERT_TRUE(tag_owner.contains(symbol)) << symbol;
    disks_seen.insert(tag_owner[symbol]);
  }
  EXPECT_TRUE(disks_seen.contains("enterprise"));
  EXPECT_TRUE(disks_seen.contains("tderet"));
  EXPECT_TRUE(disks_seen.contains("torpedo-1"));
  EXPECT_GE(seen.symbol_of_session.size(), 3u);  // the torpedo came and went: a session of its own
  for (const auto& p : seen.places) {
    EXPECT_GE(p[0], 0.0f);
    EXPECT_LE(p[0], 1.0f);
    EXPECT_GE(p[1], 0.0f);
    EXPECT_LE(p[1], 1.0f);
    EXPECT_GE(p[2], 0.0f);
    EXPECT_LT(p[2], 2 * std::numbers::pi_v<float> + 1e-6f);
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace diskref::testing
