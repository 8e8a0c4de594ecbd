#include "child_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>

#include <fstream>
#include <sstream>
#include <stdexcept>

#include "tests/support/folder_writes.h"

namespace diskref::testing {

std::string diskref_program() {
  return (std::filesystem::path(DISKREF_BINARY_DIR) / "diskref").string();
}

ChildProcess::ChildProcess(const std::string& program, const std::vector<std::string>& args,
                           const std::filesystem::path& log)
    : log_(log) {
  std::vector<std::string> argv_text{program};
  argv_text.insert(argv_text.end(), args.begin(), args.end());
  pid_ = ::fork();
  if (pid_ < 0) throw std::runtime_error("fork failed");
  if (pid_ == 0) {
    ::setpgid(0, 0);
    const int fd = ::open(log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
    if (fd >= 0) {
      ::dup2(fd, 1);
      ::dup2(fd, 2);
    }
    std::vector<char*> argv;
    for (std::string& a : argv_text) argv.push_back(a.data());
    argv.push_back(nullptr);
    ::execvp(argv[0], argv.data());
    _exit(127);
  }
  ::setpgid(pid_, pid_);
  exit_ = std::make_unique<ProcessExit>(pid_);
}

ChildProcess::~ChildProcess() {
  if (!reaped_) kill_now();
}

bool ChildProcess::running() {
  return !wait(std::chrono::milliseconds(0)).has_value() && !reaped_;
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
  if (!reaped_) {
    if (!exit_->wait(timeout)) return std::nullopt;
    int status = 0;
    ::waitpid(pid_, &status, 0);  // it has ended: this does not block
    reaped_ = true;
    status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  }
  return status_;
}

void ChildProcess::kill_now() {
  if (reaped_) return;
  ::kill(-pid_, SIGKILL);
  ::kill(pid_, SIGKILL);
  int status = 0;
  ::waitpid(pid_, &status, 0);
  reaped_ = true;
  status_ = -1;
}

std::string ChildProcess::log_text() const {
  std::ifstream in(log_);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

std::optional<std::string> ChildProcess::wait_for_log(const std::regex& pattern, std::chrono::milliseconds timeout,
                                                      int occurrence) const {
  const auto end = std::chrono::steady_clock::now() + timeout;
  const FolderWrites writes(log_.parent_path());  // before the first look: no write is missed
  for (;;) {
    // Asked before the log is read: a program that had ended by then has written all it will.
    const bool ended = exit_->wait(std::chrono::milliseconds(0));
    const std::string text = log_text();
    int seen = 0;
    for (std::sregex_iterator m(text.begin(), text.end(), pattern), none; m != none; ++m)
      if (++seen == occurrence) return m->size() > 1 ? (*m)[1].str() : (*m)[0].str();
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(end - std::chrono::steady_clock::now());
    if (ended || left.count() <= 0) return std::nullopt;
    writes.wait(left, exit_->fd());
  }
}

}  // namespace diskref::testing
