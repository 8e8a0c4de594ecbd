#pragma once
// The whole-request deadline of an HTTP server's connections: a request's head (its request line
// and headers) must have arrived within `limit` of the connection opening (or of the previous
// reply, on a kept-alive connection), however slowly it trickles in. libmicrohttpd's own timeout
// counts inactivity, which a client sending one byte every few seconds never shows; this watchdog
// counts from the start and shuts the socket of a connection that is late (its thread then sees
// the connection end and frees itself).
//
// The server tells it when a connection opens (its socket), when a head arrived (the clock stops:
// a stream may then last for hours), when a reply is done (the clock starts again) and when the
// connection closes, always before its socket is closed (so that a socket number reused by a
// new connection is never shut by mistake). Thread-safe.

#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <map>
#include <mutex>
#include <thread>

namespace diskref::net {

class RequestDeadlines {
 public:
  using Clock = std::chrono::steady_clock;
  explicit RequestDeadlines(std::chrono::milliseconds limit);
  ~RequestDeadlines();
  RequestDeadlines(const RequestDeadlines&) = delete;
  RequestDeadlines& operator=(const RequestDeadlines&) = delete;

  // Returns the connection's id (never 0).
  std::uint64_t opened(int socket);
  void line_arrived(std::uint64_t id);  // a request line was read (its head may yet fail)
  void head_arrived(std::uint64_t id);
  // An upload's body is awaited: it must have arrived within `limit` from now (head_arrived again
  // when it has, which stops the clock while the upload is answered).
  void body_expected(std::uint64_t id, std::chrono::milliseconds limit);
  void reply_done(std::uint64_t id);
  // True when a request line arrived on the connection but no request head was ever routed: the
  // head was refused by libmicrohttpd (a malformed header, one too large, an HTTP version not 1.x).
  bool closed(std::uint64_t id);
  // Connections cut for being late, so far.
  int cut() const;

 private:
  void watch();

  const std::chrono::milliseconds limit_;
  mutable std::mutex mutex_;
  std::condition_variable changed_;
  struct Watched {
    int socket = -1;
    Clock::time_point deadline = Clock::time_point::max();  // max: no head awaited
    bool line_seen = false;
    bool head_seen = false;
  };
  std::map<std::uint64_t, Watched> watched_;
  std::uint64_t next_id_ = 1;
  int cut_ = 0;
  bool stopping_ = false;
  std::thread thread_;
};

}  // namespace diskref::net
