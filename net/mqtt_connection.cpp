#include "net/mqtt_connection.h"

#include <mosquitto.h>
#include <mqtt_protocol.h>

#include <stdexcept>

namespace diskref::net {
namespace {

// mosquitto_lib_init is not thread-safe: once, for the whole program.
void init_mosquitto_library() {
  static std::once_flag once;
  std::call_once(once, [] { mosquitto_lib_init(); });
}

// Disconnects, stops the client's thread, frees it.
void end_mosquitto_client(mosquitto* client) {
  if (!client) return;
  mosquitto_disconnect(client);
  mosquitto_loop_stop(client, false);
  mosquitto_destroy(client);
}

}  // namespace

MqttConnection::MqttConnection(const Endpoint& broker, const std::string& client_id, MqttWill will,
                               std::vector<std::string> subscriptions, Callbacks callbacks,
                               std::uint32_t max_packet_bytes)
    : broker_(broker),
      client_id_(client_id),
      will_(std::move(will)),
      callbacks_(std::move(callbacks)),
      subscriptions_(std::move(subscriptions)),
      max_packet_bytes_(max_packet_bytes),
      v5_(max_packet_bytes > 0) {
  init_mosquitto_library();
  {
    std::lock_guard lock(client_mutex_);
    start_client();
  }
  if (v5_) watcher_ = std::thread([this] { watch_for_refusal(); });
}

MqttConnection::~MqttConnection() {
  closing_ = true;
  { std::lock_guard lock(watch_mutex_); }
  watch_.notify_all();
  if (watcher_.joinable()) watcher_.join();
  mosquitto* client = nullptr;
  {
    std::lock_guard lock(client_mutex_);
    std::swap(client, client_);
  }
  end_mosquitto_client(client);
}

void MqttConnection::start_client() {
  client_ = mosquitto_new(client_id_.c_str(), true, this);
  if (!client_) throw std::runtime_error("MQTT: cannot make a client");
  mosquitto_connect_callback_set(client_, &MqttConnection::on_connect);
  mosquitto_disconnect_callback_set(client_, &MqttConnection::on_disconnect);
  mosquitto_message_callback_set(client_, &MqttConnection::on_message_arrived);
  mosquitto_reconnect_delay_set(client_, 1, 4, true);
  if (v5_) {
    mosquitto_int_option(client_, MOSQ_OPT_PROTOCOL_VERSION, MQTT_PROTOCOL_V5);
    mosquitto_property* properties = nullptr;
    mosquitto_property_add_int32(&properties, MQTT_PROP_MAXIMUM_PACKET_SIZE, max_packet_bytes_);
    // libmosquitto 2.0 takes CONNECT properties only in mosquitto_connect_bind_v5, which connects
    // blocking (a broker's host that does not answer would hold the caller for minutes). It keeps
    // them before it checks its other arguments (lib/connect.c), and every later connect sends
    // them: given a keepalive it refuses (1 s; it takes 0, or 5 and over), it keeps them and
    // returns without connecting, and mosquitto_connect_async below sends them. The hall's test
    // against a real broker fails if they are not sent (a state over the bound would arrive).
    mosquitto_connect_bind_v5(client_, broker_.host.c_str(), broker_.port, 1, nullptr, properties);
    mosquitto_property_free_all(&properties);
  }
  if (!will_.topic.empty())
    mosquitto_will_set(client_, will_.topic.c_str(), static_cast<int>(will_.payload.size()), will_.payload.data(), 1,
                       true);
  // A broker not there yet is not an error: the network thread keeps trying.
  const int rc = mosquitto_connect_async(client_, broker_.host.c_str(), broker_.port, 5);
  if (rc == MOSQ_ERR_INVAL || rc == MOSQ_ERR_NOMEM) {
    mosquitto_destroy(client_);
    client_ = nullptr;
    throw std::runtime_error("MQTT: cannot connect to " + to_string(broker_) + ": " + mosquitto_strerror(rc));
  }
  if (rc != MOSQ_ERR_SUCCESS && callbacks_.on_down) callbacks_.on_down(mosquitto_strerror(rc));
  // libmosquitto's own network thread (loop_start refuses a client marked threaded_set: that
  // call is for programs that run the loop on threads of their own).
  if (const int loop = mosquitto_loop_start(client_); loop != MOSQ_ERR_SUCCESS) {
    mosquitto_destroy(client_);
    client_ = nullptr;
    throw std::runtime_error(std::string("MQTT: cannot start the client's thread: ") + mosquitto_strerror(loop));
  }
}

void MqttConnection::watch_for_refusal() {
  {
    std::unique_lock lock(watch_mutex_);
    watch_.wait(lock, [this] { return closing_ || v5_refused_; });
    if (closing_) return;
  }
  // The refusing client's thread has ended (libmosquitto stops on the v3 answer to a v5 CONNECT,
  // a protocol error); it is freed out of client_mutex_, which a callback of its may be waiting
  // for (a publisher sends its state on_up).
  mosquitto* refused = nullptr;
  {
    std::lock_guard lock(client_mutex_);
    std::swap(refused, client_);
  }
  end_mosquitto_client(refused);
  if (callbacks_.on_note)
    callbacks_.on_note(
        "MQTT: the broker at " + to_string(broker_) +
        " refused MQTT v5; connected with v3.1.1, so it cannot be asked to send no message larger than " +
        std::to_string(max_packet_bytes_) + " bytes (each is read whole, then refused if larger)");
  std::lock_guard lock(client_mutex_);
  v5_ = false;
  try {
    start_client();
  } catch (const std::exception& e) {
    if (callbacks_.on_down) callbacks_.on_down(e.what());
  }
}

bool MqttConnection::publish(const std::string& topic, const std::string& payload, bool retain) {
  std::lock_guard lock(client_mutex_);
  return client_ && mosquitto_publish(client_, nullptr, topic.c_str(), static_cast<int>(payload.size()), payload.data(),
                                      0, retain) == MOSQ_ERR_SUCCESS;
}

void MqttConnection::on_connect(mosquitto* client, void* self, int rc) {
  auto* c = static_cast<MqttConnection*>(self);
  // A v3 broker answers a v5 CONNECT "unacceptable protocol version" (1; libmosquitto reports 132).
  if (c->v5_ && (rc == MQTT_RC_UNSUPPORTED_PROTOCOL_VERSION || rc == CONNACK_REFUSED_PROTOCOL_VERSION)) {
    {
      std::lock_guard lock(c->watch_mutex_);
      c->v5_refused_ = true;
    }
    c->watch_.notify_all();
    return;
  }
  if (rc != 0) return;  // refused: on_disconnect follows
  for (const std::string& s : c->subscriptions_) mosquitto_subscribe(client, nullptr, s.c_str(), 0);
  if (c->callbacks_.on_up) c->callbacks_.on_up();
}

void MqttConnection::on_disconnect(mosquitto*, void* self, int rc) {
  auto* c = static_cast<MqttConnection*>(self);
  if (c->closing_ || rc == 0 || (c->v5_ && c->v5_refused_)) return;
  if (c->callbacks_.on_down) c->callbacks_.on_down(mosquitto_strerror(rc));
}

void MqttConnection::on_message_arrived(mosquitto*, void* self, const mosquitto_message* m) {
  auto* c = static_cast<MqttConnection*>(self);
  if (!c->callbacks_.on_message || !m->topic) return;
  c->callbacks_.on_message(m->topic,
                           std::string(static_cast<const char*>(m->payload), static_cast<std::size_t>(m->payloadlen)));
}

}  // namespace diskref::net
