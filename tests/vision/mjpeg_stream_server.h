#pragma once
// A camera on the network, for tests: an HTTP server on loopback serving JPEG frames as an MJPEG
// stream (multipart/x-mixed-replace), as phone camera apps do.
//
// Paced by frame count, not by wall time (unless `fps` is given): the stream is written as fast as
// the client reads it (TCP holds the server back), and the test says where the stream is cut: after
// frame `cut_after` the connection is closed and the server is gone (its port closed: connections
// are refused) until the test calls come_back(); the stream then goes on with frame
// `cut_after + 1 + lost` (the frames the camera took while the network was gone are never sent). A
// connection that sends no request (a client checking that the port answers) is closed and
// forgotten. `stall_after`: after that frame the server falls silent, the connection open, until
// the client gives up on it. `garbage` serves bytes that are no stream at all.
//
// Paced as a phone's camera is (`fps` given): frame i is written at start + i / fps on the steady
// clock, start being the moment the first request came, so that the times frames arrive at are the
// camera's. The cut then lasts `away_s` of wall time from the moment the camera takes the frame
// after `cut_after` (however late a slow client took the frames before), after which the server
// listens again on its own; the stream goes on with the frame the camera is taking when the next
// request comes (the frames it took meanwhile are never sent; `lost` is not used). Waiting for a
// frame's moment is the camera's nature, not a test's pause: the waits end at once when the server
// is destroyed.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cmath>
#include <condition_variable>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

namespace diskref::vision::testing {

class MjpegStreamServer {
 public:
  struct Plan {
    std::vector<std::vector<unsigned char>> jpegs;  // the frames, in order
    long long cut_after = -1;                       // -1: no cut
    long long lost = 0;
    long long stall_after = -1;  // after this frame, once: the connection held open, silent, until the client leaves
    bool garbage = false;
    double fps = 0;     // > 0: paced as a camera at this rate (see above)
    double away_s = 0;  // with fps: how long the cut lasts
  };

  explicit MjpegStreamServer(Plan plan) : plan_(std::move(plan)) {
    listen_on(0);
    thread_ = std::thread([this] { run(); });
  }
  ~MjpegStreamServer() {
    {
      std::lock_guard lock(mutex_);
      stop_ = true;
      if (listener_ >= 0) ::shutdown(listener_, SHUT_RDWR);
    }
    back_.notify_all();
    thread_.join();
    if (listener_ >= 0) ::close(listener_);
  }

  // Whether the server is gone (cut, not back yet).
  bool refusing() {
    std::lock_guard lock(mutex_);
    return gone_;
  }
  // The server is there again, on the same port (listening before this returns).
  void come_back() {
    std::lock_guard lock(mutex_);
    listen_on(port_);
    gone_ = false;
    back_.notify_all();
  }

  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/video"; }
  // Frames written whole, over every connection.
  long long frames_served() const { return served_; }
  // Connections accepted (the refused ones included).
  int connections() const { return connections_; }
  // The frame the stream went on with after the cut (nullopt: not yet).
  std::optional<long long> resumed_at() {
    std::lock_guard lock(mutex_);
    return resumed_at_;
  }

 private:
  static bool send_all(int fd, const void* data, std::size_t size) {
    const char* p = static_cast<const char*>(data);
    while (size > 0) {
      const ssize_t n = ::send(fd, p, size, MSG_NOSIGNAL);
      if (n <= 0) return false;
      p += n;
      size -= static_cast<std::size_t>(n);
    }
    return true;
  }
  static bool send_text(int fd, const std::string& text) { return send_all(fd, text.data(), text.size()); }

