// A hall of tables through a real MQTT broker (Debian's mosquitto, on loopback): several `diskref
// referee` runs of the sample game under different table names publish to it, `diskref hall`
// follows them, and headless chromium shows the hall page. The broker is then killed and started
// again: the referees go on refereeing (their logs the same as without any of this), each says
// the loss and the return once, the overlay's status says the broker is lost while it is, and the
// state made after the restart reaches the hall page.
#include <httplib.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include <condition_variable>
#include <fstream>
#include <mutex>
#include <regex>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "child_process.h"
#include "headless_chromium.h"
#include "mosquitto_broker.h"
#include "net/mqtt_connection.h"
#include "raw_http.h"
#include "referee_feed_run.h"
#include "sse_events.h"
#include "tests/support/free_port.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

std::string text_of(const std::filesystem::path& f) {
  std::ifstream in(f);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

int count_of(const std::string& text, const std::string& part) {
  int n = 0;
  for (auto at = text.find(part); at != std::string::npos; at = text.find(part, at + 1)) ++n;
  return n;
}

using Broker = MosquittoBroker;

std::string mqtt_status(int port) {
  httplib::Client c("127.0.0.1", port);
  auto r = c.Get("/feed/v1/snapshot");
  if (!r) return "no answer";
  const nlohmann::json s = nlohmann::json::parse(r->body);
  return s["status"].is_null() ? "none" : s["status"].value("mqtt", "");
}

// Follows a referee's live feed, from now on, until its status says the broker is lost and then
// until it has refereed `frames` more frames: the game going on while the broker is away. False
// if the feed ended first (or said nothing for 30 s, a failure's bound).
bool refereed_on_without_the_broker(int overlay_port, int frames) {
  httplib::Client feed("127.0.0.1", overlay_port);
  feed.set_read_timeout(30s);
  std::string received;
  bool lost = false;
  int refereed = 0;
  const auto seen = [&] { return lost && refereed >= frames; };
  feed.Get("/feed/v1/events", [&](const char* data, std::size_t n) {
    received.append(data, n);
    for (const SseEvent& e : take_sse_events(received)) {
      if (e.type == "snapshot" && e.data["status"].is_object()) lost = e.data["status"].value("mqtt", "") == "lost";
      if (e.type == "status") lost = e.data.value("mqtt", "") == "lost";
      if (e.type == "table" && lost) ++refereed;
    }
    return !seen();  // false: enough seen, the stream is closed
  });
  return seen();
}

TEST(Hall, SeveralTablesThroughARealBrokerThatIsKilledAndRestarted) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("diskref-hall-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  ChildProcess reference(diskref_program(),
                         skirmish_referee_args(dir / "reference.json") + std::vector<std::string>{"--quiet"},
                         dir / "reference.log");
  ASSERT_EQ(reference.wait(60s), 0) << reference.log_text();

  HeadlessChromium browser(1280, 800, dir);  // first: its start is the slow part
  Broker broker(dir, testing::free_loopback_port());
  broker.start();
  ChildProcess hall(diskref_program(), {"hall", "--mqtt", broker.address(), "--serve", "0"}, dir / "hall.log");
  const auto hall_url = hall.wait_for_log(std::regex(R"(the hall page: (http://127\.0\.0\.1:\d+/))"), 20s);
  ASSERT_TRUE(hall_url) << hall.log_text();

  // table-a lives through the broker's death; table-b and table-c end before it.
  const std::vector<std::pair<std::string, std::string>> tables{
      {"table-a", "1.5"}, {"table-b", "6"}, {"table-c", "10"}};
  std::vector<std::unique_ptr<ChildProcess>> referees;
  for (const auto& [name, speed] : tables)
    referees.push_back(std::make_unique<ChildProcess>(
        diskref_program(),
        skirmish_referee_args(dir / (name + ".json")) + std::vector<std::string>{"--mqtt", broker.address(),
                                                                                 "--table-name", name, "--realtime",
                                                                                 "--speed", speed, "--serve", "0"},
        dir / (name + ".log")));
  const auto overlay_port = referees[0]->wait_for_log(std::regex(R"(http://127\.0\.0\.1:(\d+)/ \(overlay\))"), 20s);
  ASSERT_TRUE(overlay_port) << referees[0]->log_text();

  browser.navigate(*hall_url);
  ASSERT_TRUE(browser.wait_until("window.diskref.tables === 3", 15s)) << hall.log_text();
  ASSERT_TRUE(browser.wait_until("document.querySelectorAll('[data-table] [data-ship]').length === 6", 10s));
  {
    browser.evaluate("window.diskref.hold = true");  // the page still while it is looked at
    const cv::Mat shot = cv::imdecode(browser.screenshot_png(), cv::IMREAD_COLOR);
    ASSERT_EQ(shot.cols, 1280);
    if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR")) cv::imwrite(std::string(keep) + "/hall.png", shot);
    // Three cards, each with its table drawn: the felt's green is on the page. A table whose
    // referee has already ended (a slow machine) shows its card faded: the felt seen through the
    // card's opacity over the page's background (#202428).
    const nlohmann::json felt = browser.evaluate(
        "[...document.querySelectorAll('[data-table] svg rect')].map(r => { const b = r.getBoundingClientRect(); "
        "return [b.x + 8, b.y + 8, Number(getComputedStyle(r.closest('[data-table]')).opacity)]; })");
    ASSERT_EQ(felt.size(), 3u);
    for (const nlohmann::json& p : felt) {
      const cv::Vec3b c = shot.at<cv::Vec3b>(p[1].get<int>(), p[0].get<int>());
      const double a = p[2].get<double>();
      const auto seen = [a](int felt_channel, int page_channel) { return a * felt_channel + (1 - a) * page_channel; };
      EXPECT_NEAR(c[2], seen(0x1b, 0x20), 6);
      EXPECT_NEAR(c[1], seen(0x5e, 0x24), 6);
      EXPECT_NEAR(c[0], seen(0x20, 0x28), 6);
    }
    browser.evaluate("window.diskref.hold = false");
  }

  // The broker dies while table-a plays, and stays away until what the outage is for has been
  // seen: table-a's overlay says the broker is lost and table-a goes on refereeing without it (a
  // second of its video, 30 frames, while it tries to reach the broker again), and the hall page
  // says it is lost.
  ASSERT_TRUE(referees[0]->running());
  broker.kill();
  ASSERT_TRUE(refereed_on_without_the_broker(std::stoi(*overlay_port), 30)) << referees[0]->log_text();
  EXPECT_EQ(mqtt_status(std::stoi(*overlay_port)), "lost");
  ASSERT_TRUE(browser.wait_until("window.diskref.broker === 'lost'", 15s)) << hall.log_text();
  EXPECT_EQ(browser.evaluate("document.getElementById('broker').textContent").get<std::string>().find("broker lost"),
            0u);
  broker.start();
  ASSERT_TRUE(browser.wait_until("window.diskref.broker === 'connected'", 15s)) << hall.log_text();

  for (auto& r : referees) ASSERT_EQ(r->wait(40s), 0) << r->log_text();
  // What table-a ruled after the restart reached the hall: its last entry.
  const nlohmann::json log_a = read_json(dir / "table-a.json");
  const std::string last_a = std::to_string(log_a["log"].size() - 1);
  EXPECT_TRUE(browser.wait_until(
      "document.querySelector('[data-table=\"table-a\"] .ruling').dataset.entry === '" + last_a + "'", 10s));
  EXPECT_EQ(mqtt_status(std::stoi(*overlay_port)), "no answer");  // it ended, as it should
  // Every referee has ended: the hall says all three are offline (table-a said so itself; table-b
  // and table-c ended while the broker was away, or before it died and came back empty).
  EXPECT_TRUE(browser.wait_until("document.querySelectorAll('[data-table].offline').length === 3", 10s));

  // Refereeing never stopped: every table's log is the game's, as without the network.
  const std::string expected = text_of(dir / "reference.json");
  for (const auto& [name, speed] : tables) EXPECT_EQ(text_of(dir / (name + ".json")), expected) << name;
  // Each said the loss once and the return once.
  const std::string said = referees[0]->log_text();
  EXPECT_EQ(count_of(said, "is lost"), 1) << said;
  EXPECT_EQ(count_of(said, "is back; the table's state is sent again"), 1) << said;
  EXPECT_EQ(count_of(hall.log_text(), "is lost"), 1) << hall.log_text();
  hall.kill_now();
  broker.kill();
  std::filesystem::remove_all(dir);
}

