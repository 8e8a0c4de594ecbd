#pragma once
// Where the live feed listens and where it sends: "[ADDR:]PORT" for a server (loopback unless an
// address is given: nothing listens beyond this machine unless the user asks) and "HOST:PORT" for
// a receiver (TUIO, MQTT).

#include <string>

namespace diskref::net {

// Loopback: the default for everything diskref listens on.
inline constexpr const char* kLoopback = "127.0.0.1";

struct Endpoint {
  std::string host;
  int port = 0;  // 0 for a server: any free port (the one taken is reported)
};

// "8080" (loopback), "0.0.0.0:8080", "[::1]:8080". Throws io::InputError naming `option` and the
// problem (exit 2) for anything else.
Endpoint parse_listen_address(const std::string& text, const std::string& option);
// "HOST:PORT" with a port 1..65535; HOST may be a name. Throws io::InputError as above.
Endpoint parse_destination(const std::string& text, const std::string& option);
// "127.0.0.1:8080", "[::1]:8080".
std::string to_string(const Endpoint& endpoint);
// Whether a listening address keeps to this machine (127.0.0.0/8, ::1, localhost).
bool is_loopback(const std::string& host);

}  // namespace diskref::net
