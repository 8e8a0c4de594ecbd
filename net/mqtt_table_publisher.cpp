#include "net/mqtt_table_publisher.h"

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "net/mqtt_connection.h"

namespace diskref::net {

MqttTablePublisher::MqttTablePublisher(MqttOptions options, std::string table_name, FeedHub& hub,
                                       ProblemReports& problems, std::function<void(const nlohmann::json&)> status)
    : options_(std::move(options)),
      table_name_(std::move(table_name)),
      hub_(hub),
      problems_(problems),
      status_(std::move(status)) {
  state_ = {{"feed", kFeedVersion}, {"type", "state"}, {"table", table_name_}, {"rulings", 0}};
  const std::string where = to_string(options_.broker);
  MqttConnection::Callbacks callbacks;
  callbacks.on_up = [this, where] {
    const bool again = was_lost_.exchange(false);
    const std::string text = again ? "MQTT: the broker at " + where + " is back; the table's state is sent again"
                                   : "MQTT: publishing to the broker at " + where + " as " + topic("state");
    problems_.state("mqtt", text);
    if (status_) status_({{"mqtt", "connected"}, {"ok", true}, {"text", text}});
    resend_ = true;
  };
  callbacks.on_down = [this, where](const std::string& why) {
    if (was_lost_.exchange(true)) return;
    const std::string text =
        "MQTT: the broker at " + where + " is lost (" + why + "); refereeing goes on, reconnecting";
    problems_.state("mqtt", text);
    if (status_) status_({{"mqtt", "lost"}, {"ok", false}, {"text", text}});
  };
  connection_ = std::make_unique<MqttConnection>(
      options_.broker, "diskref-" + table_name_ + "-" + std::to_string(::getpid()), MqttWill{topic("online"), "false"},
      std::vector<std::string>{}, std::move(callbacks));
  thread_ = std::thread([this] { follow(); });
}

MqttTablePublisher::~MqttTablePublisher() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
  connection_->publish(topic("online"), "false", true);
  connection_.reset();
}

void MqttTablePublisher::take(const nlohmann::json& m) {
  const std::string type = m.value("type", "");
  if (type == "setup") state_["setup"] = m;
  if (type == "table") state_["frame"] = m;
  if (type == "game") state_["game"] = m;
  if (type == "ruling") {
    state_["rulings"] = std::max(state_.value("rulings", std::size_t{0}), m.value("entry", std::size_t{0}) + 1);
    if (m.value("tone", "") != "setup") state_["last_ruling"] = m;
  }
}

void MqttTablePublisher::send_state() {
  state_["sent_ms"] = unix_time_ms();
  connection_->publish(topic("state"), state_.dump(), true);
}

void MqttTablePublisher::follow() {
  FeedHub::Snapshot s = hub_.snapshot();
  long long cursor = s.seq;
  for (const char* kind : {"setup", "frame", "game"})
    if (!s.message[kind].is_null()) take(s.message[kind]);
  for (const nlohmann::json& r : s.message["rulings"]) take(r);
  const auto frame_every = std::chrono::duration<double>(1.0 / options_.states_per_s);
  auto last_sent = std::chrono::steady_clock::now() - std::chrono::hours(1);
  bool pending = true;
  while (!stop_) {
    if (resend_.exchange(false)) {
      connection_->publish(topic("online"), "true", true);
      pending = true;
      last_sent = std::chrono::steady_clock::now() - std::chrono::hours(1);
    }
    FeedHub::Batch b = hub_.wait_after(cursor, std::chrono::milliseconds(100));
    if (b.fell_behind) {  // cannot happen at this pace; if it does, start again from the snapshot
      s = hub_.snapshot();
      cursor = s.seq;
      for (const char* kind : {"setup", "frame", "game"})
        if (!s.message[kind].is_null()) take(s.message[kind]);
      for (const nlohmann::json& r : s.message["rulings"]) take(r);
      pending = true;
    }
    bool urgent = false;
    for (const auto& e : b.events) {
      cursor = e->seq;
      if (e->type == "status") continue;
      const nlohmann::json m = nlohmann::json::parse(e->data);
      take(m);
      pending = true;
      if (e->type == "ruling") {
        connection_->publish(topic("ruling"), e->data, false);
        urgent = true;
      }
      if (e->type == "game") urgent = true;
    }
    const auto now = std::chrono::steady_clock::now();
    if (pending && (urgent || now - last_sent >= frame_every)) {
      send_state();
      pending = false;
      last_sent = now;
    }
    if (b.closed) break;
  }
  if (pending) send_state();
}

}  // namespace diskref::net
