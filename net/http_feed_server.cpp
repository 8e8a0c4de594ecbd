#include "net/http_feed_server.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <microhttpd.h>
#include <netdb.h>
#include <sys/socket.h>

#include <cstdio>
#include <cstring>
#include <stdexcept>
#include <thread>

#include <nlohmann/json.hpp>

#include "net/http_access.h"
#include "net/printable_text.h"
#include "net/request_deadlines.h"

namespace diskref::net {

struct HttpFeedServer::Page {
  std::string content_type;
  std::string body;
  bool framable = false;
  std::string image_sources;  // its CSP img-src; empty: none
};

struct HttpFeedServer::UploadPath {
  UploadRoute route;
  std::atomic<int> open{0};  // uploads being received or answered
};

// One request's marker (MHD's per-request pointer): what it was, for when it ends.
struct HttpFeedServer::Request {
  bool stream = false;
  // An upload taken at its head: its path (holding one of its `max_at_once`), its body so far,
  // and what the handler is given beside it.
  std::shared_ptr<UploadPath> upload;
  Upload received;
};

struct HttpFeedServer::Stream {
  HttpFeedServer* owner = nullptr;
  bool cut = false;       // ended as an error (the client fell behind)
  long long cursor = -1;  // the last seq sent; -1: the snapshot is still to send
  std::string pending;    // text produced and not yet handed to MHD
  std::size_t taken = 0;  // of `pending`
  std::string client;
  std::chrono::steady_clock::time_point quiet_since = std::chrono::steady_clock::now();
};

namespace {

// What each kind of answer may do in a browser (docs/design/network-security.md): the pages load
// their own scripts and style sheets and connect to their own stream, nothing else; no page may
// be framed by another site but the overlay (a streaming program shows it in a browser source).
constexpr const char* kPagePolicy =
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; "
    "base-uri 'none'; form-action 'none'";
constexpr const char* kDataPolicy = "default-src 'none'; frame-ancestors 'none'";

std::string sse_event(const std::string& type, long long seq, const std::string& data) {
  return "id: " + std::to_string(seq) + "\nevent: " + type + "\ndata: " + data + "\n\n";
}

std::string client_address(MHD_Connection* c) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!info || !info->client_addr) return "?";
  char text[INET6_ADDRSTRLEN] = "?";
  const sockaddr* a = info->client_addr;
  if (a->sa_family == AF_INET)
    inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a)->sin_addr, text, sizeof text);
  else if (a->sa_family == AF_INET6)
    inet_ntop(AF_INET6, &reinterpret_cast<const sockaddr_in6*>(a)->sin6_addr, text, sizeof text);
  return text;
}

std::string header(MHD_Connection* c, const char* name) {
  const char* v = MHD_lookup_connection_value(c, MHD_HEADER_KIND, name);
  return v ? v : "";
}

MHD_Result count_one(void* cls, MHD_ValueKind, const char*, const char*) {
  ++*static_cast<std::size_t*>(cls);
  return MHD_YES;
}

void add_security_headers(MHD_Response* r, bool page, bool framable, const std::string& image_sources = "") {
  MHD_add_response_header(r, "X-Content-Type-Options", "nosniff");
  MHD_add_response_header(r, "Cache-Control", "no-store");
  MHD_add_response_header(r, "Referrer-Policy", "no-referrer");  // the token never leaves in a Referer
  MHD_add_response_header(r, "Cross-Origin-Resource-Policy", "same-origin");
  if (page)
    MHD_add_response_header(r, "Content-Security-Policy",
                            (std::string(kPagePolicy) + (image_sources.empty() ? "" : "; img-src " + image_sources) +
                             (framable ? "" : "; frame-ancestors 'none'"))
                                .c_str());
  else
    MHD_add_response_header(r, "Content-Security-Policy", kDataPolicy);
  if (!framable) MHD_add_response_header(r, "X-Frame-Options", "DENY");
}

