#include "vision/prefetching_source.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace diskref::vision {
namespace {

class PrefetchingSource final : public FrameSource {
 public:
  PrefetchingSource(std::unique_ptr<FrameSource> source, std::size_t depth)
      : source_(std::move(source)),
        depth_(std::max<std::size_t>(depth, 1)),
        fps_(source_->frames_per_second()),
        count_(source_->frame_count()),
        size_(source_->frame_size()),
        description_(source_->description()),
        can_seek_(source_->can_seek()),
        thread_([this](std::stop_token stop) { run(stop); }) {}

  // The thread is asked to stop and joined; a source waiting for a camera to come back is told to
  // stop waiting first.
  ~PrefetchingSource() override {
    source_->interrupt();
    thread_.request_stop();
  }
  void interrupt() override { source_->interrupt(); }

  std::optional<Frame> next() override {
    std::unique_lock lock(mutex_);
    wake_.wait(lock, [&] { return !queue_.empty() || finished_; });
    if (queue_.empty()) {
      if (error_) std::rethrow_exception(error_);
      return std::nullopt;
    }
    Frame f = std::move(queue_.front());
    queue_.pop_front();
    wake_.notify_all();
    return f;
  }
  double frames_per_second() const override { return fps_; }
  std::optional<long long> frame_count() const override { return count_; }
  long long corrupt_frames_skipped() const override {
    std::lock_guard lock(mutex_);
    return skipped_;
  }
  cv::Size frame_size() const override { return size_; }
  std::string description() const override { return description_; }
  bool can_seek() const override { return can_seek_; }
  void seek(long long index) override {
    if (!can_seek_) return;
    // The thread is stopped and joined, so the wrapped source is ours alone while it seeks.
    thread_.request_stop();
    thread_.join();
    queue_.clear();
    finished_ = false;
    error_ = nullptr;
    source_->seek(index);
    thread_ = std::jthread([this](std::stop_token stop) { run(stop); });
  }

 private:
  void run(std::stop_token stop) {
    try {
      while (!stop.stop_requested()) {
        {
          std::unique_lock lock(mutex_);
          // Wakes on a stop request too (no notification can be missed).
          if (!wake_.wait(lock, stop, [&] { return queue_.size() < depth_; })) break;
        }
        std::optional<Frame> f = source_->next();
        std::lock_guard lock(mutex_);
        skipped_ = source_->corrupt_frames_skipped();
        if (!f) break;
        queue_.push_back(std::move(*f));
        wake_.notify_all();
      }
    } catch (...) {
      std::lock_guard lock(mutex_);
      error_ = std::current_exception();
    }
    std::lock_guard lock(mutex_);
    finished_ = true;
    wake_.notify_all();
  }

  std::unique_ptr<FrameSource> source_;  // read by the thread only
  const std::size_t depth_;
  const double fps_;
  const std::optional<long long> count_;
  const cv::Size size_;
  const std::string description_;
  const bool can_seek_;

  mutable std::mutex mutex_;  // guards everything below
  std::condition_variable_any wake_;
  std::deque<Frame> queue_;
  bool finished_ = false;
  long long skipped_ = 0;
  std::exception_ptr error_;

  std::jthread thread_;  // last: starts once everything above exists
};

}  // namespace

std::unique_ptr<FrameSource> prefetching(std::unique_ptr<FrameSource> source, std::size_t depth) {
  return std::make_unique<PrefetchingSource>(std::move(source), depth);
}

}  // namespace diskref::vision
