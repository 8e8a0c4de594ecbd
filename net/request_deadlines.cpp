#include "net/request_deadlines.h"

#include <sys/socket.h>

namespace diskref::net {

RequestDeadlines::RequestDeadlines(std::chrono::milliseconds limit) : limit_(limit), thread_([this] { watch(); }) {}

RequestDeadlines::~RequestDeadlines() {
  {
    std::lock_guard lock(mutex_);
    stopping_ = true;
  }
  changed_.notify_all();
  thread_.join();
}

std::uint64_t RequestDeadlines::opened(int socket) {
  std::uint64_t id = 0;
  {
    std::lock_guard lock(mutex_);
    id = next_id_++;
    watched_[id] = Watched{socket, Clock::now() + limit_, false, false};
  }
  changed_.notify_all();
  return id;
}

void RequestDeadlines::line_arrived(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  if (const auto it = watched_.find(id); it != watched_.end()) it->second.line_seen = true;
}

void RequestDeadlines::head_arrived(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  if (const auto it = watched_.find(id); it != watched_.end()) {
    it->second.deadline = Clock::time_point::max();
    it->second.head_seen = true;
  }
}

void RequestDeadlines::body_expected(std::uint64_t id, std::chrono::milliseconds limit) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = watched_.find(id); it != watched_.end()) it->second.deadline = Clock::now() + limit;
  }
  changed_.notify_all();
}

void RequestDeadlines::reply_done(std::uint64_t id) {
  {
    std::lock_guard lock(mutex_);
    if (const auto it = watched_.find(id); it != watched_.end()) it->second.deadline = Clock::now() + limit_;
  }
  changed_.notify_all();
}

bool RequestDeadlines::closed(std::uint64_t id) {
  std::lock_guard lock(mutex_);
  const auto it = watched_.find(id);
  if (it == watched_.end()) return false;
  const bool never = it->second.line_seen && !it->second.head_seen;
  watched_.erase(it);
  return never;
}

int RequestDeadlines::cut() const {
  std::lock_guard lock(mutex_);
  return cut_;
}

void RequestDeadlines::watch() {
  std::unique_lock lock(mutex_);
  while (!stopping_) {
    const auto now = Clock::now();
    auto next = Clock::time_point::max();
    for (auto& [id, w] : watched_) {
      if (w.deadline <= now) {
        // Shut, not closed: the server still owns the socket and closes it when it sees the end
        // (and tells closed() first, under this lock, so the number cannot have been reused).
        ::shutdown(w.socket, SHUT_RDWR);
        w.deadline = Clock::time_point::max();
        ++cut_;
      } else if (w.deadline < next) {
        next = w.deadline;
      }
    }
    if (next == Clock::time_point::max())
      changed_.wait(lock);
    else
      changed_.wait_until(lock, next);
  }
}

}  // namespace diskref::net
