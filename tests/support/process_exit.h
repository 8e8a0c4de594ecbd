// Wakes when a child process ends (a pidfd: Linux 5.3 or later), so that a test waits for a
// program's exit instead of asking waitpid between sleeps. The child is not reaped here: its
// parent still collects its status with waitpid, at once, once this says it has ended.
#pragma once

#include <poll.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>
#include <stdexcept>
#include <string>

#include "tests/support/poll_limit.h"

namespace diskref::testing {

class ProcessExit {
 public:
  // By its system call: Debian 12's <sys/pidfd.h> (glibc 2.36) declares pidfd_open without C
  // linkage, so that a C++ program cannot link with it.
  explicit ProcessExit(pid_t child) : fd_(static_cast<int>(::syscall(SYS_pidfd_open, child, 0))) {
    if (fd_ < 0)
      throw std::runtime_error("pidfd_open(" + std::to_string(child) + ") failed: " + std::strerror(errno) +
                               " (the tests need Linux 5.3 or later)");
  }
  ~ProcessExit() { ::close(fd_); }
  ProcessExit(const ProcessExit&) = delete;
  ProcessExit& operator=(const ProcessExit&) = delete;

  // Until the child has ended, or `limit` passes (a failure's bound, or 0 to only ask); true if it
  // has ended.
  bool wait(std::chrono::milliseconds limit) const {
    pollfd p{fd_, POLLIN, 0};
    return ::poll(&p, 1, poll_limit(limit)) > 0;
  }
  // Readable once the child has ended: for a poll() on this and other things at once.
  int fd() const { return fd_; }

 private:
  int fd_;
};

}  // namespace diskref::testing
