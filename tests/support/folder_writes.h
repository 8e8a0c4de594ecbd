// Wakes when a file in a folder is written (inotify), so that a test waits for a program's output
// to grow instead of sleeping between looks. The watch begins when this is made: a test makes it
// first, then looks at the files, then waits, and so misses no write made after its look.
#pragma once

#include <poll.h>
#include <sys/inotify.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <stdexcept>
#include <string>

#include "tests/support/poll_limit.h"

namespace diskref::testing {

class FolderWrites {
 public:
  explicit FolderWrites(const std::filesystem::path& folder) : fd_(::inotify_init1(IN_CLOEXEC)) {
    if (fd_ < 0 || ::inotify_add_watch(fd_, folder.c_str(), IN_MODIFY | IN_CREATE | IN_CLOSE_WRITE | IN_MOVED_TO) < 0) {
      if (fd_ >= 0) ::close(fd_);
      throw std::runtime_error("cannot watch " + folder.string() + " for writes (inotify)");
    }
  }
  ~FolderWrites() { ::close(fd_); }
  FolderWrites(const FolderWrites&) = delete;
  FolderWrites& operator=(const FolderWrites&) = delete;

  // Until something is written there since the last wait (or since this was made), or until
  // `writer_ended` (a pidfd, see process_exit.h; -1 for none) says the writer has ended, which
  // writes nothing more. `limit` is a failure's bound: false when it passed with neither.
  bool wait(std::chrono::milliseconds limit, int writer_ended = -1) const {
    pollfd p[2] = {{fd_, POLLIN, 0}, {writer_ended, POLLIN, 0}};
    if (::poll(p, writer_ended >= 0 ? 2 : 1, poll_limit(limit)) <= 0) return false;
    if (p[0].revents & POLLIN) {
      // The events themselves do not matter (the test looks at the files again): all of them are
      // taken, so that the next wait is for a write after this one.
      char events[4096];
      [[maybe_unused]] const ssize_t n = ::read(fd_, events, sizeof events);
    }
    return true;
  }

 private:
  int fd_;
};

}  // namespace diskref::testing
