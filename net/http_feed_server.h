#pragma once
// The live feed over HTTP (spec §10.2): the snapshot, the stream (Server-Sent Events) and the
// pages that show them (the stream overlay, the hall), served by libmicrohttpd, a thread per
// connection. The referee's thread only publishes into the hub; a client that is slow, stops
// reading, trickles its request or sends nonsense costs its own connection, never the referee's
// time nor another client's answer, and each kind of trouble is reported once (escaped: see
// printable_text.h).
//
//   GET /                     the overlay page (also /overlay) or the hall page
//   GET /feed/v1/snapshot     everything now, one JSON object
//   GET /feed/v1/events       text/event-stream: a "snapshot" event, then every message as it
//                             is published (event: its type, id: its seq, data: the JSON)
//   POST <an upload's path>   a body for a handler the program gives (http_upload.h: the photo
//                             page's picture); refused at its head when it may not be taken
//
// Why libmicrohttpd and not cpp-httplib (which served the feed before): Debian's cpp-httplib
// 0.11.4 is a prebuilt library whose limits were fixed when it was built; it reads any number of
// headers (10,000 of them, 32 MB, were answered 200), serves any number of overlapping byte
// ranges, gives each connection a thread from a fixed pool for as long as the client trickles
// its request (about 110 slow clients took every thread) and waits for those threads to finish
// reading before it stops. libmicrohttpd (Debian libmicrohttpd-dev) bounds the request head by a
// memory limit per connection, limits connections per address and in all, serves no ranges,
// handles pipelined requests, has a settable listen backlog, stops its connection threads
// promptly and speaks TLS (GnuTLS). What it does not do (a whole-request deadline, the header
// count, the Host and the token) is done here, before a request is routed. The limits are in
// http_limits.h, the access rules in http_access.h.

#include <atomic>
#include <chrono>
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "net/endpoint.h"
#include "net/feed_hub.h"
#include "net/http_limits.h"
#include "net/http_upload.h"
#include "net/problem_reports.h"

struct MHD_Daemon;
struct MHD_Connection;

namespace diskref::net {

class RequestDeadlines;

struct HttpFeedOptions {
  Endpoint listen{kLoopback, 0};
  // Streams open at once; one more is answered 503 (each holds a connection's thread).
  int max_streams = 100;
  // The kernel's send buffer per connection: how much a client that stopped reading can owe
  // before the inactivity timeout starts counting.
  int send_buffer_bytes = 64 * 1024;
  // A stream with nothing to say sends a comment this often (so that a dead client is noticed,
  // and a live one is not taken for inactive): under limits.inactivity_timeout.
  std::chrono::milliseconds keep_alive{2000};
  HttpLimits limits;
  // Host names answered beside "localhost" and IP addresses (--serve-name).
  std::vector<std::string> host_names;
  // Required of every request when not empty (beyond loopback: --serve 0.0.0.0:PORT).
  std::string token;
  // With a token: the pages and the feed (all read-only) are open without it (--serve-public).
  bool public_read = false;
  // The hub's snapshot and stream (/feed/v1/...); false for a server of pages alone (`diskref
  // serve`: the photo page), which then has no feed to show.
  bool serve_feed = true;
  // TLS (--serve-cert, --serve-key): PEM text of the certificate (chain) and its private key.
  std::string tls_cert_pem, tls_key_pem;
};

class HttpFeedServer {
 public:
  // Binds at once (throws std::runtime_error naming the address when it cannot), then serves on
  // threads of its own until destroyed.
  HttpFeedServer(FeedHub& hub, HttpFeedOptions options, ProblemReports& problems);
  ~HttpFeedServer();
  HttpFeedServer(const HttpFeedServer&) = delete;
  HttpFeedServer& operator=(const HttpFeedServer&) = delete;

  // A page (or a script, a style sheet) served at `path`. Only a `framable` page may be shown
  // inside another site's frame (the overlay, for a streaming program's browser source).
  // `image_sources`, when given, is the page's CSP img-src (the photo page: "blob:", the pictures
  // it makes from what it chose and was answered); otherwise a page shows no image.
  void add_page(const std::string& path, std::string content_type, std::string body, bool framable = false,
                std::string image_sources = "");
  // A path that takes a body (POST), answered by `route.handler` once the body is in; the token
  // (when one is required) is checked at the request's head, before the body is read, even with
  // --serve-public (an upload changes something: it costs the server a photo's decoding).
  void add_upload(const std::string& path, UploadRoute route);
  int port() const { return port_; }
  // http[s]://HOST:PORT/ as a browser is given it (with ?token=... when one is required); for a
  // wildcard address (0.0.0.0, ::) HOST is this machine's first address that is not loopback.
  std::string url() const;
  // The same without the token (for messages that others may see).
  std::string url_without_token() const;
  int open_streams() const { return open_streams_.load(); }
  // Uploads to `path` taken at their head and not yet ended (0 for a path that takes none).
  int uploads_open(const std::string& path) const;
  // Connections cut because their request head was not in within limits.request_timeout.
  int cut_for_slowness() const;

  // libmicrohttpd's callbacks (public for the C linkage; not for callers).
  struct Stream;
  struct Request;
  int answer(MHD_Connection* connection, const char* url, const char* method, Request*& request);
  // A piece of an upload's body; false ends the connection (more than its Content-Length said).
  bool receive(Request& request, const char* data, std::size_t size);
  long read_stream(Stream& stream, char* buffer, std::size_t max);
  void connection_event(MHD_Connection* connection, void** socket_context, bool opened);
  void request_line(MHD_Connection* connection);
  void request_done(MHD_Connection* connection, Request* request, int termination);
  void stream_closed(Stream* stream);

 private:
  struct Page;
  struct UploadPath;
  bool answer_upload(MHD_Connection* connection, Request& request);
  bool fill(Stream& stream);
  std::string scheme() const { return options_.tls_cert_pem.empty() ? "http" : "https"; }

  FeedHub& hub_;
  HttpFeedOptions options_;
  ProblemReports& problems_;
  mutable std::mutex pages_mutex_;
  std::map<std::string, std::shared_ptr<const Page>> pages_;    // by path
  std::map<std::string, std::shared_ptr<UploadPath>> uploads_;  // by path (under pages_mutex_)
  std::unique_ptr<RequestDeadlines> deadlines_;
  MHD_Daemon* daemon_ = nullptr;
  int port_ = 0;
  std::atomic<int> open_streams_{0};
  std::atomic<bool> stopping_{false};
};

}  // namespace diskref::net
