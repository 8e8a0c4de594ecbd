#pragma once
// The hall (spec §10.4): every table of a tournament at a glance. Subscribed to every table's
// retained state on the MQTT broker (PREFIX/+/state, PREFIX/+/online), it keeps one current
// state a table and publishes into a feed hub only what changed: a "hall_table" message for the
// table whose state came (its state, or why it cannot be shown), and a small "hall" message (the
// broker, the tables' names and whether each is online) when that list changes. The HTTP server
// streams both to the hall page, which redraws only the card that changed.
//
// Anyone who can publish to the broker can send anything, so (docs/design/network-security.md):
// - the broker's thread only stores what came (the latest payload of each table, replacing one
//   not yet taken); a thread of the hall's own parses and publishes, so a slow parse never keeps
//   the broker's client from its keepalive;
// - a state larger than `max_state_bytes`, nested deeper than diskref's files may be
//   (io::kMaxJsonDepth, checked while parsing, before any recursion), not JSON, or not a table's
//   state (not an object; setup, frame, game or last_ruling not objects) is shown as such on its
//   own card, and the other tables are untouched;
// - at most `max_tables` tables; names beyond are ignored (said once);
// - the broker is asked (MQTT v5) never to send a message larger than a state may be, so that one
//   is never even read; a broker that refuses v5 is followed with v3.1.1 (said once).
// A broker lost is said once, the tables' last states stay on the page, and on reconnecting the
// broker sends the retained states again; until a table's referee says it is online again, it is
// shown offline.

#include <condition_variable>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/problem_reports.h"

namespace diskref::net {

class MqttConnection;
class HttpFeedServer;

// The hall page at / (and /hall) with its script, its style and the drawing script it shares
// with the overlay.
void add_hall_pages(HttpFeedServer& server);

struct HallLimits {
  // A table's state is about 20 KB (its disks, a frame, the ships, the last ruling); ten times
  // that leaves room for a large game and bounds the hall: max_tables x this.
  std::size_t max_state_bytes = 256 * 1024;
  // A tournament's hall has tens of tables.
  std::size_t max_tables = 256;
  // A table's name (one MQTT topic level) as shown on its card.
  std::size_t max_name_bytes = 64;
  // What the hall asks the broker to send at most (MQTT v5's Maximum Packet Size): a state of
  // max_state_bytes with room for its packet's header, topic (the prefix, a name) and properties.
  // A v5 broker drops a larger message for the hall: it is never read. (A message of a size
  // between the two is read and refused as too large.)
  std::size_t packet_room_bytes = 1024;
  std::uint32_t max_packet_bytes() const { return static_cast<std::uint32_t>(max_state_bytes + packet_room_bytes); }
};

class Hall {
 public:
  Hall(const Endpoint& broker, std::string topic_prefix, FeedHub& hub, ProblemReports& problems,
       HallLimits limits = {});
  ~Hall();
  Hall(const Hall&) = delete;
  Hall& operator=(const Hall&) = delete;

  // Takes one message from the broker (the connection's thread; public for tests and benches):
  // stores it for the hall's thread and returns.
  void take(const std::string& topic, const std::string& payload);
  // Waits until everything taken so far has been published (tests, benches).
  void settle();

 private:
  void work();
  void publish_table(const std::string& name, const std::string& payload, long long received_ms);
  void publish_hall_locked();

  const std::string prefix_;
  const std::string broker_text_;
  const HallLimits limits_;
  FeedHub& hub_;
  ProblemReports& problems_;

  std::mutex mutex_;
  std::condition_variable changed_;
  struct Table {
    bool online = false;
    long long received_ms = 0;
    std::string error;  // why its state cannot be shown, or empty
  };
  std::map<std::string, Table> tables_;
  struct Pending {
    std::string payload;
    long long received_ms = 0;
  };
  std::map<std::string, Pending> pending_;  // states not yet taken by the hall's thread
  bool hall_changed_ = true;
  bool busy_ = false;  // the hall's thread is publishing what it took
  bool stopping_ = false;
  std::string broker_ = "connecting";
  std::thread worker_;
  std::unique_ptr<MqttConnection> connection_;
};

}  // namespace diskref::net
