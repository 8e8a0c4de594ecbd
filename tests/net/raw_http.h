#pragma once
// Test support: HTTP clients at the socket level, to be the clients a server meets in the wild:
// one that sends nonsense, one that connects and never reads, a hundred at once.

#include <arpa/inet.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <stdexcept>
#include <string>

namespace diskref::testing {

// A connected TCP socket to 127.0.0.1:port; `receive_buffer` > 0 sets SO_RCVBUF before connecting;
// `source` (e.g. "127.0.0.2": any address of 127/8 is this machine's) stands for another client.
inline int connect_loopback(int port, int receive_buffer = 0, const char* source = nullptr) {
  const int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error("socket failed");
  if (receive_buffer > 0) ::setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &receive_buffer, sizeof receive_buffer);
  if (source) {
    sockaddr_in from{};
    from.sin_family = AF_INET;
    ::inet_pton(AF_INET, source, &from.sin_addr);
    if (::bind(fd, reinterpret_cast<sockaddr*>(&from), sizeof from) != 0) {
      ::close(fd);
      throw std::runtime_error(std::string("cannot bind to ") + source);
    }
  }
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<std::uint16_t>(port));
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  if (::connect(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0) {
    ::close(fd);
    throw std::runtime_error("cannot connect to port " + std::to_string(port));
  }
  return fd;
}

inline void send_all(int fd, const std::string& text) {
  std::size_t sent = 0;
  while (sent < text.size()) {
    const ssize_t n = ::send(fd, text.data() + sent, text.size() - sent, MSG_NOSIGNAL);
    if (n <= 0) throw std::runtime_error("send failed");
    sent += static_cast<std::size_t>(n);
  }
}

// Reads what arrives within `timeout` (or until the peer closes, or `until` has arrived).
inline std::string receive_for(int fd, std::chrono::milliseconds timeout, const std::string& until = "") {
  std::string got;
  const auto end = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (left.count() <= 0) return got;
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(left.count())) <= 0) continue;
    char chunk[16384];
    const ssize_t n = ::recv(fd, chunk, sizeof chunk, 0);
    if (n <= 0) return got;
    got.append(chunk, static_cast<std::size_t>(n));
    if (!until.empty() && got.find(until) != std::string::npos) return got;
  }
}

// Whether the server's answer has begun to arrive within `timeout`: waits until there are bytes
// to read, and leaves them there (looked at with MSG_PEEK, not read).
inline bool answer_begun(int fd, std::chrono::milliseconds timeout = std::chrono::seconds(30)) {
  pollfd p{fd, POLLIN, 0};
  if (::poll(&p, 1, static_cast<int>(timeout.count())) <= 0) return false;
  char first = 0;
  return ::recv(fd, &first, 1, MSG_PEEK) == 1;
}

// Whether the peer has closed the connection (or reset it) within `timeout`, whatever it sent
// before.
inline bool closed_by_peer(int fd, std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    pollfd p{fd, POLLIN, 0};
    if (::poll(&p, 1, static_cast<int>(std::max<long long>(0, left.count()))) > 0) {
      char chunk[4096];
      if (::recv(fd, chunk, sizeof chunk, 0) <= 0) return true;
      continue;
    }
    if (left.count() <= 0) return false;
  }
}

// Sends `request` on a new connection and returns the answer's head (its status line and headers).
inline std::string exchange(int port, const std::string& request, std::chrono::milliseconds timeout) {
  const int fd = connect_loopback(port);
  send_all(fd, request);
  std::string answer = receive_for(fd, timeout, "\r\n\r\n");
  ::close(fd);
  return answer;
}

}  // namespace diskref::testing