// Whatever anyone who can publish to the broker sends, the hall page shows each table on its own
// card: names and texts with markup are shown as text (no element is made of them), a state of
// the wrong shape, too deep, too large or not JSON says so on its card alone, and the good tables
// are drawn as usual.
TEST(Hall, HostileStatesAreShownAsTextOrAsBrokenOnTheirOwnCards) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("diskref-hall-hostile-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  HeadlessChromium browser(1280, 800, dir);
  Broker broker(dir, testing::free_loopback_port());
  broker.start();
  ChildProcess hall(diskref_program(), {"hall", "--mqtt", broker.address(), "--serve", "0"}, dir / "hall.log");
  const auto hall_url = hall.wait_for_log(std::regex(R"(the hall page: (http://127\.0\.0\.1:\d+/))"), 20s);
  ASSERT_TRUE(hall_url) << hall.log_text();

  std::mutex mutex;
  std::condition_variable up_changed;
  bool up = false;
  net::MqttConnection::Callbacks callbacks;
  callbacks.on_up = [&] {
    std::lock_guard lock(mutex);
    up = true;
    up_changed.notify_all();
  };
  const auto colon = broker.address().find(':');
  net::MqttConnection attacker(net::Endpoint{"127.0.0.1", std::stoi(broker.address().substr(colon + 1))}, "attacker",
                               net::MqttWill{}, {}, callbacks);
  {
    std::unique_lock lock(mutex);
    ASSERT_TRUE(up_changed.wait_for(lock, 10s, [&] { return up; }));
  }
  const std::string markup = "<img src=x onerror=\"window.pwned=1\"><b>bold</b>";
  // A topic level has no "/": a name's markup has no closing tag.
  const std::string name_markup = "<img src=x onerror=\"window.pwned=3\"><b>bold";
  const nlohmann::json good = {{"feed", 1},
                               {"type", "state"},
                               {"setup", {{"play_area_mm", {900, 600}}, {"disks", nlohmann::json::array()}}},
                               {"game",
                                {{"turn", {{"turn", 2}, {"step", markup}}},
                                 {"ships",
                                  {{{"id", markup},
                                    {"controller", "<script>window.pwned=2</script>"},
                                    {"shields", 1},
                                    {"max_shields", 2},
                                    {"hull", 3},
                                    {"max_hull", 4}}}}}},
                               {"last_ruling", {{"entry", 4}, {"t", 12.5}, {"text", markup}}}};
  const std::vector<std::pair<std::string, std::string>> states = {
      {"a-good", good.dump()},
      {name_markup, good.dump()},  // a name with markup
      {"c-ships-a-number", R"({"type": "state", "game": {"turn": {"turn": 1}, "ships": 5}})"},
      {"d-disks-a-number", R"({"type": "state", "setup": {"play_area_mm": "big", "disks": 3}, "frame": {"disks": 7}})"},
      {"e-game-a-number", R"({"type": "state", "game": 5})"},
      {"f-deep", std::string(100000, '[') + std::string(100000, ']')},
      {"g-not-json", "{\"type\": "},
      // Over the hall's 256 KiB, under the packet it asks the broker for at most (which drops a
      // larger one for it: hall_broker_test.cpp): read, and refused.
      {"h-too-large", "{\"x\": \"" + std::string(256 * 1024 + 100, 'a') + "\"}"},
      {"i-ruling-odd", R"({"type": "state", "last_ruling": {"t": "soon", "text": {"a": 1}, "entry": "x"}})"},
      {"z-good", good.dump()}};
  for (const auto& [name, payload] : states) {
    ASSERT_TRUE(attacker.publish("diskref/tables/" + name + "/state", payload, true)) << name;
    ASSERT_TRUE(attacker.publish("diskref/tables/" + name + "/online", "true", true)) << name;
  }
  browser.navigate(*hall_url);
  ASSERT_TRUE(browser.wait_until("window.diskref.tables === " + std::to_string(states.size()), 15s)) << hall.log_text();
  // Every hall_table message has reached the page (the good ones drawn with their ship).
  ASSERT_TRUE(browser.wait_until("document.querySelectorAll('[data-table] [data-ship]').length === 3", 10s))
      << browser.evaluate("document.body.innerText").dump();
  // No element was made of what was sent; nothing it held ran.
  EXPECT_EQ(browser.evaluate("document.querySelectorAll('img, b, script:not([src])').length"), 0);
  EXPECT_TRUE(browser.evaluate("window.pwned === undefined").get<bool>());
  // The name with markup is a card of its own, titled with that text.
  EXPECT_EQ(browser.evaluate("[...document.querySelectorAll('[data-table]')].filter(c => c.dataset.table === " +
                             nlohmann::json(name_markup).dump() + ").length"),
            1);
  // Each bad table says so on its card; the good ones do not.
  for (const char* bad : {"e-game-a-number", "f-deep", "g-not-json", "h-too-large"})
    EXPECT_TRUE(
        browser.evaluate(std::string("!!document.querySelector('[data-table=\"") + bad + "\"] .error')").get<bool>())
        << bad;
  for (const char* fine : {"a-good", "z-good"})
    EXPECT_FALSE(
        browser.evaluate(std::string("!!document.querySelector('[data-table=\"") + fine + "\"] .error')").get<bool>())
        << fine;
  // The one whose disks are a number cannot be drawn: its card says so (the page's code caught it).
  EXPECT_TRUE(browser.evaluate("!!document.querySelector('[data-table=\"d-disks-a-number\"] .error')").get<bool>());
  EXPECT_EQ(
      browser.evaluate("document.querySelector('[data-table=\"a-good\"] .ruling').textContent").get<std::string>(),
      "12.5 s: " + markup);
  hall.kill_now();
  broker.kill();
  std::filesystem::remove_all(dir);
}

