#include "net/http_feed_server.h"

#include <stdexcept>

#include <httplib.h>
#include <sys/socket.h>

namespace diskref::net {
namespace {

std::string sse_event(const std::string& type, long long seq, const std::string& data) {
  return "id: " + std::to_string(seq) + "\nevent: " + type + "\ndata: " + data + "\n\n";
}

}  // namespace

HttpFeedServer::HttpFeedServer(FeedHub& hub, HttpFeedOptions options, ProblemReports& problems)
    : hub_(hub), options_(std::move(options)), problems_(problems), server_(std::make_unique<httplib::Server>()) {
  // One thread per open stream and some for the snapshot and the pages.
  const int threads = options_.max_streams + 8;
  server_->new_task_queue = [threads] { return new httplib::ThreadPool(static_cast<std::size_t>(threads)); };
  const int send_buffer = options_.send_buffer_bytes;
  // Not cpp-httplib's default (which adds SO_REUSEPORT: another program could then take the same
  // port beside ours); accepted connections inherit the send buffer.
  server_->set_socket_options([send_buffer](int sock) {
    int yes = 1;
    setsockopt(sock, SOL_SOCKET, SO_REUSEADDR, &yes, sizeof yes);
    setsockopt(sock, SOL_SOCKET, SO_SNDBUF, &send_buffer, sizeof send_buffer);
  });
  server_->set_write_timeout(options_.write_timeout);
  server_->set_read_timeout(std::chrono::seconds(5));
  server_->set_payload_max_length(64 * 1024);  // nothing here takes a body
  server_->set_tcp_nodelay(true);
  route();
  port_ = options_.listen.port == 0 ? server_->bind_to_any_port(options_.listen.host)
                                    : (server_->bind_to_port(options_.listen.host, options_.listen.port)
                                           ? options_.listen.port
                                           : -1);
  if (port_ <= 0)
    throw std::runtime_error("the live feed cannot listen on " + to_string(options_.listen) +
                             " (the address is not this machine's, or the port is taken)");
  thread_ = std::thread([this] { server_->listen_after_bind(); });
}

HttpFeedServer::~HttpFeedServer() {
  // When the hub has closed, every stream sends what was published before and ends on its own;
  // a short wait lets them (a client that reads nothing holds this up at most a second).
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(1);
  while (hub_.closed() && open_streams_.load() > 0 && std::chrono::steady_clock::now() < give_up)
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  stopping_ = true;
  server_->stop();
  if (thread_.joinable()) thread_.join();
}

std::string HttpFeedServer::url() const { return "http://" + to_string(Endpoint{options_.listen.host, port_}) + "/"; }

void HttpFeedServer::add_page(const std::string& path, std::string content_type, std::string body) {
  server_->Get(path, [type = std::move(content_type), body = std::move(body)](const httplib::Request&,
                                                                             httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_content(body, type.c_str());
  });
}

void HttpFeedServer::route() {
  server_->Get("/feed/v1/snapshot", [this](const httplib::Request&, httplib::Response& res) {
    res.set_header("Cache-Control", "no-store");
    res.set_header("Access-Control-Allow-Origin", "*");
    res.set_content(hub_.snapshot().message.dump(), "application/json");
  });

  server_->Get("/feed/v1/events", [this](const httplib::Request& req, httplib::Response& res) {
    if (open_streams_.fetch_add(1) >= options_.max_streams) {
      open_streams_.fetch_sub(1);
      problems_.report("too_many_streams", "the live feed: more than " + std::to_string(options_.max_streams) +
                                               " streams at once; more are refused (503) until one closes");
      res.status = 503;
      res.set_content(R"({"error": "too many streams open; try again later"})", "application/json");
      return;
    }
    res.set_header("Cache-Control", "no-store");
    res.set_header("Access-Control-Allow-Origin", "*");
    auto cursor = std::make_shared<long long>(-1);
    auto quiet_since = std::make_shared<std::chrono::steady_clock::time_point>(std::chrono::steady_clock::now());
    const std::string client = req.remote_addr;
    res.set_chunked_content_provider(
        "text/event-stream",
        [this, cursor, quiet_since, client](std::size_t, httplib::DataSink& sink) {
          if (stopping_) return false;
          if (*cursor < 0) {  // a new stream starts with everything now
            FeedHub::Snapshot s = hub_.snapshot();
            *cursor = s.seq;
            const std::string text = sse_event("snapshot", s.seq, s.message.dump());
            return sink.write(text.data(), text.size());
          }
          FeedHub::Batch b = hub_.wait_after(*cursor, std::chrono::milliseconds(500));
          if (stopping_) return false;
          if (b.fell_behind) {
            problems_.report("slow_client", "the live feed: a client (" + client +
                                                ") fell behind its stream and was cut off; it gets the snapshot "
                                                "again when it reconnects");
            return false;
          }
          const auto now = std::chrono::steady_clock::now();
          std::string text;
          for (const auto& e : b.events) text += sse_event(e->type, e->seq, e->data);
          // The feed closed: what was published before it still goes out (the game's last ruling).
          if (text.empty() && b.closed) return false;
          if (text.empty() && now - *quiet_since < options_.keep_alive) return true;
          if (text.empty()) text = ":\n\n";
          *quiet_since = now;
          if (!b.events.empty()) *cursor = b.events.back()->seq;
          const auto write_start = std::chrono::steady_clock::now();
          if (!sink.write(text.data(), text.size())) {
            // A client that closed its page fails at once; one that stopped reading fails after
            // the write timeout: only that one is a problem.
            if (std::chrono::steady_clock::now() - write_start >= options_.write_timeout / 2)
              problems_.report("stalled_client", "the live feed: a client (" + client +
                                                     ") stopped taking its stream and was cut off");
            return false;
          }
          return !b.closed;
        },
        [this](bool) { open_streams_.fetch_sub(1); });
  });

  server_->set_logger([this](const httplib::Request& req, const httplib::Response& res) {
    if (res.status == 400)  // cpp-httplib could not read it as HTTP: no path, no address known
      problems_.report("bad_request_400",
                       "the live feed: a malformed request was refused (400); further ones are not reported");
    else if (res.status >= 400 && res.status < 500)
      problems_.report("bad_request_" + std::to_string(res.status),
                       "the live feed: a request for " + req.path.substr(0, 80) + " from " + req.remote_addr +
                           " was refused (" + std::to_string(res.status) + "); further ones like it are not reported");
  });
  server_->set_error_handler([](const httplib::Request&, httplib::Response& res) {
    if (res.body.empty())
      res.set_content("{\"error\": \"" + std::to_string(res.status) + "\", \"see\": \"/feed/v1/snapshot\"}",
                      "application/json");
  });
}

}  // namespace diskref::net
