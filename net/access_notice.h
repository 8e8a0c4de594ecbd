#pragma once
// What a person is told when a server listens beyond this machine: who can reach it, the address
// with its token, and that address as a QR code.
//
// A QR code of a short text (the feed's address with its token) so that a phone's camera can open
// the page without anyone typing the token: on a terminal in Unicode half blocks (here), on the
// companion screen in rectangles (ui/, from FeedAccess::qr).

#include <optional>
#include <string>

#include "net/http_feed_server.h"
#include "net/qr_code.h"

namespace diskref::net {

// Lines of "█", "▀", "▄" and spaces, dark on light, with a quiet zone; empty when the text cannot
// be encoded.
std::string terminal_qr(const std::string& text);

// The feed as a phone on the network opens it.
struct FeedAccess {
  std::string listen_host;  // what the server listens on (e.g. 0.0.0.0)
  // The address to open: with ?token=... when a token is needed (the browser then keeps it).
  std::string url;
  bool token_needed = false;  // false with --serve-public
  QrMatrix qr;                // of `url`
};

// When `server` listens beyond loopback: its address for a phone and that address's QR code.
std::optional<FeedAccess> beyond_loopback_access(const HttpFeedServer& server, const HttpFeedOptions& options);

// The lines to print (no trailing newline) when `server` listens beyond loopback; empty when not.
std::string beyond_loopback_notice(const HttpFeedServer& server, const HttpFeedOptions& options);

}  // namespace diskref::net
