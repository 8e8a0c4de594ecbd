#pragma once
// One table of a hall (spec §10.4): the table's state published to an MQTT broker, retained, so
// that a hall page subscribed to every table sees each game at a glance, and sees it at once when
// it (or the broker) starts late. Topics, under the prefix (diskref/tables):
//   PREFIX/NAME/state   retained: {"type": "state", "setup", "frame", "game", "last_ruling", "rulings"}
//   PREFIX/NAME/ruling  each ruling as it is made (not retained)
//   PREFIX/NAME/online  retained "true"; "false" when the referee ends, or (the broker's will) dies
// It follows the feed's hub on a thread of its own: the referee never waits for the broker. A
// broker lost is said once, refereeing goes on, and when the broker is back the state is sent
// again (the broker may have lost its retained messages with it).

#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/problem_reports.h"

namespace diskref::net {

class MqttConnection;

struct MqttOptions {
  Endpoint broker;
  std::string topic_prefix = "diskref/tables";
  double states_per_s = 5;  // the table's frames in the state at most this often; rulings at once
};

class MqttTablePublisher {
 public:
  // `status` gets {"mqtt": "connected" | "lost", "ok": bool, "text": ...} at each change (the
  // overlay and the screen show it).
  MqttTablePublisher(MqttOptions options, std::string table_name, FeedHub& hub, ProblemReports& problems,
                     std::function<void(const nlohmann::json& status)> status);
  ~MqttTablePublisher();  // publishes online "false" and disconnects
  MqttTablePublisher(const MqttTablePublisher&) = delete;
  MqttTablePublisher& operator=(const MqttTablePublisher&) = delete;

  std::string topic(const std::string& leaf) const { return options_.topic_prefix + "/" + table_name_ + "/" + leaf; }

 private:
  void follow();      // the thread: the hub's messages into the state
  void send_state();  // the state, retained
  void take(const nlohmann::json& message);

  MqttOptions options_;
  std::string table_name_;
  FeedHub& hub_;
  ProblemReports& problems_;
  std::function<void(const nlohmann::json&)> status_;
  nlohmann::json state_;  // the follower thread's
  std::atomic<bool> resend_{false};
  std::atomic<bool> stop_{false};
  std::atomic<bool> was_lost_{false};
  std::unique_ptr<MqttConnection> connection_;
  std::thread thread_;
};

}  // namespace diskref::net