MHD_Result queue(MHD_Connection* c, unsigned status, const std::string& body, const char* type, bool page = false,
                 bool framable = false, const std::vector<std::pair<std::string, std::string>>& extra = {},
                 const std::string& image_sources = "") {
  MHD_Response* r = MHD_create_response_from_buffer(body.size(), const_cast<char*>(body.data()), MHD_RESPMEM_MUST_COPY);
  if (!r) return MHD_NO;
  MHD_add_response_header(r, "Content-Type", type);
  add_security_headers(r, page, framable, image_sources);
  for (const auto& [k, v] : extra) MHD_add_response_header(r, k.c_str(), v.c_str());
  const MHD_Result result = MHD_queue_response(c, status, r);
  MHD_destroy_response(r);
  return result;
}

MHD_Result refuse(MHD_Connection* c, unsigned status, const std::string& why,
                  const std::vector<std::pair<std::string, std::string>>& extra = {}) {
  nlohmann::json body = {{"error", std::to_string(status)}, {"why", why}, {"see", "/feed/v1/snapshot"}};
  return queue(c, status, body.dump(), "application/json", false, false, extra);
}

// C callbacks into the server.
MHD_Result on_request(void* cls, MHD_Connection* c, const char* url, const char* method, const char*,
                      const char* upload_data, size_t* upload_size, void** request_cls) {
  auto* server = static_cast<HttpFeedServer*>(cls);
  auto*& request = *reinterpret_cast<HttpFeedServer::Request**>(request_cls);
  if (request && *upload_size != 0) {
    // An upload's body, taken; any other (a request announcing one was refused at its head): dropped.
    const std::size_t size = *upload_size;
    *upload_size = 0;
    return server->receive(*request, upload_data, size) ? MHD_YES : MHD_NO;
  }
  return server->answer(c, url, method, request) ? MHD_YES : MHD_NO;
}

ssize_t on_stream_read(void* cls, uint64_t, char* buffer, size_t max) {
  auto* stream = static_cast<HttpFeedServer::Stream*>(cls);
  return stream->owner->read_stream(*stream, buffer, max);
}

void on_connection(void* cls, MHD_Connection* c, void** socket_context, MHD_ConnectionNotificationCode code) {
  static_cast<HttpFeedServer*>(cls)->connection_event(c, socket_context, code == MHD_CONNECTION_NOTIFY_STARTED);
}

void* on_request_line(void* cls, const char*, MHD_Connection* c) {
  static_cast<HttpFeedServer*>(cls)->request_line(c);
  return nullptr;  // the request's own pointer is made when its head is answered
}

void on_completed(void* cls, MHD_Connection* c, void** request_cls, MHD_RequestTerminationCode toe) {
  static_cast<HttpFeedServer*>(cls)->request_done(c, static_cast<HttpFeedServer::Request*>(*request_cls),
                                                  static_cast<int>(toe));
  delete static_cast<HttpFeedServer::Request*>(*request_cls);
  *request_cls = nullptr;
}

MHD_Result collect_argument(void* cls, MHD_ValueKind, const char* key, const char* value) {
  if (key && std::strcmp(key, "token") != 0)
    (*static_cast<std::map<std::string, std::string>*>(cls))[key] = value ? value : "";
  return MHD_YES;
}

std::string megabytes(std::size_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.3g MiB", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return text;
}

