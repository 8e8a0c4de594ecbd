#include "vision/arrival_reader.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <exception>
#include <mutex>
#include <thread>

namespace diskref::vision {
namespace {

class ArrivalReader final : public LiveStream {
 public:
  ArrivalReader(std::unique_ptr<LiveStream> stream, std::size_t depth)
      : stream_(std::move(stream)),
        depth_(std::max<std::size_t>(depth, 1)),
        size_(stream_->size()),
        nominal_fps_(stream_->nominal_fps()),
        notes_(stream_->notes()) {
    thread_ = std::thread([this] { run(); });
  }

  ~ArrivalReader() override {
    {
      std::lock_guard lock(mutex_);
      stopping_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }

  ArrivalReader(const ArrivalReader&) = delete;
  ArrivalReader& operator=(const ArrivalReader&) = delete;

  std::optional<StreamFrame> read() override {
    std::unique_lock lock(mutex_);
    changed_.wait(lock, [this] { return !waiting_.empty() || error_; });
    // What the stream threw comes after the frames read before it, as it would without the thread.
    if (waiting_.empty()) std::rethrow_exception(error_);
    std::optional<StreamFrame> next = std::move(waiting_.front());
    waiting_.pop_front();
    changed_.notify_all();
    return next;
  }

  cv::Size size() const override { return size_; }
  double nominal_fps() const override { return nominal_fps_; }
  std::vector<std::string> notes() const override { return notes_; }
  std::vector<std::string> lock_picture() override { return stream_->lock_picture(); }

 private:
  void run() {
    for (;;) {
      std::optional<StreamFrame> frame;
      try {
        frame = stream_->read();
      } catch (...) {
        // Handed to the consumer in its turn; this thread reads no more.
        std::lock_guard lock(mutex_);
        error_ = std::current_exception();
        changed_.notify_all();
        return;
      }
      std::unique_lock lock(mutex_);
      if (stopping_) return;
      if (!frame) {
        // Handed on, and nothing read until the consumer has taken it (and so decided to read on).
        waiting_.push_back(std::nullopt);
        changed_.notify_all();
        changed_.wait(lock, [this] { return stopping_ || waiting_.empty(); });
        if (stopping_) return;
        continue;
      }
      if (waiting_.size() >= depth_) drop_oldest(*frame);
      waiting_.push_back(std::move(frame));
      changed_.notify_all();
    }
  }

  // The oldest waiting frame goes; the one after it (or `arriving`, when none waits after it)
  // carries the count of the frames dropped before it. Only frames wait here when it is called: a
  // failed read is taken before the thread reads again.
  void drop_oldest(StreamFrame& arriving) {
    const long long dropped = waiting_.front()->dropped_before + 1;
    waiting_.pop_front();
    StreamFrame& after = waiting_.empty() ? arriving : *waiting_.front();
    after.dropped_before += dropped;
  }

  std::unique_ptr<LiveStream> stream_;
  const std::size_t depth_;
  const cv::Size size_;
  const double nominal_fps_;
  const std::vector<std::string> notes_;

  std::mutex mutex_;
  std::condition_variable changed_;                 // a frame waits, one was taken, or stopping
  std::deque<std::optional<StreamFrame>> waiting_;  // nullopt: a failed read
  std::exception_ptr error_;                        // what the stream threw: the thread has ended
  bool stopping_ = false;
  std::thread thread_;  // last: started once everything it uses is made
};

}  // namespace

std::unique_ptr<LiveStream> read_on_arrival(std::unique_ptr<LiveStream> stream, std::size_t depth) {
  return std::make_unique<ArrivalReader>(std::move(stream), depth);
}

}  // namespace diskref::vision
