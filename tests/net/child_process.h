#pragma once
// Test support: a program started in the background (diskref, mosquitto), its stderr in a file,
// waited for or stopped by its own process id (its own process group: what it started goes too).
// Its end is waited for on a pidfd and its log's growth with inotify, never by sleeping between looks.

#include <chrono>
#include <filesystem>
#include <memory>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "tests/support/process_exit.h"

namespace diskref::testing {

class ChildProcess {
 public:
  // Starts `program` with `args`; stdout and stderr go to `log` (appended).
  ChildProcess(const std::string& program, const std::vector<std::string>& args, const std::filesystem::path& log);
  ~ChildProcess();  // SIGKILL if still running
  ChildProcess(const ChildProcess&) = delete;
  ChildProcess& operator=(const ChildProcess&) = delete;

  // Waits up to `timeout` (a failure's bound) for the program to end; its exit status (-1: killed
  // by a signal), or nullopt while it still runs.
  std::optional<int> wait(std::chrono::milliseconds timeout);
  void kill_now();  // SIGKILL, and reaped
  bool running();
  std::string log_text() const;
  // Waits for a line of the log matching `pattern` (the `occurrence`th such match, for a line
  // said again later), looking again each time the log is written; its first group (or the whole
  // match), or nullopt once the program has ended without writing it, or after `timeout` (a
  // failure's bound).
  std::optional<std::string> wait_for_log(const std::regex& pattern, std::chrono::milliseconds timeout,
                                          int occurrence = 1) const;
  int pid() const { return pid_; }
  // Readable once the program has ended: to wait for its end and for something else at once
  // (poll(), FolderWrites::wait).
  int ended_fd() const { return exit_->fd(); }

 private:
  int pid_ = -1;
  std::unique_ptr<ProcessExit> exit_;  // readable once the program has ended
  bool reaped_ = false;
  int status_ = -1;
  std::filesystem::path log_;
};

// build/diskref.
std::string diskref_program();

}  // namespace diskref::testing