// The host a browser on another machine is given: a wildcard address (0.0.0.0, ::) is no address
// to open, so the first of this machine's own that is not loopback stands for it (IPv4 first).
std::string host_to_open(const std::string& listen_host) {
  if (listen_host != "0.0.0.0" && listen_host != "::") return listen_host;
  ifaddrs* all = nullptr;
  if (getifaddrs(&all) != 0) return listen_host;
  std::string v4, v6;
  for (const ifaddrs* a = all; a; a = a->ifa_next) {
    if (!a->ifa_addr) continue;
    char text[INET6_ADDRSTRLEN] = "";
    if (a->ifa_addr->sa_family == AF_INET && v4.empty()) {
      inet_ntop(AF_INET, &reinterpret_cast<const sockaddr_in*>(a->ifa_addr)->sin_addr, text, sizeof text);
      if (std::string(text).rfind("127.", 0) != 0) v4 = text;
    } else if (a->ifa_addr->sa_family == AF_INET6 && v6.empty() && listen_host == "::") {
      const auto* in6 = reinterpret_cast<const sockaddr_in6*>(a->ifa_addr);
      if (!IN6_IS_ADDR_LOOPBACK(&in6->sin6_addr) && !IN6_IS_ADDR_LINKLOCAL(&in6->sin6_addr)) {
        inet_ntop(AF_INET6, &in6->sin6_addr, text, sizeof text);
        v6 = text;
      }
    }
  }
  freeifaddrs(all);
  return !v4.empty() ? v4 : !v6.empty() ? v6 : listen_host;
}

// The address to listen on: a numeric address, or a name resolved once ("localhost").
sockaddr_storage listen_address(const Endpoint& e) {
  addrinfo hints{};
  hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  const std::string port = std::to_string(e.port);
  if (getaddrinfo(e.host.c_str(), port.c_str(), &hints, &found) != 0 || !found)
    throw std::runtime_error("the live feed cannot listen on " + to_string(e) + " (not an address of this machine)");
  sockaddr_storage a{};
  std::memcpy(&a, found->ai_addr, found->ai_addrlen);
  freeaddrinfo(found);
  return a;
}

}  // namespace

HttpFeedServer::HttpFeedServer(FeedHub& hub, HttpFeedOptions options, ProblemReports& problems)
    : hub_(hub),
      options_(std::move(options)),
      problems_(problems),
      deadlines_(std::make_unique<RequestDeadlines>(options_.limits.request_timeout)) {
  sockaddr_storage address = listen_address(options_.listen);
  unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL;
  if (address.ss_family == AF_INET6) flags |= MHD_USE_IPv6;
  const HttpLimits& l = options_.limits;
  std::vector<MHD_OptionItem> o = {
      {MHD_OPTION_SOCK_ADDR, 0, &address},
      {MHD_OPTION_CONNECTION_MEMORY_LIMIT, static_cast<intptr_t>(l.connection_memory_bytes), nullptr},
      {MHD_OPTION_CONNECTION_LIMIT, static_cast<intptr_t>(l.max_connections), nullptr},
      {MHD_OPTION_PER_IP_CONNECTION_LIMIT, static_cast<intptr_t>(l.connections_per_address), nullptr},
      {MHD_OPTION_CONNECTION_TIMEOUT, static_cast<intptr_t>(l.inactivity_timeout.count()), nullptr},
      {MHD_OPTION_LISTEN_BACKLOG_SIZE, l.listen_backlog, nullptr},
      // Not MHD_OPTION_STRICT_FOR_CLIENT: what it adds (refusing a request without Host, or with a
      // space in its target) MHD answers itself, with none of the security headers; a request
      // without Host is refused below instead, and a target with a space is no page.
      {MHD_OPTION_NOTIFY_CONNECTION, reinterpret_cast<intptr_t>(&on_connection), this},
      {MHD_OPTION_NOTIFY_COMPLETED, reinterpret_cast<intptr_t>(&on_completed), this},
      {MHD_OPTION_URI_LOG_CALLBACK, reinterpret_cast<intptr_t>(&on_request_line), this},
  };
  if (!options_.tls_cert_pem.empty()) {
    if (MHD_is_feature_supported(MHD_FEATURE_TLS) != MHD_YES)
      throw std::runtime_error("the live feed: this libmicrohttpd has no TLS");
    flags |= MHD_USE_TLS;
    o.push_back({MHD_OPTION_HTTPS_MEM_CERT, 0, const_cast<char*>(options_.tls_cert_pem.c_str())});
    o.push_back({MHD_OPTION_HTTPS_MEM_KEY, 0, const_cast<char*>(options_.tls_key_pem.c_str())});
  }
  o.push_back({MHD_OPTION_END, 0, nullptr});
  daemon_ = MHD_start_daemon(flags, static_cast<uint16_t>(options_.listen.port), nullptr, nullptr, &on_request, this,
                             MHD_OPTION_ARRAY, o.data(), MHD_OPTION_END);
  if (!daemon_)
    throw std::runtime_error("the live feed cannot listen on " + to_string(options_.listen) +
                             (options_.tls_cert_pem.empty()
                                  ? " (the address is not this machine's, or the port is taken)"
                                  : " (the address is not this machine's, the port is taken, or the certificate or "
                                    "its key cannot be used)"));
  const MHD_DaemonInfo* info = MHD_get_daemon_info(daemon_, MHD_DAEMON_INFO_BIND_PORT);
  port_ = info ? info->port : options_.listen.port;
}

