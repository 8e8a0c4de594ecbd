#pragma once
// Who a diskref server answers (docs/design/network-security.md):
// - the Host a request names must be one it serves: an IP address written out (v4 or [v6]),
//   "localhost", or a name the user opened it to (--serve-name). A page on another site whose
//   name has been made to point at this machine (DNS rebinding) names its own site: refused.
// - beyond loopback, a token: 32 random bytes in hex, printed at the start (and as a QR code),
//   given once in the address (?token=...) and then kept by the browser as a cookie (HttpOnly,
//   SameSite=Strict) for the page's scripts and its stream; or sent as "Authorization: Bearer".

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace diskref::net {

inline constexpr const char* kTokenCookie = "diskref_token";

// Whether `host_header` (a Host header's value, with or without a port) is one the server answers.
bool host_allowed(std::string_view host_header, const std::vector<std::string>& names);

// 64 hex digits from the system's random source (std::random_device: /dev/urandom on Linux).
std::string new_access_token();

// The token a request carries: the query's `token`, else "Authorization: Bearer T", else the
// cookie. Empty strings stand for what is missing.
std::string token_of(std::string_view query_token, std::string_view authorization, std::string_view cookie_header);

// Compares in time that does not depend on where they differ.
bool same_token(std::string_view given, std::string_view expected);

}  // namespace diskref::net
