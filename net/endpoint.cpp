#include "net/endpoint.h"

#include <charconv>

#include "engine/io/input_error.h"

namespace diskref::net {
namespace {

int parse_port(const std::string& text, int lowest, const std::string& whole, const std::string& option) {
  int port = -1;
  const char* end = text.data() + text.size();
  auto [ptr, ec] = std::from_chars(text.data(), end, port);
  if (text.empty() || ec != std::errc() || ptr != end || port < lowest || port > 65535)
    throw io::InputError("", option,
                         "\"" + whole + "\": the port must be a number from " + std::to_string(lowest) + " to 65535");
  return port;
}

// Splits "HOST:PORT" / "[V6]:PORT"; host empty when there is no colon.
std::pair<std::string, std::string> split(const std::string& text, const std::string& option) {
  if (!text.empty() && text.front() == '[') {
    const auto close = text.find(']');
    if (close == std::string::npos || close + 1 >= text.size() || text[close + 1] != ':')
      throw io::InputError("", option, "\"" + text + "\": an IPv6 address is written [ADDR]:PORT");
    return {text.substr(1, close - 1), text.substr(close + 2)};
  }
  const auto colon = text.rfind(':');
  if (colon == std::string::npos) return {"", text};
  if (text.find(':') != colon)
    throw io::InputError("", option, "\"" + text + "\": an IPv6 address is written [ADDR]:PORT");
  return {text.substr(0, colon), text.substr(colon + 1)};
}

}  // namespace

Endpoint parse_listen_address(const std::string& text, const std::string& option) {
  auto [host, port] = split(text, option);
  if (host.empty()) host = kLoopback;
  return Endpoint{host, parse_port(port, 0, text, option)};
}

Endpoint parse_destination(const std::string& text, const std::string& option) {
  auto [host, port] = split(text, option);
  if (host.empty()) throw io::InputError("", option, "\"" + text + "\": give HOST:PORT");
  return Endpoint{host, parse_port(port, 1, text, option)};
}

std::string to_string(const Endpoint& e) {
  const bool v6 = e.host.find(':') != std::string::npos;
  return (v6 ? "[" + e.host + "]" : e.host) + ":" + std::to_string(e.port);
}

bool is_loopback(const std::string& host) {
  return host == "localhost" || host == "::1" || host.rfind("127.", 0) == 0;
}

}  // namespace diskref::net