  void listen_on(int port) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = htons(static_cast<std::uint16_t>(port));
    ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listener_, 8);
    socklen_t n = sizeof a;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &n);
    port_ = ntohs(a.sin_port);
  }

  using Clock = std::chrono::steady_clock;

  // The cut: the port closed until come_back(), or for `away_s` when paced.
  bool go_away() {
    std::unique_lock lock(mutex_);
    ::close(listener_);
    listener_ = -1;
    gone_ = true;
    if (plan_.fps > 0) {
      const auto until = due(plan_.cut_after + 1) +
                         std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(plan_.away_s));
      if (back_.wait_until(lock, until, [&] { return !gone_ || stop_; })) return !stop_;
      listen_on(port_);
      gone_ = false;
      return true;
    }
    back_.wait(lock, [&] { return !gone_ || stop_; });
    return !stop_;
  }

  // Paced: the moment the camera takes frame `i`.
  Clock::time_point due(long long i) const {
    return *start_ + std::chrono::duration_cast<Clock::duration>(
                         std::chrono::duration<double>(static_cast<double>(i) / plan_.fps));
  }
  // Paced: waits for frame `i`'s moment; false when the server is being destroyed.
  bool wait_for_frame(long long i) {
    std::unique_lock lock(mutex_);
    return !back_.wait_until(lock, due(i), [&] { return stop_.load(); });
  }
  // Paced: the frame the camera is taking now.
  long long frame_now() const {
    const double since = std::chrono::duration<double>(Clock::now() - *start_).count();
    return static_cast<long long>(std::ceil(since * plan_.fps));
  }

  void run() {
    long long next = 0;
    bool cut_done = false;
    bool stalled = false;
    while (!stop_) {
      int listener = -1;
      {
        std::lock_guard lock(mutex_);
        listener = listener_;
      }
      const int fd = ::accept(listener, nullptr, nullptr);
      if (fd < 0) return;
      ++connections_;
      char request[4096];
      if (::recv(fd, request, sizeof request, 0) <= 0) {  // no request: only a check that the port answers
        ::close(fd);
        continue;
      }
      if (plan_.garbage) {
        std::string junk = "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace;boundary=frame\r\n\r\n";
        for (int i = 0; i < 20000; ++i) junk += static_cast<char>((i * 7919) % 251);
        send_text(fd, junk);
        ::close(fd);
        continue;
      }
      if (plan_.fps > 0) {
        if (!start_) start_ = Clock::now();
        std::lock_guard lock(mutex_);
        if (cut_done && !resumed_at_) {
          // Back after the cut: the camera has gone on taking frames meanwhile.
          next = std::max(next, frame_now());
          resumed_at_ = next;
        }
      }
      send_text(fd, "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace;boundary=frame\r\n\r\n");
      bool cut_now = false;
      while (!stop_ && next < static_cast<long long>(plan_.jpegs.size())) {
        if (plan_.fps > 0 && !wait_for_frame(next)) break;
        const std::vector<unsigned char>& j = plan_.jpegs[static_cast<std::size_t>(next)];
        if (!send_text(fd, "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(j.size()) +
                               "\r\n\r\n") ||
            !send_all(fd, j.data(), j.size()) || !send_text(fd, "\r\n"))
          break;
        ++served_;
        if (!stalled && next == plan_.stall_after) {
          stalled = true;
          ++next;
          while (!stop_ && ::recv(fd, request, sizeof request, 0) > 0) {
          }
          break;
        }
        if (!cut_done && next == plan_.cut_after) {
          cut_done = true;
          next += 1 + plan_.lost;
          cut_now = true;
          break;
        }
        ++next;
      }
      ::shutdown(fd, SHUT_WR);
      ::close(fd);
      if (cut_now && !go_away()) return;
    }
  }

  Plan plan_;
  std::optional<Clock::time_point> start_;  // paced: the first request's moment (the server's thread)
  std::mutex mutex_;                        // guards listener_, gone_, stop_ (with the atomics below), resumed_at_
  std::condition_variable back_;
  int listener_ = -1;
  int port_ = 0;
  bool gone_ = false;
  std::optional<long long> resumed_at_;
  std::atomic<bool> stop_{false};
  std::atomic<long long> served_{0};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

}  // namespace diskref::vision::testing
