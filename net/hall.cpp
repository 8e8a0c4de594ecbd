#include "net/hall.h"

#include <unistd.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"
#include "net/http_feed_server.h"
#include "net/mqtt_connection.h"
#include "net/pages/hall_page.h"
#include "net/pages/hall_script_page.h"
#include "net/pages/hall_style_page.h"
#include "net/pages/table_drawing_page.h"
#include "net/printable_text.h"

namespace diskref::net {

void add_hall_pages(HttpFeedServer& server) {
  server.add_page("/", "text/html; charset=utf-8", kHallPage);
  server.add_page("/hall", "text/html; charset=utf-8", kHallPage);
  server.add_page("/hall.js", "text/javascript; charset=utf-8", kHallScriptPage);
  server.add_page("/hall.css", "text/css; charset=utf-8", kHallStylePage);
  server.add_page("/table_drawing.js", "text/javascript; charset=utf-8", kTableDrawingPage);
}

namespace {

// Why `state` is not a table's state (spec §10.4), or empty: what the page draws must be objects.
std::string shape_problem(const nlohmann::json& state) {
  if (!state.is_object()) return "not a JSON object";
  for (const char* part : {"setup", "frame", "game", "last_ruling"})
    if (const auto it = state.find(part); it != state.end() && !it->is_null() && !it->is_object())
      return std::string("\"") + part + "\" is not an object";
  return "";
}

}  // namespace

Hall::Hall(const Endpoint& broker, std::string topic_prefix, FeedHub& hub, ProblemReports& problems, HallLimits limits)
    : prefix_(std::move(topic_prefix)),
      broker_text_(to_string(broker)),
      limits_(limits),
      hub_(hub),
      problems_(problems) {
  worker_ = std::thread([this] { work(); });
  MqttConnection::Callbacks callbacks;
  callbacks.on_up = [this] {
    problems_.state("mqtt", "MQTT: the hall follows " + prefix_ + "/+ on the broker at " + broker_text_);
    std::lock_guard lock(mutex_);
    // After a loss nobody is known to be online: a referee still running says so again (its
    // retained "online"), one that ended meanwhile may have said goodbye to no broker.
    if (broker_ == "lost")
      for (auto& [name, table] : tables_) table.online = false;
    broker_ = "connected";
    hall_changed_ = true;
    changed_.notify_all();
  };
  callbacks.on_down = [this](const std::string& why) {
    problems_.state("mqtt", "MQTT: the broker at " + broker_text_ + " is lost (" + why + "); reconnecting");
    std::lock_guard lock(mutex_);
    broker_ = "lost";
    hall_changed_ = true;
    changed_.notify_all();
  };
  callbacks.on_message = [this](const std::string& topic, const std::string& payload) { take(topic, payload); };
  callbacks.on_note = [this](const std::string& line) { problems_.report("mqtt_v311", line); };
  connection_ = std::make_unique<MqttConnection>(broker, "diskref-hall-" + std::to_string(::getpid()), MqttWill{},
                                                 std::vector<std::string>{prefix_ + "/+/state", prefix_ + "/+/online"},
                                                 std::move(callbacks), limits_.max_packet_bytes());
}

Hall::~Hall() {
  connection_.reset();  // no more messages
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  worker_.join();
}

void Hall::take(const std::string& topic, const std::string& payload) {
  if (topic.rfind(prefix_ + "/", 0) != 0) return;
  const std::string rest = topic.substr(prefix_.size() + 1);
  const auto slash = rest.find('/');
  if (slash == std::string::npos) return;
  const std::string name = rest.substr(0, slash), leaf = rest.substr(slash + 1);
  if (leaf != "online" && leaf != "state") return;
  if (name.size() > limits_.max_name_bytes) {
    problems_.report("hall_long_name", "the hall: a table's name longer than " +
                                           std::to_string(limits_.max_name_bytes) + " bytes (" + printable(name, 40) +
                                           ") is ignored");
    return;
  }
  std::lock_guard lock(mutex_);
  auto it = tables_.find(name);
  if (it == tables_.end()) {
    if (tables_.size() >= limits_.max_tables) {
      problems_.report("hall_too_many_tables", "the hall: more than " + std::to_string(limits_.max_tables) +
                                                   " tables; the others (e.g. " + printable(name, 40) +
                                                   ") are ignored");
      return;
    }
    it = tables_.emplace(name, Table{}).first;
    hall_changed_ = true;
  }
  if (leaf == "online") {
    const bool online = payload == "true";
    if (it->second.online != online) hall_changed_ = true;
    it->second.online = online;
  } else if (payload.size() > limits_.max_state_bytes) {
    // Not kept: only its size is said.
    pending_[name] = Pending{"", unix_time_ms()};
    it->second.error = "its state is " + std::to_string(payload.size()) + " bytes, more than the " +
                       std::to_string(limits_.max_state_bytes) + " a table's state may be";
  } else {
    it->second.error.clear();
    pending_[name] = Pending{payload, unix_time_ms()};
  }
  changed_.notify_all();
}

void Hall::settle() {
  std::unique_lock lock(mutex_);
  changed_.wait(lock, [this] { return stopping_ || (pending_.empty() && !hall_changed_ && !busy_); });
}

void Hall::work() {
  std::unique_lock lock(mutex_);
  for (;;) {
    changed_.wait(lock, [this] { return stopping_ || !pending_.empty() || hall_changed_; });
    if (stopping_) return;
    std::map<std::string, Pending> taken;
    taken.swap(pending_);
    busy_ = true;
    if (hall_changed_) {
      publish_hall_locked();
      hall_changed_ = false;
    }
    std::map<std::string, std::string> errors;
    for (const auto& [name, p] : taken) errors[name] = tables_[name].error;
    lock.unlock();
    for (auto& [name, p] : taken) {
      if (!errors[name].empty()) {
        hub_.publish({{"feed", kFeedVersion},
                      {"type", "hall_table"},
                      {"name", name},
                      {"received_ms", p.received_ms},
                      {"state", nullptr},
                      {"error", errors[name]}});
        continue;
      }
      publish_table(name, p.payload, p.received_ms);
    }
    lock.lock();
    busy_ = false;
    changed_.notify_all();
  }
}

void Hall::publish_table(const std::string& name, const std::string& payload, long long received_ms) {
  nlohmann::json message = {
      {"feed", kFeedVersion}, {"type", "hall_table"}, {"name", name}, {"received_ms", received_ms}};
  std::string problem;
  try {
    // Depth-limited while it parses (io::kMaxJsonDepth): a deeply nested state is refused before
    // anything recurses into it.
    nlohmann::json state = io::parse_json_text(payload, prefix_ + "/" + name + "/state");
    problem = shape_problem(state);
    if (problem.empty()) message["state"] = std::move(state);
  } catch (const io::InputError& e) {
    // The problem first: the place in a deep state is as long as it is deep.
    problem = e.problem() + (e.path().empty() ? "" : " (at " + printable(e.path(), 60) + ")");
  } catch (const nlohmann::json::exception& e) {
    problem = std::string("not JSON: ") + e.what();
  }
  if (!problem.empty()) {
    problem = "not a table's state: " + printable(problem, 160);
    problems_.report("hall_bad_state", "the hall: " + printable(prefix_ + "/" + name, 100) + "/state is " + problem +
                                           "; shown as such on its card (further ones are not reported)");
    message["state"] = nullptr;
    message["error"] = problem;
  }
  hub_.publish(std::move(message));
}

void Hall::publish_hall_locked() {
  nlohmann::json tables = nlohmann::json::array();
  for (const auto& [name, t] : tables_) tables.push_back({{"name", name}, {"online", t.online}});
  hub_.publish({{"feed", kFeedVersion}, {"type", "hall"}, {"broker", broker_}, {"tables", std::move(tables)}});
}

}  // namespace diskref::net
