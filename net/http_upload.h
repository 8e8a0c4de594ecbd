#pragma once
// A path of a diskref server that takes a body (an upload: the photo page's picture, spec §14),
// with what it accepts stated beside it, so that the server's limits stay in one place
// (http_limits.h: no body anywhere else).
//
// The body is the request's raw bytes (`fetch(url, {method: "POST", body: file})` sends a File
// so, with its Content-Length): no multipart form to parse. What is refused, and when:
// - at the head, before a byte of the body is read: no token (401), no Content-Length or a
//   chunked body (411), a Content-Length above `max_body_bytes` (413), `max_at_once` uploads
//   already being received or answered (503). libmicrohttpd then reads none of the body;
// - while the body arrives: not all of it within `body_timeout` (the connection is cut), however
//   steadily it trickles in;
// - the handler's own refusals (not an image, too many pixels...), as it answers them.
// The body is held in memory once, at most `max_body_bytes`, for at most `max_at_once` uploads.

#include <chrono>
#include <cstddef>
#include <functional>
#include <map>
#include <string>

namespace diskref::net {

struct Upload {
  std::string body;          // as sent
  std::string content_type;  // as the client said (not trusted: the handler reads the bytes)
  std::string client;        // the client's address, e.g. "192.168.1.7"
  // The query's arguments (the token's excepted), at most HttpLimits::max_target_bytes in all.
  std::map<std::string, std::string> query;
};

struct UploadAnswer {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
};

// Runs on the connection's own thread, one call an upload; may take seconds (a photo's ruling).
using UploadHandler = std::function<UploadAnswer(const Upload&)>;

struct UploadRoute {
  std::size_t max_body_bytes = 0;
  // Uploads received or answered at once on this path (each holds its body, and its handler the
  // decoded picture); one more is answered 503 at its head.
  int max_at_once = 2;
  // The whole body must have arrived this long after the head (a phone on Wi-Fi sends 10 MB in
  // a few seconds; a trickle that never ends must not hold one of the `max_at_once`).
  std::chrono::milliseconds body_timeout{60000};
  UploadHandler handler;
};

}  // namespace diskref::net
