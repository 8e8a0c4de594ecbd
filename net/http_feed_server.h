#pragma once
// The live feed over HTTP (spec §10): the snapshot, the stream (Server-Sent Events) and the pages
// that show them (the stream overlay), served by cpp-httplib on its own threads. The referee's
// thread only publishes into the hub; a client that is slow, stops reading or sends nonsense
// costs its own connection, never the referee's time, and each kind of trouble is reported once.
//
//   GET /                     the overlay page (also /overlay)
//   GET /feed/v1/snapshot     everything now, one JSON object
//   GET /feed/v1/events       text/event-stream: a "snapshot" event, then every message as it
//                             is published (event: its type, id: its seq, data: the JSON)

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <thread>

#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/problem_reports.h"

namespace httplib {
class Server;
}

namespace diskref::net {

struct HttpFeedOptions {
  Endpoint listen{kLoopback, 0};
  // Streams open at once; one more is answered 503 (each takes one of the server's threads).
  int max_streams = 100;
  // A client that takes none of its stream for this long is cut off (a write that cannot go out).
  std::chrono::milliseconds write_timeout{5000};
  // The kernel's send buffer per connection: how much a client that stopped reading can owe
  // before the write timeout starts counting.
  int send_buffer_bytes = 64 * 1024;
  // A stream with nothing to say sends a comment this often (so that a dead client is noticed).
  std::chrono::milliseconds keep_alive{10000};
};

class HttpFeedServer {
 public:
  // Binds at once (throws std::runtime_error naming the address when it cannot), then serves on
  // a thread of its own until destroyed.
  HttpFeedServer(FeedHub& hub, HttpFeedOptions options, ProblemReports& problems);
  ~HttpFeedServer();
  HttpFeedServer(const HttpFeedServer&) = delete;
  HttpFeedServer& operator=(const HttpFeedServer&) = delete;

  // A page (or a script) served at `path`.
  void add_page(const std::string& path, std::string content_type, std::string body);
  int port() const { return port_; }
  // http://HOST:PORT/ as a browser is given it.
  std::string url() const;
  int open_streams() const { return open_streams_.load(); }

 private:
  void route();

  FeedHub& hub_;
  HttpFeedOptions options_;
  ProblemReports& problems_;
  std::unique_ptr<httplib::Server> server_;
  int port_ = 0;
  std::atomic<int> open_streams_{0};
  std::atomic<bool> stopping_{false};
  std::thread thread_;
};

}  // namespace diskref::net
