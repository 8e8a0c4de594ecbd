#include "net/hall.h"

#include <unistd.h>

#include "net/http_feed_server.h"
#include "net/mqtt_connection.h"
#include "net/pages/hall_page.h"
#include "net/pages/table_drawing_page.h"

namespace diskref::net {

void add_hall_pages(HttpFeedServer& server) {
  server.add_page("/", "text/html; charset=utf-8", kHallPage);
  server.add_page("/hall", "text/html; charset=utf-8", kHallPage);
  server.add_page("/table_drawing.js", "text/javascript; charset=utf-8", kTableDrawingPage);
}

Hall::Hall(const Endpoint& broker, std::string topic_prefix, FeedHub& hub, ProblemReports& problems)
    : prefix_(std::move(topic_prefix)), broker_text_(to_string(broker)), hub_(hub), problems_(problems) {
  {
    std::lock_guard lock(mutex_);
    publish_locked();
  }
  MqttConnection::Callbacks callbacks;
  callbacks.on_up = [this] {
    problems_.state("mqtt", "MQTT: the hall follows " + prefix_ + "/+ on the broker at " + broker_text_);
    std::lock_guard lock(mutex_);
    // After a loss nobody is known to be online: a referee still running says so again (its
    // retained "online"), one that ended meanwhile may have said goodbye to no broker.
    if (broker_ == "lost")
      for (auto& [name, table] : tables_) table.online = false;
    broker_ = "connected";
    publish_locked();
  };
  callbacks.on_down = [this](const std::string& why) {
    problems_.state("mqtt", "MQTT: the broker at " + broker_text_ + " is lost (" + why + "); reconnecting");
    std::lock_guard lock(mutex_);
    broker_ = "lost";
    publish_locked();
  };
  callbacks.on_message = [this](const std::string& topic, const std::string& payload) { take(topic, payload); };
  connection_ = std::make_unique<MqttConnection>(broker, "diskref-hall-" + std::to_string(::getpid()), MqttWill{},
                                                 std::vector<std::string>{prefix_ + "/+/state", prefix_ + "/+/online"},
                                                 std::move(callbacks));
}

Hall::~Hall() { connection_.reset(); }

void Hall::take(const std::string& topic, const std::string& payload) {
  if (topic.rfind(prefix_ + "/", 0) != 0) return;
  const std::string rest = topic.substr(prefix_.size() + 1);
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return;
  const std::string name = rest.substr(0, slash), leaf = rest.substr(slash + 1);
  std::lock_guard lock(mutex_);
  if (leaf == "online") {
    tables_[name].online = payload == "true";
  } else if (leaf == "state") {
    nlohmann::json state = nlohmann::json::parse(payload, nullptr, false);
    if (state.is_discarded() || !state.is_object()) {
      problems_.report("hall_bad_state", "the hall: " + topic + " is not a table's state (not JSON); ignored");
      return;
    }
    Table& t = tables_[name];
    t.state = std::move(state);
    t.received_ms = unix_time_ms();
  } else {
    return;
  }
  publish_locked();
}

void Hall::publish_locked() {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& [name, t] : tables_)
    tables.push_back({{"name", name}, {"online", t.online}, {"received_ms", t.received_ms}, {"state", t.state}});
  hub_.publish({{"feed", kFeedVersion}, {"type", "hall"}, {"broker", broker_}, {"tables", tables}});
}

}  // namespace diskref::net