HttpFeedServer::~HttpFeedServer() {
  // When the hub has closed, every stream sends what was published before and ends on its own;
  // a short wait lets them (a client that reads nothing holds this up at most a second).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (hub_.closed() && open_streams_.load() > 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  stopping_ = true;
  // Shuts every connection's socket and joins its thread: a thread in a stream wakes within the
  // hub's wait (500 ms), one reading a trickling client at once.
  MHD_stop_daemon(daemon_);
  deadlines_.reset();
}

std::string HttpFeedServer::url_without_token() const {
  return scheme() + "://" + to_string(Endpoint{host_to_open(options_.listen.host), port_}) + "/";
}

std::string HttpFeedServer::url() const {
  return url_without_token() + (options_.token.empty() ? "" : "?token=" + options_.token);
}

int HttpFeedServer::cut_for_slowness() const {
  return deadlines_->cut();
}

int HttpFeedServer::uploads_open(const std::string& path) const {
  std::lock_guard lock(pages_mutex_);
  const auto it = uploads_.find(path);
  return it == uploads_.end() ? 0 : it->second->open.load();
}

void HttpFeedServer::add_page(const std::string& path, std::string content_type, std::string body, bool framable,
                              std::string image_sources) {
  auto page =
      std::make_shared<const Page>(Page{std::move(content_type), std::move(body), framable, std::move(image_sources)});
  std::lock_guard lock(pages_mutex_);
  pages_[path] = std::move(page);
}

void HttpFeedServer::add_upload(const std::string& path, UploadRoute route) {
  auto upload = std::make_shared<UploadPath>();
  upload->route = std::move(route);
  std::lock_guard lock(pages_mutex_);
  uploads_[path] = std::move(upload);
}

void HttpFeedServer::connection_event(MHD_Connection* c, void** socket_context, bool opened) {
  if (opened) {
    const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    const int fd = info ? info->connect_fd : -1;
    if (fd >= 0) setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &options_.send_buffer_bytes, sizeof options_.send_buffer_bytes);
    *socket_context = reinterpret_cast<void*>(static_cast<std::uintptr_t>(deadlines_->opened(fd)));
  } else {
    // Before MHD closes the socket: the watchdog forgets it first.
    // A request line came but no head reached answer(): libmicrohttpd refused the head itself (a
    // malformed header, a head too large for its memory, an HTTP version not 1.x).
    if (deadlines_->closed(reinterpret_cast<std::uintptr_t>(*socket_context)))
      problems_.report("bad_request_400",
                       "the live feed: a malformed request was refused; further ones are not reported");
  }
}

void HttpFeedServer::request_line(MHD_Connection* c) {
  if (const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT))
    deadlines_->line_arrived(reinterpret_cast<std::uintptr_t>(info->socket_context));
}

