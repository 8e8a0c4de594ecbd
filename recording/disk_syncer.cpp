#include "recording/disk_syncer.h"

#include <exception>
#include <utility>

namespace diskref::recording {

DiskSyncer::DiskSyncer() : thread_(&DiskSyncer::run, this) {}

DiskSyncer::~DiskSyncer() {
  drain();
}

void DiskSyncer::submit(Task task, int tag) {
  {
    std::lock_guard lock(mutex_);
    if (!draining_) {
      queue_.emplace_back(std::move(task), tag);
      wake_.notify_one();
      return;
    }
  }
  std::lock_guard draining(drain_mutex_);  // the thread has ended: run it here, after the queue
  run_task(task, tag);
}

void DiskSyncer::drain() {
  std::lock_guard draining(drain_mutex_);
  {
    std::lock_guard lock(mutex_);
    draining_ = true;
  }
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::optional<DiskSyncer::Failure> DiskSyncer::failure() const {
  std::lock_guard lock(mutex_);
  return failure_;
}

void DiskSyncer::run() {
  while (true) {
    std::pair<Task, int> next;
    {
      std::unique_lock lock(mutex_);
      wake_.wait(lock, [&] { return draining_ || !queue_.empty(); });
      if (queue_.empty()) return;  // draining, and everything asked is done
      next = std::move(queue_.front());
      queue_.pop_front();
    }
    run_task(next.first, next.second);
  }
}

void DiskSyncer::run_task(const Task& task, int tag) {
  std::string what;
  try {
    what = task();
  } catch (const std::exception& e) {
    what = e.what();
  }
  if (what.empty()) return;
  std::lock_guard lock(mutex_);
  if (!failure_) failure_ = Failure{std::move(what), tag};
}

}  // namespace diskref::recording
