#pragma once
// The hall (spec §10.4): every table of a tournament at a glance. Subscribed to every table's
// retained state on the MQTT broker (PREFIX/+/state, PREFIX/+/online), it keeps the latest of
// each and publishes the whole hall into a feed hub as one "hall" message at each change, which
// the HTTP server streams to the hall page. A broker lost is said once, the tables' last states
// stay on the page (marked as of when), and on reconnecting the broker sends the retained states
// again; until a table's referee says it is online again, it is shown offline.

#include <map>
#include <memory>
#include <mutex>
#include <string>

#include <nlohmann/json.hpp>

#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/problem_reports.h"

namespace diskref::net {

class MqttConnection;
class HttpFeedServer;

// The hall page at / (and /hall) with the drawing script it shares with the overlay.
void add_hall_pages(HttpFeedServer& server);

class Hall {
 public:
  Hall(const Endpoint& broker, std::string topic_prefix, FeedHub& hub, ProblemReports& problems);
  ~Hall();
  Hall(const Hall&) = delete;
  Hall& operator=(const Hall&) = delete;

  // Takes one message from the broker (the connection's thread; public for tests).
  void take(const std::string& topic, const std::string& payload);

 private:
  void publish_locked();

  std::string prefix_;
  std::string broker_text_;
  FeedHub& hub_;
  ProblemReports& problems_;
  std::mutex mutex_;
  struct Table {
    nlohmann::json state;      // the table's latest state message (null until one came)
    bool online = false;
    long long received_ms = 0;
  };
  std::map<std::string, Table> tables_;
  std::string broker_ = "connecting";
  std::unique_ptr<MqttConnection> connection_;
};

}  // namespace diskref::net
