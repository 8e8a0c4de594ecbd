// The live feed of a running `diskref referee`, as its clients receive it: the stream carries
// every ruling the log records, and clients that misbehave (nonsense, never reading, a hundred at
// once) cost the referee nothing: its log is the same, byte for byte, as without the feed, and
// each problem is reported once.
#include <httplib.h>

#include <algorithm>
#include <map>
#include <regex>
#include <sstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "child_process.h"
#include "raw_http.h"
#include "referee_feed_run.h"
#include "sse_events.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

class LiveFeedTest : public ::testing::Test {
 protected:
  static inline std::filesystem::path dir_;
  static inline std::string reference_log_;  // the log of the same game without the feed

  static void SetUpTestSuite() {
    dir_ = std::filesystem::temp_directory_path() / ("diskref-feed-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    ChildProcess plain(diskref_program(),
                       skirmish_referee_args(dir_ / "reference.json") + std::vector<std::string>{"--quiet"},
                       dir_ / "reference.log");
    ASSERT_EQ(plain.wait(60s), 0) << plain.log_text();
    reference_log_ = file_text(dir_ / "reference.json");
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(dir_); }

  static std::string file_text(const std::filesystem::path& f) {
    std::ifstream in(f);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
  }
  static int count_of(const std::string& text, const std::string& part) {
    int n = 0;
    for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
    return n;
  }
  // Starts the referee serving on a free loopback port; returns the port.
  static int port_of(const ChildProcess& run) {
    const auto port = run.wait_for_log(std::regex(R"(http://127\.0\.0\.1:(\d+)/ \(overlay\))"), 20s);
    if (!port) throw std::runtime_error("diskref referee did not say where it serves:\n" + run.log_text());
    return std::stoi(*port);
  }
};

TEST_F(LiveFeedTest, TheStreamCarriesEveryRulingTheLogRecords) {
  const std::filesystem::path log = dir_ / "served.json";
  ChildProcess run(diskref_program(),
                   skirmish_referee_args(log) + std::vector<std::string>{"--serve", "0", "--realtime", "--speed", "8",
                                                                         "--table-name", "table-7", "--story"},
                   dir_ / "served.log");
  const int port = port_of(run);
  httplib::Client client("127.0.0.1", port);
  client.set_read_timeout(30s);
  std::string stream;
  client.Get("/feed/v1/events", [&](const char* data, std::size_t n) {
    stream.append(data, n);
    return true;
  });  // returns when the referee ends and its server closes the stream
  ASSERT_EQ(run.wait(30s), 0) << run.log_text();

  // The recording is what it is without the feed.
  EXPECT_EQ(file_text(log), reference_log_);

  const std::vector<SseEvent> events = parse_sse(stream);
  ASSERT_FALSE(events.empty());
  EXPECT_EQ(events.front().type, "snapshot");
  std::map<std::size_t, nlohmann::json> rulings;
  for (const nlohmann::json& r : events.front().data["rulings"]) rulings[r["entry"]] = r;
  long long last_seq = events.front().data["seq"];
  int frames = 0;
  for (const SseEvent& e : events) {
    if (e.type == "snapshot") continue;
    EXPECT_EQ(e.data["feed"], 1);
    EXPECT_EQ(e.data["table"], "table-7");
    EXPECT_EQ(e.data["seq"].get<long long>(), last_seq + 1) << "a message was skipped";
    last_seq = e.data["seq"];
    if (e.type == "ruling") rulings[e.data["entry"]] = e.data;
    if (e.type == "table") ++frames;
  }
  EXPECT_GT(frames, 50);

  // Every entry of the log, in order, with its time and its text (the --story lines).
  const nlohmann::json written = read_json(log);
  ASSERT_EQ(rulings.size(), written["log"].size());
  std::vector<std::string> story;
  std::smatch m;
  const std::string out = run.log_text();
  const std::regex story_line(R"((^|\n) *\d+\.\d\d s  ([^\n]*))");
  for (std::sregex_iterator it(out.begin(), out.end(), story_line), end; it != end; ++it) story.push_back((*it)[2]);
  std::vector<std::string> fed;
  for (const auto& [number, r] : rulings) {
    EXPECT_EQ(r["t"], written["log"][number]["t"]) << "entry " << number;
    if (!r["text"].get<std::string>().empty()) fed.push_back(r["text"]);
  }
  EXPECT_EQ(fed, story);
  // Read from the table: the evidence goes with the ruling.
  EXPECT_TRUE(std::any_of(rulings.begin(), rulings.end(), [](const auto& r) {
    // (Not every observation has legal landings: a counter's has none. Looked up, not indexed: a
    // const json's [] on a missing key is undefined.)
    const nlohmann::json landings = r.second.contains("observed")
                                        ? r.second.at("observed").value("legal_landings", nlohmann::json::array())
                                        : nlohmann::json::array();
    return !landings.empty();
  }));
}

