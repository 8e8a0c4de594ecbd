#pragma once
// Test support: a program started in the background (diskref, mosquitto), its stderr in a file,
// waited for or stopped by its own process id (its own process group: what it started goes too).

#include <chrono>
#include <filesystem>
#include <optional>
#include <regex>
#include <string>
#include <vector>

namespace diskref::testing {

class ChildProcess {
 public:
  // Starts `program` with `args`; stdout and stderr go to `log` (appended).
  ChildProcess(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& log);
  ~ChildProcess();  // SIGKILL if still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Waits up to `timeout` for the program to end; its exit status (-1: still running or killed).
  std::optional<int> wait(std::chrono::milliseconds timeout);
  void kill_now();  // SIGKILL, and reaped
  bool running();
  std::string log_text() const;
  // Waits up to `timeout` for a line of the log matching `pattern` (the `occurrence`th such match,
  // for a line said again later); its first group (or the whole match), or nullopt.
  std::optional<std::string> wait_for_log(const std::regex& pattern, std::chrono::milliseconds timeout,
                                          int occurrence = 1) const;
  int pid() const { return pid_; }

 private:
  int pid_ = -1;
  bool reaped_ = false;
  int status_ = -1;
  std::filesystem::path log_;
};

// build/diskref.
std::string diskref_program();

}  // namespace diskref::testing