void HttpFeedServer::request_done(MHD_Connection* c, Request* request, int termination) {
  const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  if (info) deadlines_->reply_done(reinterpret_cast<std::uintptr_t>(info->socket_context));
  if (request && request->upload) request->upload->open.fetch_sub(1);
  if (request && request->stream && termination == MHD_REQUEST_TERMINATED_TIMEOUT_REACHED)
    problems_.report("stalled_client",
                     "the live feed: a client (" + client_address(c) + ") stopped taking its stream and was cut off");
}

int HttpFeedServer::answer(MHD_Connection* c, const char* url, const char* method, Request*& request) {
  // Called twice for a request: when its head has arrived (refused then, if it is refused), and
  // when libmicrohttpd knows the request is complete (no body), when it is answered; what follows
  // in the connection's buffer is then the next pipelined request, answered in its turn.
  const bool head = !request;
  if (head) {
    request = new Request{};
    if (const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT))
      deadlines_->head_arrived(reinterpret_cast<std::uintptr_t>(info->socket_context));
  }
  const HttpLimits& l = options_.limits;
  const std::string path = url ? url : "";
  const auto refused = [&](unsigned status, const std::string& why,
                           const std::vector<std::pair<std::string, std::string>>& extra = {}) {
    problems_.report("bad_request_" + std::to_string(status), "the live feed: a request for " + printable(path, 80) +
                                                                  " from " + client_address(c) + " was refused (" +
                                                                  std::to_string(status) + ": " + why +
                                                                  "); further ones like it are not reported");
    return refuse(c, status, why, extra) == MHD_YES;
  };
  // Before anything is routed: what this server accepts of anyone.
  const std::string m = method ? method : "";
  std::shared_ptr<UploadPath> upload;
  {
    std::lock_guard lock(pages_mutex_);
    if (const auto it = uploads_.find(path); it != uploads_.end()) upload = it->second;
  }
  if (upload && m != "POST") return refused(405, "only POST (an upload) here", {{"Allow", "POST"}});
  if (!upload && m != "GET" && m != "HEAD") return refused(405, "only GET and HEAD", {{"Allow", "GET, HEAD"}});
  std::size_t headers = 0;
  MHD_get_connection_values(c, MHD_HEADER_KIND, &count_one, &headers);
  if (headers > l.max_headers) return refused(431, "more than " + std::to_string(l.max_headers) + " headers");
  if (const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_REQUEST_HEADER_SIZE);
      info && info->header_size > l.max_head_bytes)
    return refused(431, "a request head larger than " + std::to_string(l.max_head_bytes) + " bytes");
  std::size_t target = path.size();
  MHD_get_connection_values(
      c, MHD_GET_ARGUMENT_KIND,
      [](void* cls, MHD_ValueKind, const char* k, const char* v) {
        *static_cast<std::size_t*>(cls) += std::strlen(k) + (v ? std::strlen(v) : 0) + 2;
        return MHD_YES;
      },
      &target);
  if (target > l.max_target_bytes) return refused(414, "the request target is too long");
  const std::string length = header(c, MHD_HTTP_HEADER_CONTENT_LENGTH);
  const bool length_readable =
      !length.empty() && length.find_first_not_of("0123456789") == std::string::npos && length.size() <= 12;
  if (!upload && (!header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING).empty() ||
                  (!length.empty() && (!length_readable || std::stoull(length) > l.max_body_bytes))))
    return refused(413, "no body is accepted here");
  // One range, or none: a single range is answered whole (200), which HTTP allows; several (which
  // may overlap and so multiply the reply) are refused.
  if (header(c, MHD_HTTP_HEADER_RANGE).find(',') != std::string::npos) return refused(416, "at most one byte range");
  const char* host = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_HOST);
  if (!host) return refused(400, "no Host header");
  if (!host_allowed(header(c, MHD_HTTP_HEADER_HOST), options_.host_names))
    return refused(421, "this server does not answer to that host name (use --serve-name to add one)");
  if (upload) {
    if (!head) return answer_upload(c, *request);
    // Everything an upload may be refused for is said now, before its body is read.
    if (!options_.token.empty()) {
      const char* query = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
      if (!same_token(
              token_of(query ? query : "", header(c, MHD_HTTP_HEADER_AUTHORIZATION), header(c, MHD_HTTP_HEADER_COOKIE)),
              options_.token))
        return refused(401, "a token is required: open the address diskref printed (it ends in ?token=...)");
    }
    const UploadRoute& route = upload->route;
    if (!header(c, MHD_HTTP_HEADER_TRANSFER_ENCODING).empty() || !length_readable)
      return refused(411, "send the body with its Content-Length (not chunked)");
    const unsigned long long declared = std::stoull(length);
    if (declared > route.max_body_bytes)
      return refused(
          413, "the upload is " + megabytes(declared) + ", more than the limit of " + megabytes(route.max_body_bytes));
    if (upload->open.fetch_add(1) >= route.max_at_once) {
      upload->open.fetch_sub(1);
      return refused(503, "busy with " + std::to_string(route.max_at_once) + " uploads; try again in a moment",
                     {{"Retry-After", "5"}});
    }
    request->upload = upload;  // holds its place until the request ends (request_done)
    request->received.body.reserve(declared);
    request->received.content_type = header(c, MHD_HTTP_HEADER_CONTENT_TYPE);
    request->received.client = client_address(c);
    MHD_get_connection_values(c, MHD_GET_ARGUMENT_KIND, &collect_argument, &request->received.query);
    if (const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT))
      deadlines_->body_expected(reinterpret_cast<std::uintptr_t>(info->socket_context), route.body_timeout);
    return true;
  }
  if (head) return true;

  std::shared_ptr<const Page> page;
  {
    std::lock_guard lock(pages_mutex_);
    if (const auto it = pages_.find(path); it != pages_.end()) page = it->second;
  }
  const bool feed_path = options_.serve_feed && (path == "/feed/v1/snapshot" || path == "/feed/v1/events");
  const bool known = page || feed_path;
  std::vector<std::pair<std::string, std::string>> cookie;
  if (known && !options_.token.empty() && !options_.public_read) {
    const char* query = MHD_lookup_connection_value(c, MHD_GET_ARGUMENT_KIND, "token");
    const std::string given =
        token_of(query ? query : "", header(c, MHD_HTTP_HEADER_AUTHORIZATION), header(c, MHD_HTTP_HEADER_COOKIE));
    if (!same_token(given, options_.token))
      return refused(401, "a token is required: open the address diskref printed (it ends in ?token=...)");
    // Given in the address: kept by the browser for the page's scripts and its stream.
    if (query)
      cookie.push_back({MHD_HTTP_HEADER_SET_COOKIE, std::string(kTokenCookie) + "=" + options_.token +
                                                        "; Path=/; HttpOnly; SameSite=Strict" +
                                                        (options_.tls_cert_pem.empty() ? "" : "; Secure")});
  }

  if (page)
    return queue(c, 200, page->body, page->content_type.c_str(), true, page->framable, cookie, page->image_sources) ==
           MHD_YES;
  if (!feed_path) return refused(404, "no such page");
  if (path == "/feed/v1/snapshot")
    return queue(c, 200, *hub_.snapshot_text().text, "application/json", false, false, cookie) == MHD_YES;
  if (path == "/feed/v1/events") {
    if (open_streams_.fetch_add(1) >= options_.max_streams) {
      open_streams_.fetch_sub(1);
      problems_.report("too_many_streams", "the live feed: more than " + std::to_string(options_.max_streams) +
                                               " streams at once; more are refused (503) until one closes");
      return refuse(c, 503, "too many streams open; try again later") == MHD_YES;
    }
    request->stream = true;
    auto* stream = new Stream{};
    stream->owner = this;
    stream->client = client_address(c);
    MHD_Response* r = MHD_create_response_from_callback(
        MHD_SIZE_UNKNOWN, 16 * 1024, &on_stream_read, stream,
        [](void* cls) { static_cast<Stream*>(cls)->owner->stream_closed(static_cast<Stream*>(cls)); });
    if (!r) {
      stream_closed(stream);
      return false;
    }
    MHD_add_response_header(r, "Content-Type", "text/event-stream");
    add_security_headers(r, false, false);
    const MHD_Result queued = MHD_queue_response(c, 200, r);
    MHD_destroy_response(r);
    return queued == MHD_YES;
  }
  return refused(404, "no such page");
}