TEST_F(LiveFeedTest, BadClientsCostTheRefereeNothingAndAreEachReportedOnce) {
  const std::filesystem::path log = dir_ / "attacked.json";
  ChildProcess run(diskref_program(),
                   skirmish_referee_args(log) +
                       // Every frame on the feed (60 a second at twice real time), so that the stream
                       // soon outgrows what the kernel holds for a client that reads nothing; the feed
                       // stays open after the game long enough (8 s > the 5 s write timeout) for that
                       // client to be cut off, however late it stalled.
                       std::vector<std::string>{"--serve", "0", "--realtime", "--speed", "2", "--updates-per-s", "1000",
                                                "--linger", "8"},
                   dir_ / "attacked.log");
  const int port = port_of(run);

  // Nonsense, three times: each is refused (400), the first is reported; what is not even a
  // request line is closed without an answer.
  for (int i = 0; i < 3; ++i)
    EXPECT_EQ(exchange(port, "GET / HTTP/1.1\r\nHost 127.0.0.1\r\n\r\n", 3s).substr(0, 12), "HTTP/1.1 400");
  EXPECT_EQ(exchange(port, "GARBAGE\r\n\r\n", 3s), "");
  EXPECT_EQ(exchange(port, "GET /nothing HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 3s).substr(0, 12),
            "HTTP/1.1 404");

  // 99 clients reading the stream, one that never reads: a hundred streams at once.
  const std::string get_stream = "GET /feed/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n";
  std::vector<int> readers;
  // From several addresses (any of 127/8 is this machine): one address may hold 32 connections.
  for (int i = 0; i < 99; ++i) {
    const std::string source = "127.0.2." + std::to_string(1 + i / 20);
    readers.push_back(connect_loopback(port, 0, source.c_str()));
    send_all(readers.back(), get_stream);
  }
  const int never_reads = connect_loopback(port, 4096, "127.0.3.1");
  send_all(never_reads, get_stream);
  // Every one of the hundred is taken once its answer has begun (looked at, not read).
  for (const int socket : readers) ASSERT_TRUE(answer_begun(socket));
  ASSERT_TRUE(answer_begun(never_reads));
  // The 101st is turned away.
  EXPECT_EQ(
      exchange(port, "GET /feed/v1/events HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 3s).substr(0, 12),
      "HTTP/1.1 503");

  std::vector<std::string> received(readers.size());
  std::vector<bool> open(readers.size(), true);
  while (std::count(open.begin(), open.end(), true) > 0) {
    std::vector<pollfd> fds;
    for (std::size_t i = 0; i < readers.size(); ++i)
      if (open[i]) fds.push_back({readers[i], POLLIN, 0});
    if (::poll(fds.data(), fds.size(), 30000) <= 0) break;  // nothing for 30 s: the checks below fail
    for (const pollfd& p : fds) {
      if (!(p.revents & (POLLIN | POLLHUP | POLLERR))) continue;
      const std::size_t i = static_cast<std::size_t>(std::find(readers.begin(), readers.end(), p.fd) - readers.begin());
      char chunk[65536];
      const ssize_t n = ::recv(p.fd, chunk, sizeof chunk, 0);
      if (n <= 0) {
        open[i] = false;
        continue;
      }
      received[i].append(chunk, static_cast<std::size_t>(n));
    }
  }
  ASSERT_EQ(run.wait(30s), 0) << run.log_text();
  for (int fd : readers) ::close(fd);
  ::close(never_reads);

  // The referee refereed as if nobody had been there.
  EXPECT_EQ(file_text(log), reference_log_);
  // Every reader got the game's last ruling.
  const nlohmann::json written = read_json(log);
  const std::string last_entry = "\"entry\":" + std::to_string(written["log"].size() - 1) + ",";
  for (std::size_t i = 0; i < received.size(); ++i)
    EXPECT_NE(received[i].find(last_entry), std::string::npos) << "reader " << i;
  // The stream is longer than what the kernel holds for a client that reads nothing (its 4 KiB
  // receive buffer and our 64 KiB send buffer, each doubled by Linux): it must have stalled.
  ASSERT_GT(received.front().size(), 4u * (4096 + 64 * 1024)) << "the stream is too short to stall a client";
  // Each problem said once.
  const std::string said = run.log_text();
  EXPECT_EQ(count_of(said, "a malformed request"), 1) << said;
  EXPECT_EQ(count_of(said, "a request for /nothing from 127.0.0.1"), 1) << said;
  EXPECT_EQ(count_of(said, "streams at once"), 1) << said;
  EXPECT_EQ(count_of(said, "stopped taking its stream"), 1) << said;
}

TEST_F(LiveFeedTest, TricklingClientsDoNotHoldTheProgramPastItsLinger) {
  ChildProcess run(
      diskref_program(),
      skirmish_referee_args(dir_ / "trickled.json") +
          std::vector<std::string>{"--serve", "0", "--realtime", "--speed", "8", "--linger", "1", "--quiet"},
      dir_ / "trickled.log");
  const int port = port_of(run);
  // 150 clients, each from its own address, each with a request head it never finishes, a byte
  // at a time for as long as the program runs.
  std::vector<int> slow;
  for (int i = 0; i < 150; ++i) {
    const std::string source = "127.0.4." + std::to_string(1 + i);
    slow.push_back(connect_loopback(port, 0, source.c_str()));
    send_all(slow.back(), "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
  }
  // An honest client is answered meanwhile.
  EXPECT_EQ(exchange(port, "GET /feed/v1/snapshot HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 10s)
                .substr(0, 12),
            "HTTP/1.1 200");
  std::optional<int> exit_code;
  // Bounded: 600 rounds of a byte from each; the program ends long before (its game, then 1 s).
  // One cut at its deadline (10 s) comes back at once, so that all are open when the linger ends.
  for (int round = 0; round < 600 && !exit_code; ++round) {
    for (std::size_t i = 0; i < slow.size(); ++i) {
      if (slow[i] >= 0 && closed_by_peer(slow[i], 0ms)) {
        ::close(slow[i]);
        slow[i] = -1;
        try {
          const std::string source = "127.0.4." + std::to_string(1 + i);
          slow[i] = connect_loopback(port, 0, source.c_str());
          send_all(slow[i], "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ");
        } catch (const std::runtime_error&) {
          // the server has gone: the program is ending
        }
      }
      if (slow[i] >= 0) ::send(slow[i], "a", 1, MSG_NOSIGNAL | MSG_DONTWAIT);
    }
    exit_code = run.wait(100ms);
  }
  EXPECT_EQ(exit_code, std::optional<int>(0)) << run.log_text();
  for (int fd : slow)
    if (fd >= 0) ::close(fd);
  EXPECT_EQ(file_text(dir_ / "trickled.json"), reference_log_);
}

TEST_F(LiveFeedTest, ThePortTakenOrAnAddressNotOursIsSaidPlainly) {
  ChildProcess first(diskref_program(),
                     skirmish_referee_args(dir_ / "first.json") +
                         std::vector<std::string>{"--serve", "0", "--realtime", "--speed", "4", "--quiet"},
                     dir_ / "first.log");
  const int port = port_of(first);
  ChildProcess second(
      diskref_program(),
      skirmish_referee_args(dir_ / "second.json") + std::vector<std::string>{"--serve", std::to_string(port)},
      dir_ / "second.log");
  EXPECT_EQ(second.wait(20s), 1);
  EXPECT_NE(second.log_text().find("cannot listen on 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << second.log_text();
  EXPECT_FALSE(std::filesystem::exists(dir_ / "second.json"));
  ChildProcess bad(diskref_program(),
                   skirmish_referee_args(dir_ / "bad.json") + std::vector<std::string>{"--serve", "localhost:http"},
                   dir_ / "bad.log");
  EXPECT_EQ(bad.wait(20s), 2);
  EXPECT_NE(bad.log_text().find("--serve"), std::string::npos) << bad.log_text();
  first.kill_now();
}

// Beside the overlay, the photo page (spec §14, "From a phone") with the game's registry: a phone at
// the table settles a dispute the camera cannot see.
TEST_F(LiveFeedTest, ThePhotoPageIsOfferedBesideTheOverlayWithTheGamesDisks) {
  ChildProcess run(diskref_program(),
                   skirmish_referee_args(dir_ / "photo.json") +
                       std::vector<std::string>{"--serve", "0", "--realtime", "--speed", "2", "--linger", "20"},
                   dir_ / "photo.log");
  const auto page = run.wait_for_log(std::regex(R"(the photo page [^:]*: (http://127\.0\.0\.1:\d+/photo))"), 20s);
  ASSERT_TRUE(page) << run.log_text();
  httplib::Client client("127.0.0.1", port_of(run));
  const auto html = client.Get("/photo");
  ASSERT_TRUE(html) << "no answer";
  EXPECT_EQ(html->status, 200);
  EXPECT_NE(html->get_header_value("Content-Security-Policy").find("img-src blob:"), std::string::npos);
  const auto disks = client.Get("/photo/v1/disks");
  ASSERT_TRUE(disks);
  EXPECT_EQ(disks->status, 200);
  // Each document named: a range-for over a member of a temporary would outlive the temporary.
  const nlohmann::json offered_json = nlohmann::json::parse(disks->body);
  const nlohmann::json registry_json = read_json(skirmish() / "disks.json");
  std::vector<std::string> offered;
  for (const nlohmann::json& d : offered_json["disks"]) offered.push_back(d["name"]);
  std::vector<std::string> registry;
  for (const nlohmann::json& d : registry_json["disks"])
    if (d["kind"] != "counter" && d["kind"] != "template") registry.push_back(d["name"]);
  EXPECT_EQ(offered, registry);
  EXPECT_FALSE(offered.empty()) << disks->body;
  // What is not a photo is refused with its reason, and the referee goes on.
  const auto refused =
      client.Post("/photo/v1/ruling?question=%7B%22overlap%22%3A%7B%7D%7D", "not a photo", "image/jpeg");
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->status, 415);
  EXPECT_NE(refused->body.find("not a JPEG, PNG or WebP"), std::string::npos) << refused->body;
  run.kill_now();
}

}  // namespace
}  // namespace diskref::testing
