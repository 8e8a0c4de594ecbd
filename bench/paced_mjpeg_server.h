#pragma once
// A phone's camera app for the benches: an HTTP server on loopback that serves JPEG frames as an
// MJPEG stream (multipart/x-mixed-replace) at the camera's own pace, `fps` frames a second by the
// wall clock, whether the client keeps up or not. As such an app does, a frame whose moment comes
// while the client has not taken the last one yet (the socket's buffer full) is not sent: the
// client sees it lost, as it would a real camera's. It serves one connection, then closes.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <chrono>
#include <cstdint>
#include <string>
#include <thread>
#include <vector>

namespace diskref::bench {

class PacedMjpegServer {
 public:
  PacedMjpegServer(const std::vector<std::vector<unsigned char>>& jpegs, double fps) : jpegs_(jpegs), fps_(fps) {
    listener_ = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    int one = 1;
    ::setsockopt(listener_, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    a.sin_port = 0;
    ::bind(listener_, reinterpret_cast<sockaddr*>(&a), sizeof a);
    ::listen(listener_, 4);
    socklen_t n = sizeof a;
    ::getsockname(listener_, reinterpret_cast<sockaddr*>(&a), &n);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { run(); });
  }
  ~PacedMjpegServer() {
    stop_ = true;
    ::shutdown(listener_, SHUT_RDWR);
    thread_.join();
    ::close(listener_);
  }
  std::string url() const { return "http://127.0.0.1:" + std::to_string(port_) + "/video"; }
  long long sent() const { return sent_; }
  long long skipped() const { return skipped_; }  // moments the client was not ready for
  bool done() const { return done_; }

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

  void run() {
    while (!stop_) {
      const int fd = ::accept(listener_, nullptr, nullptr);
      if (fd < 0) return;
      char request[4096];
      if (::recv(fd, request, sizeof request, 0) <= 0) {  // a check that the port answers
        ::close(fd);
        continue;
      }
      const std::string head = "HTTP/1.0 200 OK\r\nContent-Type: multipart/x-mixed-replace;boundary=frame\r\n\r\n";
      send_all(fd, head.data(), head.size());
      const auto start = std::chrono::steady_clock::now();
      for (std::size_t i = 0; i < jpegs_.size() && !stop_; ++i) {
        std::this_thread::sleep_until(start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                                  std::chrono::duration<double>(static_cast<double>(i) / fps_)));
        pollfd p{fd, POLLOUT, 0};
        if (::poll(&p, 1, 0) <= 0 || !(p.revents & POLLOUT)) {
          ++skipped_;
          continue;
        }
        const std::vector<unsigned char>& j = jpegs_[i];
        const std::string part =
            "--frame\r\nContent-Type: image/jpeg\r\nContent-Length: " + std::to_string(j.size()) + "\r\n\r\n";
        if (!send_all(fd, part.data(), part.size()) || !send_all(fd, j.data(), j.size()) || !send_all(fd, "\r\n", 2))
          break;
        ++sent_;
      }
      done_ = true;
      ::shutdown(fd, SHUT_WR);
      ::close(fd);
      // The camera's recording is over: the port is closed (a client that opens it again is
      // refused, as by a phone whose app was closed).
      ::shutdown(listener_, SHUT_RDWR);
      return;
    }
  }

  const std::vector<std::vector<unsigned char>>& jpegs_;
  double fps_;
  int listener_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<bool> done_{false};
  std::atomic<long long> sent_{0}, skipped_{0};
  std::thread thread_;
};

}  // namespace diskref::bench
