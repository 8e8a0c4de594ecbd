#include "net/http_access.h"

#include <arpa/inet.h>

#include <algorithm>
#include <cctype>
#include <random>

namespace diskref::net {
namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

bool is_ip_literal(const std::string& host) {
  unsigned char buffer[16];
  if (host.size() > 2 && host.front() == '[' && host.back() == ']')
    return inet_pton(AF_INET6, host.substr(1, host.size() - 2).c_str(), buffer) == 1;
  return inet_pton(AF_INET, host.c_str(), buffer) == 1;
}

// "name:8080" -> "name", "[::1]:8080" -> "[::1]"; a trailing dot (an absolute name) dropped.
std::string host_part(std::string_view header) {
  std::string host;
  if (!header.empty() && header.front() == '[') {
    const auto close = header.find(']');
    host = std::string(header.substr(0, close == std::string_view::npos ? header.size() : close + 1));
  } else {
    host = std::string(header.substr(0, header.find(':')));
  }
  if (!host.empty() && host.back() == '.') host.pop_back();
  return lower(host);
}

}  // namespace

bool host_allowed(std::string_view host_header, const std::vector<std::string>& names) {
  const std::string host = host_part(host_header);
  if (host.empty()) return false;
  if (host == "localhost" || is_ip_literal(host)) return true;
  return std::any_of(names.begin(), names.end(), [&](const std::string& n) { return lower(n) == host; });
}

std::string new_access_token() {
  std::random_device random;
  static constexpr char kHex[] = "0123456789abcdef";
  std::string token;
  for (int i = 0; i < 8; ++i) {
    const unsigned word = random();
    for (int nibble = 0; nibble < 8; ++nibble) token += kHex[(word >> (4 * nibble)) & 15];
  }
  return token;
}

std::string token_of(std::string_view query_token, std::string_view authorization, std::string_view cookie_header) {
  if (!query_token.empty()) return std::string(query_token);
  constexpr std::string_view bearer = "Bearer ";
  if (authorization.substr(0, bearer.size()) == bearer) return std::string(authorization.substr(bearer.size()));
  // Cookie: a=1; diskref_token=T; b=2
  const std::string key = std::string(kTokenCookie) + "=";
  for (std::size_t at = 0; at < cookie_header.size();) {
    while (at < cookie_header.size() && (cookie_header[at] == ' ' || cookie_header[at] == ';')) ++at;
    const std::size_t end = std::min(cookie_header.find(';', at), cookie_header.size());
    const std::string_view pair = cookie_header.substr(at, end - at);
    if (pair.substr(0, key.size()) == key) return std::string(pair.substr(key.size()));
    at = end;
  }
  return "";
}

bool same_token(std::string_view given, std::string_view expected) {
  unsigned char differ = given.size() == expected.size() ? 0 : 1;
  for (std::size_t i = 0; i < expected.size(); ++i)
    differ |= static_cast<unsigned char>(expected[i] ^ (i < given.size() ? given[i] : 0));
  return differ == 0 && !expected.empty();
}

}  // namespace diskref::net
