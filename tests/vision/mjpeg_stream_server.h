#pragma once
// A camera on the network, for tests: an HTTP server on loopback serving JPEG frames as an MJPEG
// stream (multipart/x-mixed-replace), as phone camera apps do.
//
// Paced by frame count, not by wall time: the stream is written as fast as the client reads it (TCP
// holds the server back), and the test says where the stream is cut: after frame `cut_after` the
// connection is closed and the server is gone (its port closed: connections are refused) until the
// test calls come_back(); the stream then goes on with frame `cut_after + 1 + lost` (the frames the
// camera took while the network was gone are never sent). A connection that sends no request (a
// client checking that the port answers) is closed and forgotten. `stall_after`: after that frame
// the server falls silent, the connection open, until the client gives up on it. `garbage` serves
// bytes that are no stream at all.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <condition_variable>
#include <cstdint>
#include <mutex>
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

  // The cut: the port closed until come_back().
  bool go_away() {
    std::unique_lock lock(mutex_);
    ::close(listener_);
    listener_ = -1;
    gone_ = true;
    back_.wait(lock, [&] { return !gone_ || stop_; });
    return !stop_;
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
      send_text(fd, "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace;boundary=frame\r\n\r\n");
      bool cut_now = false;
      while (!stop_ && next < static_cast<long long>(plan_.jpegs.size())) {
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
  std::mutex mutex_;  // guards listener_, gone_, stop_ (with the atomics below)
  std::condition_variable back_;
  int listener_ = -1;
  int port_ = 0;
  bool gone_ = false;
  std::atomic<bool> stop_{false};
  std::atomic<long long> served_{0};
  std::atomic<int> connections_{0};
  std::thread thread_;
};

}  // namespace diskref::vision::testing