// Opened beyond loopback, the hall prints its address with a token and a QR code of it, and
// answers only requests that carry the token; --serve-public opens the read-only pages.
TEST(Hall, BeyondLoopbackATokenIsPrintedAndRequired) {
  const std::filesystem::path dir =
      std::filesystem::temp_directory_path() / ("diskref-hall-token-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  for (const bool open : {false, true}) {
    std::vector<std::string> args{"hall", "--mqtt", "127.0.0.1:1", "--serve", "0.0.0.0:0"};
    if (open) args.push_back("--serve-public");
    ChildProcess hall(diskref_program(), args, dir / (open ? "public.log" : "token.log"));
    const auto said = hall.wait_for_log(std::regex(R"(the hall page: https?://[^:]+:(\d+)/)"), 20s);
    ASSERT_TRUE(said) << hall.log_text();
    const int port = std::stoi(*said);
    const auto token = hall.wait_for_log(std::regex(R"(\?token=([0-9a-f]{64}))"), 5s);
    ASSERT_TRUE(token) << hall.log_text();
    ASSERT_TRUE(hall.wait_for_log(std::regex("█"), 5s)) << "no QR code:\n" << hall.log_text();
    const auto status_of = [&](const std::string& target) {
      return exchange(port, "GET " + target + " HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", 5s)
          .substr(0, 12);
    };
    EXPECT_EQ(status_of("/"), open ? "HTTP/1.1 200" : "HTTP/1.1 401");
    EXPECT_EQ(status_of("/feed/v1/snapshot"), open ? "HTTP/1.1 200" : "HTTP/1.1 401");
    EXPECT_EQ(status_of("/?token=" + *token), "HTTP/1.1 200");
    hall.kill_now();
  }
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace diskref::testing
