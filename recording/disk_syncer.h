#pragma once
// Makes written data durable (fdatasync, fsync of a folder, a file written atomically) on a thread
// of its own, in the order asked. A sync waits for the disk, and on a busy disk (a build writing
// beside it, ext4 flushing everything dirty with it) one call can take seconds: the thread that
// asked goes on writing meanwhile. A kill loses nothing written before it (the kernel has it); a
// power cut loses at most what is not yet synced.
//
// Thread-safe. Every task runs, even after one failed (a task that closes a file must close it);
// the first failure is kept for failure().

#include <condition_variable>
#include <deque>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>

namespace diskref::recording {

class DiskSyncer {
 public:
  // A task returns "" when it succeeded, else what failed (naming the file). `tag` is the asker's,
  // given back with the failure.
  using Task = std::function<std::string()>;
  struct Failure {
    std::string what;
    int tag = 0;
  };

  DiskSyncer();
  ~DiskSyncer();  // drain()
  DiskSyncer(const DiskSyncer&) = delete;
  DiskSyncer& operator=(const DiskSyncer&) = delete;

  // Queues the task; after drain() it runs on the caller's thread instead.
  void submit(Task task, int tag = 0);
  // Runs what is queued, then ends the thread. Idempotent.
  void drain();
  std::optional<Failure> failure() const;

 private:
  void run();
  void run_task(const Task& task, int tag);

  mutable std::mutex mutex_;
  std::condition_variable wake_;
  std::deque<std::pair<Task, int>> queue_;
  bool draining_ = false;
  std::optional<Failure> failure_;
  std::mutex drain_mutex_;
  std::thread thread_;
};

}  // namespace diskref::recording
