#pragma once
// One connection to an MQTT broker (libmosquitto, its own network thread), that keeps trying:
// a broker that is down at the start, or lost later, is connected to again (every 1 to 4 s)
// without the caller doing anything, and the caller hears of each change (on_up, on_down). Sends
// while the broker is away are dropped (QoS 0: what matters is the latest state, which the caller
// sends again on_up), so nothing piles up in memory while a broker is gone.

#include <atomic>
#include <functional>
#include <string>
#include <vector>

#include "net/endpoint.h"

struct mosquitto;
struct mosquitto_message;

namespace diskref::net {

struct MqttWill {
  std::string topic;  // empty: none
  std::string payload;
};

class MqttConnection {
 public:
  struct Callbacks {
    std::function<void()> on_up;                     // connected (first time or again)
    std::function<void(const std::string& why)> on_down;  // lost (not called when we close)
    std::function<void(const std::string& topic, const std::string& payload)> on_message;
  };
  // Starts connecting at once (returns without waiting). Throws std::runtime_error only when the
  // client cannot be made (out of memory, a host name that cannot be resolved at all).
  // `subscriptions`: topic patterns subscribed to at each connect.
  MqttConnection(const Endpoint& broker, const std::string& client_id, MqttWill will,
                 std::vector<std::string> subscriptions, Callbacks callbacks);
  ~MqttConnection();  // disconnects cleanly (the will is not sent)
  MqttConnection(const MqttConnection&) = delete;
  MqttConnection& operator=(const MqttConnection&) = delete;

  // False when the broker is away (the message is dropped).
  bool publish(const std::string& topic, const std::string& payload, bool retain);

  static void on_connect(mosquitto*, void* self, int rc);
  static void on_disconnect(mosquitto*, void* self, int rc);
  static void on_message_arrived(mosquitto*, void* self, const mosquitto_message* message);

 private:
  mosquitto* client_ = nullptr;
  Endpoint broker_;
  Callbacks callbacks_;
  const std::vector<std::string> subscriptions_;
  std::atomic<bool> closing_{false};
};

}  // namespace diskref::net
