#include "child_process.h"

#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <csignal>
#include <thread>

#include <fstream>
#include <sstream>
#include <stdexcept>

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
}

ChildProcess::~ChildProcess() {
  if (!reaped_) kill_now();
}

bool ChildProcess::running() {
  return !wait(std::chrono::milliseconds(0)).has_value() && !reaped_;
}

std::optional<int> ChildProcess::wait(std::chrono::milliseconds timeout) {
  const auto end = std::chrono::steady_clock::now() + timeout;
  while (!reaped_) {
    int status = 0;
    const pid_t r = ::waitpid(pid_, &status, WNOHANG);
    if (r == pid_) {
      reaped_ = true;
      status_ = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
      break;
    }
    if (std::chrono::steady_clock::now() >= end) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
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
  for (;;) {
    const std::string text = log_text();
    int seen = 0;
    for (std::sregex_iterator m(text.begin(), text.end(), pattern), none; m != none; ++m)
      if (++seen == occurrence) return m->size() > 1 ? (*m)[1].str() : (*m)[0].str();
    if (std::chrono::steady_clock::now() >= end) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
}

}  // namespace diskref::testing
