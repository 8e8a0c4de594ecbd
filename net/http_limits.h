#pragma once
// What one HTTP client may ask of a diskref server (docs/design/network-security.md names each
// limit with its reason; spec §10.2 lists them). Shared by every page diskref serves, so that a
// new page (an upload, say) states what it accepts in one place instead of growing its own
// server: it raises `max_body_bytes` for its path, and nothing else changes.
//
// These are enforced by libmicrohttpd (memory per connection, connections per address, the
// inactivity timeout, the backlog) and by diskref before a request is routed (headers, request
// line, body, ranges, methods, Host) and by a watchdog (the whole-request deadline).

#include <chrono>
#include <cstddef>

namespace diskref::net {

struct HttpLimits {
  // The request line and every header together: a longer head is refused (431) by diskref, with
  // its security headers, before anything is routed. 32 KiB: a browser's request head is under
  // 2 KiB, a cookie-laden one 8.
  std::size_t max_head_bytes = 32 * 1024;
  // The memory of each connection (MHD's pool: the head as it arrives, then the reply's head).
  // Twice max_head_bytes, so that a head over that bound still reaches diskref to be refused; a
  // head that does not fit even here is refused by libmicrohttpd itself (431, or 414 when the
  // request line alone does not fit), with none of diskref's headers: its own replies cannot be
  // given any (docs/design/network-security.md).
  std::size_t connection_memory_bytes = 64 * 1024;
  // Headers in one request; more is refused (431). Browsers send about 15.
  std::size_t max_headers = 64;
  // The request target (path and query); longer is refused (414). Our paths are short, the token
  // adds 64 characters.
  std::size_t max_target_bytes = 2048;
  // A body; none of the feed's paths takes one (413 for any Content-Length > this or any
  // Transfer-Encoding). A page that takes uploads raises it for its own path.
  std::size_t max_body_bytes = 0;
  // Connections open at once from one address; more are closed as they are accepted. A screen
  // (OBS) takes 2, a browser 6 per host.
  unsigned connections_per_address = 32;
  // Connections open at once in all (each is a thread of the server's: memory, not CPU).
  unsigned max_connections = 512;
  // The whole request head (request line and headers) must have arrived this long after the
  // connection opened, or after the previous reply on a kept-alive connection, however slowly it
  // trickles in; a connection that has not is cut. A client on a phone over Wi-Fi sends its head
  // in one packet.
  std::chrono::milliseconds request_timeout{10000};
  // Nothing received and nothing taken for this long: the connection is closed (a stream that
  // stopped reading, a kept-alive connection left idle). A stream says something at least every
  // `stream_keep_alive`, which must be shorter.
  std::chrono::seconds inactivity_timeout{5};
  // Connections the kernel queues before they are accepted.
  int listen_backlog = 128;
};

}  // namespace diskref::net
