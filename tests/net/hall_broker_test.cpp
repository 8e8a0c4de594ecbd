// The hall (net/hall.h) against a real MQTT broker (Debian's mosquitto, on loopback), about the
// size of what it is sent: it asks the broker (MQTT v5, Maximum Packet Size) never to send a
// message larger than a state may be, so a state over the bound never reaches it, and one under it
// does. Behind a broker that refuses v5 (a v3.1.1 broker, played by a proxy in front of mosquitto
// that answers a v5 CONNECT as a v3.1.1 broker does) the hall says so once and follows the tables
// with v3.1.1: the large state then arrives and is refused as too large on its own card.
#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <map>
#include <mutex>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "mosquitto_broker.h"
#include "net/feed_hub.h"
#include "net/hall.h"
#include "net/mqtt_connection.h"
#include "tests/support/free_port.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

// A table's state (spec §10.4) padded to about `bytes`.
std::string padded_state(std::size_t bytes) {
  nlohmann::json s = {{"feed", 1}, {"type", "state"}, {"game", {{"turn", {{"turn", 1}, {"step", "movement"}}}}}};
  const std::size_t bare = s.dump().size() + std::string(R"(,"padding":"")").size();
  s["padding"] = std::string(bytes > bare ? bytes - bare : 0, 'x');
  return s.dump();
}

// The hall's latest "hall_table" message of each table, read from the hub's messages until table
// `until_table` is among them or `timeout` has passed.
std::map<std::string, nlohmann::json> hall_tables_until(const net::FeedHub& hub, const std::string& until_table,
                                                        std::chrono::milliseconds timeout) {
  const auto until = std::chrono::steady_clock::now() + timeout;
  std::map<std::string, nlohmann::json> tables;
  long long after = 0;
  while (tables.count(until_table) == 0 && std::chrono::steady_clock::now() < until) {
    const net::FeedHub::Batch batch = hub.wait_after(
        after, std::chrono::duration_cast<std::chrono::milliseconds>(until - std::chrono::steady_clock::now()));
    for (const std::shared_ptr<const net::FeedEvent>& m : batch.events) {
      after = std::max(after, m->seq);
      if (m->type != "hall_table") continue;
      nlohmann::json j = nlohmann::json::parse(m->data);
      const std::string name = j.value("name", "");
      tables[name] = std::move(j);
    }
  }
  return tables;
}

// A publisher of the tables' states (what a referee, or anyone, sends), connected before it returns.
class StatePublisher {
 public:
  explicit StatePublisher(int port) {
    net::MqttConnection::Callbacks callbacks;
    callbacks.on_up = [this] {
      std::lock_guard lock(mutex_);
      up_ = true;
      changed_.notify_all();
    };
    connection_ = std::make_unique<net::MqttConnection>(net::Endpoint{"127.0.0.1", port}, "hall-size-publisher",
                                                        net::MqttWill{}, std::vector<std::string>{}, callbacks);
    std::unique_lock lock(mutex_);
    if (!changed_.wait_for(lock, 10s, [this] { return up_; }))
      throw std::runtime_error("the publisher did not connect");
  }
  void state(const std::string& table, const std::string& payload) {
    if (!connection_->publish("diskref/tables/" + table + "/state", payload, true))
      throw std::runtime_error("could not publish " + table);
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  bool up_ = false;
  std::unique_ptr<net::MqttConnection> connection_;
};

// In front of mosquitto, a v3.1.1 broker as far as the protocol level goes: a v5 CONNECT is
// answered "unacceptable protocol version" in v3.1.1's CONNACK (20 02 00 01) and closed, as MQTT
// 3.1.1 (3.1.2.2) has it; any other connection is passed through to the broker.
class V311OnlyProxy {
 public:
  V311OnlyProxy(int listen_port, int broker_port) : broker_port_(broker_port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM, 0);
    const int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    const sockaddr_in a = loopback(listen_port);
    if (::bind(listener_, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0 || ::listen(listener_, 8) != 0)
      throw std::runtime_error("the proxy cannot listen");
    accepting_ = std::thread([this] { accept_all(); });
  }
  ~V311OnlyProxy() {
    stop_ = true;
    accepting_.join();
    for (std::thread& t : pipes_) t.join();
    ::close(listener_);
  }
  int v5_refused() const { return v5_refused_; }

