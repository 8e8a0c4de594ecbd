#pragma once
// One connection to an MQTT broker (libmosquitto, its own network thread), that keeps trying:
// a broker that is down at the start, or lost later, is connected to again (every 1 to 4 s)
// without the caller doing anything, and the caller hears of each change (on_up, on_down). Sends
// while the broker is away are dropped (QoS 0: what matters is the latest state, which the caller
// sends again on_up), so nothing piles up in memory while a broker is gone.
//
// A receiver that bounds what it takes (the hall) gives `max_packet_bytes`: the connection then
// speaks MQTT v5 and sends that bound as the CONNECT's Maximum Packet Size, and a v5 broker never
// sends it a larger message (it drops it for this client: MQTT 5, 3.1.2.11.4). A broker that
// refuses v5 (a v3.1.1 broker) is connected to again with v3.1.1, said once (on_note): the bound
// is then the receiver's own, after the message has been read.

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
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
    std::function<void()> on_up;                          // connected (first time or again)
    std::function<void(const std::string& why)> on_down;  // lost (not called when we close)
    std::function<void(const std::string& topic, const std::string& payload)> on_message;
    std::function<void(const std::string& line)> on_note;  // said once: e.g. v5 refused
  };
  // Starts connecting at once (returns without waiting). Throws std::runtime_error only when the
  // client cannot be made (out of memory, a host name that cannot be resolved at all).
  // `subscriptions`: topic patterns subscribed to at each connect. `max_packet_bytes`: 0 for
  // MQTT v3.1.1 with no bound; else MQTT v5 with this Maximum Packet Size (see above).
  MqttConnection(const Endpoint& broker, const std::string& client_id, MqttWill will,
                 std::vector<std::string> subscriptions, Callbacks callbacks, std::uint32_t max_packet_bytes = 0);
  ~MqttConnection();  // disconnects cleanly (the will is not sent)
  MqttConnection(const MqttConnection&) = delete;
  MqttConnection& operator=(const MqttConnection&) = delete;

  // False when the broker is away (the message is dropped).
  bool publish(const std::string& topic, const std::string& payload, bool retain);
  // The protocol spoken now: 5 (MQTT v5) or 4 (v3.1.1).
  int protocol() const { return v5_ ? 5 : 4; }

  static void on_connect(mosquitto*, void* self, int rc);
  static void on_disconnect(mosquitto*, void* self, int rc);
  static void on_message_arrived(mosquitto*, void* self, const mosquitto_message* message);

 private:
  // A client of the protocol in v5_, connecting in the background (client_mutex_ held).
  void start_client();
  void stop_client();  // client_mutex_ held
  // Waits for the broker's refusal of v5, then starts again with v3.1.1.
  void watch_for_refusal();

  mutable std::mutex client_mutex_;  // client_ replaced on a fall back to v3.1.1
  mosquitto* client_ = nullptr;
  Endpoint broker_;
  std::string client_id_;
  MqttWill will_;
  Callbacks callbacks_;
  const std::vector<std::string> subscriptions_;
  const std::uint32_t max_packet_bytes_;
  std::atomic<bool> v5_{false};
  std::atomic<bool> closing_{false};
  std::atomic<bool> v5_refused_{false};
  std::mutex watch_mutex_;
  std::condition_variable watch_;
  std::thread watcher_;  // only with max_packet_bytes
};

}  // namespace diskref::net