bool HttpFeedServer::receive(Request& request, const char* data, std::size_t size) {
  // libmicrohttpd passes no more than the Content-Length, which was within the limit; a body for
  // a request that is no upload was refused at its head, and is dropped.
  if (!request.upload) return true;
  if (request.received.body.size() + size > request.upload->route.max_body_bytes) return false;
  request.received.body.append(data, size);
  return true;
}

bool HttpFeedServer::answer_upload(MHD_Connection* c, Request& request) {
  // The body is in: the deadline stops while the handler works (a photo takes seconds).
  if (const MHD_ConnectionInfo* info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT))
    deadlines_->head_arrived(reinterpret_cast<std::uintptr_t>(info->socket_context));
  UploadAnswer a;
  try {
    a = request.upload->route.handler(request.received);
  } catch (const std::exception& e) {
    problems_.report("upload_failed", std::string("an upload could not be answered: ") + printable(e.what(), 200));
    a.status = 500;
    a.body =
        nlohmann::json{{"error", "500"}, {"why", std::string("the upload could not be answered: ") + e.what()}}.dump();
  }
  request.received = Upload{};  // the body's memory, given back before the answer is sent
  return queue(c, a.status, a.body, a.content_type.c_str()) == MHD_YES;
}

void HttpFeedServer::stream_closed(Stream* stream) {
  delete stream;
  open_streams_.fetch_sub(1);
}

