#include "net/mqtt_connection.h"

#include <mosquitto.h>

#include <mutex>
#include <stdexcept>

namespace diskref::net {
namespace {

// mosquitto_lib_init is not thread-safe: once, for the whole program.
void init_library() {
  static std::once_flag once;
  std::call_once(once, [] { mosquitto_lib_init(); });
}

}  // namespace

MqttConnection::MqttConnection(const Endpoint& broker, const std::string& client_id, MqttWill will,
                               std::vector<std::string> subscriptions, Callbacks callbacks)
    : broker_(broker), callbacks_(std::move(callbacks)), subscriptions_(std::move(subscriptions)) {
  init_library();
  client_ = mosquitto_new(client_id.c_str(), true, this);
  if (!client_) throw std::runtime_error("MQTT: cannot make a client");
  mosquitto_connect_callback_set(client_, &MqttConnection::on_connect);
  mosquitto_disconnect_callback_set(client_, &MqttConnection::on_disconnect);
  mosquitto_message_callback_set(client_, &MqttConnection::on_message_arrived);
  mosquitto_reconnect_delay_set(client_, 1, 4, true);
  if (!will.topic.empty())
    mosquitto_will_set(client_, will.topic.c_str(), static_cast<int>(will.payload.size()), will.payload.data(), 1, true);
  // A broker not there yet is not an error: the network thread keeps trying.
  const int rc = mosquitto_connect_async(client_, broker_.host.c_str(), broker_.port, 5);
  if (rc == MOSQ_ERR_INVAL || rc == MOSQ_ERR_NOMEM) {
    mosquitto_destroy(client_);
    throw std::runtime_error("MQTT: cannot connect to " + to_string(broker_) + ": " + mosquitto_strerror(rc));
  }
  if (rc != MOSQ_ERR_SUCCESS && callbacks_.on_down) callbacks_.on_down(mosquitto_strerror(rc));
  // libmosquitto's own network thread (loop_start refuses a client marked threaded_set: that
  // call is for programs that run the loop on threads of their own).
  if (const int loop = mosquitto_loop_start(client_); loop != MOSQ_ERR_SUCCESS) {
    mosquitto_destroy(client_);
    throw std::runtime_error(std::string("MQTT: cannot start the client's thread: ") + mosquitto_strerror(loop));
  }
}

MqttConnection::~MqttConnection() {
  closing_ = true;
  mosquitto_disconnect(client_);
  mosquitto_loop_stop(client_, false);
  mosquitto_destroy(client_);
}

bool MqttConnection::publish(const std::string& topic, const std::string& payload, bool retain) {
  return mosquitto_publish(client_, nullptr, topic.c_str(), static_cast<int>(payload.size()), payload.data(), 0,
                           retain) == MOSQ_ERR_SUCCESS;
}

void MqttConnection::on_connect(mosquitto* client, void* self, int rc) {
  auto* c = static_cast<MqttConnection*>(self);
  if (rc != 0) return;  // refused: on_disconnect follows
  for (const std::string& s : c->subscriptions_) mosquitto_subscribe(client, nullptr, s.c_str(), 0);
  if (c->callbacks_.on_up) c->callbacks_.on_up();
}

void MqttConnection::on_disconnect(mosquitto*, void* self, int rc) {
  auto* c = static_cast<MqttConnection*>(self);
  if (c->closing_ || rc == 0) return;
  if (c->callbacks_.on_down) c->callbacks_.on_down(mosquitto_strerror(rc));
}

void MqttConnection::on_message_arrived(mosquitto*, void* self, const mosquitto_message* m) {
  auto* c = static_cast<MqttConnection*>(self);
  if (!c->callbacks_.on_message || !m->topic) return;
  c->callbacks_.on_message(m->topic, std::string(static_cast<const char*>(m->payload), static_cast<std::size_t>(m->payloadlen)));
}

}  // namespace diskref::net