 private:
  static sockaddr_in loopback(int port) {
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    return a;
  }
  // Polls `fd` for reading for up to 100 ms at a time, until it is readable or the proxy stops.
  bool readable(int fd) const {
    pollfd p{fd, POLLIN, 0};
    while (!stop_)
      if (::poll(&p, 1, 100) > 0) return true;
    return false;
  }
  void accept_all() {
    while (readable(listener_)) {
      const int client = ::accept(listener_, nullptr, nullptr);
      if (client >= 0) pipes_.emplace_back([this, client] { serve(client); });
    }
  }
  void serve(int client) {
    // The CONNECT's head: type, remaining length (1 to 4 bytes), "\0\4MQTT", the protocol level.
    std::string head;
    char c = 0;
    std::size_t level_at = 0;
    while (level_at == 0 || head.size() <= level_at) {
      if (!readable(client) || ::read(client, &c, 1) != 1) return (void)::close(client);
      head += c;
      if (head.size() >= 2 && level_at == 0 && (static_cast<unsigned char>(head.back()) & 0x80) == 0)
        level_at = head.size() + 6;
    }
    if (head[level_at] == 5) {
      ++v5_refused_;
      const char refused[] = {0x20, 0x02, 0x00, 0x01};
      (void)!::write(client, refused, sizeof refused);
      ::close(client);
      return;
    }
    const int broker = ::socket(AF_INET, SOCK_STREAM, 0);
    const sockaddr_in a = loopback(broker_port_);
    if (::connect(broker, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0 ||
        ::write(broker, head.data(), head.size()) != static_cast<ssize_t>(head.size())) {
      ::close(broker);
      ::close(client);
      return;
    }
    pollfd p[2] = {{client, POLLIN, 0}, {broker, POLLIN, 0}};
    std::vector<char> buffer(64 * 1024);
    while (!stop_) {
      if (::poll(p, 2, 100) <= 0) continue;
      bool ended = false;
      for (int i = 0; i < 2 && !ended; ++i) {
        if (p[i].revents == 0) continue;
        const ssize_t n = ::read(p[i].fd, buffer.data(), buffer.size());
        ended = n <= 0 || ::write(p[1 - i].fd, buffer.data(), static_cast<std::size_t>(n)) != n;
      }
      if (ended) break;
    }
    ::close(broker);
    ::close(client);
  }

  int listener_ = -1;
  const int broker_port_;
  std::atomic<bool> stop_{false};
  std::atomic<int> v5_refused_{0};
  std::thread accepting_;
  std::vector<std::thread> pipes_;  // only the accepting thread adds, before the destructor joins it
};

class HallAndBroker : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("diskref-hall-size-" + std::to_string(::getpid()));
    std::filesystem::create_directories(dir_);
    broker_ = std::make_unique<MosquittoBroker>(dir_, free_loopback_port());
    broker_->start();
  }
  void TearDown() override {
    broker_->kill();
    std::filesystem::remove_all(dir_);
  }
  // The hall's subscription is in place: a state published now reaches it (or is dropped for it).
  void wait_until_followed(StatePublisher& publisher) {
    publisher.state("0-ready", padded_state(200));
    ASSERT_EQ(hall_tables_until(hub_, "0-ready", 10s).count("0-ready"), 1u);
  }

  std::filesystem::path dir_;
  std::unique_ptr<MosquittoBroker> broker_;
  net::FeedHub hub_;
  std::mutex said_mutex_;
  std::vector<std::string> said_;
  net::ProblemReports problems_{[this](const std::string& line) {
    std::lock_guard lock(said_mutex_);
    said_.push_back(line);
  }};
};

TEST_F(HallAndBroker, AStateOverTheBoundIsNeverSentToTheHallOneUnderItIs) {
  const net::HallLimits limits;
  net::Hall hall(net::Endpoint{"127.0.0.1", broker_->port()}, "diskref/tables", hub_, problems_, limits);
  StatePublisher publisher(broker_->port());
  wait_until_followed(publisher);
  // Published in this order; the broker keeps a client's order to a subscriber, so once the last
  // has arrived, the first would have, had the broker sent it.
  publisher.state("a-over", padded_state(limits.max_packet_bytes() + 1));
  publisher.state("b-under", padded_state(limits.max_state_bytes - 1000));
  publisher.state("c-last", padded_state(200));
  std::map<std::string, nlohmann::json> tables = hall_tables_until(hub_, "c-last", 10s);
  ASSERT_EQ(tables.count("c-last"), 1u);
  EXPECT_EQ(tables.count("a-over"), 0u) << "the broker sent the hall a state larger than it asked for";
  ASSERT_EQ(tables.count("b-under"), 1u);
  EXPECT_EQ(tables["b-under"]["state"]["game"]["turn"]["turn"], 1);
  EXPECT_FALSE(tables["b-under"].contains("error"));
  std::lock_guard lock(said_mutex_);
  for (const std::string& line : said_) EXPECT_EQ(line.find("refused MQTT v5"), std::string::npos) << line;
}

TEST_F(HallAndBroker, ABrokerThatRefusesV5IsFollowedWithV311AndSaidOnce) {
  const net::HallLimits limits;
  const int proxy_port = free_loopback_port();
  V311OnlyProxy proxy(proxy_port, broker_->port());
  net::Hall hall(net::Endpoint{"127.0.0.1", proxy_port}, "diskref/tables", hub_, problems_, limits);
  StatePublisher publisher(broker_->port());
  wait_until_followed(publisher);
  EXPECT_EQ(proxy.v5_refused(), 1);
  publisher.state("a-over", padded_state(limits.max_packet_bytes() + 1));
  publisher.state("c-last", padded_state(200));
  std::map<std::string, nlohmann::json> tables = hall_tables_until(hub_, "c-last", 10s);
  ASSERT_EQ(tables.count("c-last"), 1u);
  // Over v3.1.1 the broker cannot be told: the state arrives, and the hall refuses it.
  ASSERT_EQ(tables.count("a-over"), 1u);
  EXPECT_TRUE(tables["a-over"]["state"].is_null());
  EXPECT_NE(tables["a-over"].value("error", "").find("more than the 262144"), std::string::npos);
  std::lock_guard lock(said_mutex_);
  int told = 0;
  for (const std::string& line : said_)
    told += line.find("refused MQTT v5; connected with v3.1.1") != std::string::npos;
  EXPECT_EQ(told, 1);
  for (const std::string& line : said_) EXPECT_EQ(line.find("is lost"), std::string::npos) << line;
}

}  // namespace
}  // namespace diskref::testing