long HttpFeedServer::read_stream(Stream& s, char* buffer, std::size_t max) {
  if (s.taken == s.pending.size()) {
    s.pending.clear();
    s.taken = 0;
    if (!fill(s)) return s.cut ? MHD_CONTENT_READER_END_WITH_ERROR : MHD_CONTENT_READER_END_OF_STREAM;
  }
  const std::size_t n = std::min(max, s.pending.size() - s.taken);
  std::memcpy(buffer, s.pending.data() + s.taken, n);
  s.taken += n;
  return static_cast<long>(n);
}

// Waits (on this connection's own thread) for something to send; false when the stream ends
// (the feed closed, the server stopping, or the client fell behind: then `cut`).
bool HttpFeedServer::fill(Stream& s) {
  for (;;) {
    if (stopping_) return false;
    if (s.cursor < 0) {  // a new stream starts with everything now
      FeedHub::SnapshotText snap = hub_.snapshot_text();
      s.cursor = snap.seq;
      s.pending = sse_event("snapshot", snap.seq, *snap.text);
      return true;
    }
    FeedHub::Batch b = hub_.wait_after(s.cursor, std::min(options_.keep_alive, std::chrono::milliseconds(500)));
    if (stopping_) return false;
    if (b.fell_behind) {
      problems_.report("slow_client", "the live feed: a client (" + s.client +
                                          ") fell behind its stream and was cut off; it gets the snapshot again "
                                          "when it reconnects");
      s.cut = true;  // ends the reply as an error: the client knows it was cut
      return false;
    }
    for (const auto& e : b.events) s.pending += sse_event(e->type, e->seq, e->data);
    const auto now = std::chrono::steady_clock::now();
    if (!b.events.empty()) {
      s.cursor = b.events.back()->seq;
      s.quiet_since = now;
      return true;
    }
    // The feed closed: what was published before it has gone out (the game's last ruling).
    if (b.closed) return false;
    if (now - s.quiet_since >= options_.keep_alive) {
      s.pending = ":\n\n";
      s.quiet_since = now;
      return true;
    }
  }
}

}  // namespace diskref::net
