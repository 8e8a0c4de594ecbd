#pragma once
// Test support: run `work` in a forked child (a file size limit or a kill is the child's alone)
// and read back what it reports, as text, through a pipe.

#include <sys/wait.h>
#include <unistd.h>

#include <functional>
#include <string>

namespace diskref::recording::testing {

struct ChildReport {
  bool exited_cleanly = false;
  std::string text;
};

inline ChildReport run_in_child(const std::function<std::string()>& work) {
  int pipe_fds[2];
  if (::pipe(pipe_fds) != 0) return {};
  const pid_t child = ::fork();
  if (child < 0) return {};
  if (child == 0) {
    ::close(pipe_fds[0]);
    const std::string report = work();
    (void)!::write(pipe_fds[1], report.data(), report.size());
    ::_exit(0);
  }
  ::close(pipe_fds[1]);
  ChildReport r;
  char buffer[4096];
  for (ssize_t n; (n = ::read(pipe_fds[0], buffer, sizeof buffer)) > 0;)
    r.text.append(buffer, static_cast<std::size_t>(n));
  ::close(pipe_fds[0]);
  int status = 0;
  ::waitpid(child, &status, 0);
  r.exited_cleanly = WIFEXITED(status) && WEXITSTATUS(status) == 0;
  return r;
}

}  // namespace diskref::recording::testing
