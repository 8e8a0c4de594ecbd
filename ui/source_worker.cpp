#include "ui/source_worker.h"

#include <chrono>

#include <sys/resource.h>
#include <unistd.h>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

#include "pipeline/playback_schedule.h"

namespace diskref::ui {
namespace {
using Clock = std::chrono::steady_clock;
}

SourceWorker::SourceWorker(std::unique_ptr<vision::FrameSource> source, std::unique_ptr<TrackProducer> producer,
                           WorkerOptions options, FrameHook on_frame)
    : source_(std::move(source)), producer_(std::move(producer)), options_(options), on_frame_(std::move(on_frame)) {
  frame_count_ = source_->frame_count().value_or(-1);
  fps_ = source_->frames_per_second() > 0 ? source_->frames_per_second() : 30.0;
  can_seek_ = source_->can_seek();
  cv::Size size = source_->frame_size();
  source_description_ = source_->description();
  if (size.width > 0) source_description_ += fmt::format("  {}x{}", size.width, size.height);
  if (source_->frames_per_second() > 0)
    source_description_ += fmt::format("  {:.1f} fps", source_->frames_per_second());
  producer_description_ = producer_->describe();
  paused_ = options_.start_paused;
  if (options_.start_paused) pending_steps_ = 1;  // paused on the first frame, not on nothing
  thread_ = std::jthread([this](std::stop_token st) { run(st); });
}

SourceWorker::~SourceWorker() {
  stop();
}

void SourceWorker::stop() {
  source_->interrupt();  // a camera being waited for (gone away) stops being waited for
  thread_.request_stop();
  wake_.notify_all();
  if (thread_.joinable()) thread_.join();
}

std::shared_ptr<const Snapshot> SourceWorker::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

std::vector<Event> SourceWorker::take_events() {
  std::lock_guard lock(mutex_);
  std::vector<Event> out;
  out.swap(events_);
  return out;
}

void SourceWorker::set_paused(bool paused) {
  paused_ = paused;
  wake_.notify_all();
}

void SourceWorker::set_speed(double speed) {
  speed_ = std::clamp(speed, 0.05, 16.0);
  wake_.notify_all();
}

void SourceWorker::step() {
  ++pending_steps_;
  wake_.notify_all();
}

void SourceWorker::set_display_size(int width, int height) {
  display_w_ = std::max(0, width);
  display_h_ = std::max(0, height);
}

namespace {

// The frame as the screen will show it: BGR, and no larger than the view (INTER_AREA averages
// the pixels a shrink drops, so fine detail does not shimmer).
cv::Mat display_image(const cv::Mat& image, int max_w, int max_h) {
  if (image.empty()) return {};
  cv::Mat bgr = image;
  if (image.channels() == 1) cv::cvtColor(image, bgr, cv::COLOR_GRAY2BGR);
  if (max_w <= 0 || max_h <= 0 || (bgr.cols <= max_w && bgr.rows <= max_h)) return bgr;
  double scale = std::min(static_cast<double>(max_w) / bgr.cols, static_cast<double>(max_h) / bgr.rows);
  cv::Mat small;
  cv::resize(bgr, small,
             cv::Size(std::max(1, static_cast<int>(bgr.cols * scale + 0.5)),
                      std::max(1, static_cast<int>(bgr.rows * scale + 0.5))),
             0, 0, cv::INTER_AREA);
  return small;
}

}  // namespace

void SourceWorker::seek(long long index) {
  if (!can_seek_) return;
  pending_seek_ = std::max(0LL, index);
  wake_.notify_all();
}

WorkerStats SourceWorker::stats() const {
  std::lock_guard lock(mutex_);
  return stats_;
}

void SourceWorker::run(std::stop_token stop) {
  // The screen comes first: on a busy machine (2 cores, a 1080p tracker) the worker and the
  // threads it starts (apriltag's pool, the decoder's) yield to the screen's thread, so the video
  // plays slower rather than the display stuttering. Linux: a thread's nice value is its own and
  // is inherited by the threads it creates.
  setpriority(PRIO_PROCESS, static_cast<id_t>(gettid()), options_.nice);

  // The playback clock: the screen does not rush to catch up when it fell behind.
  pipeline::PlaybackSchedule schedule({.catch_up = false, .fall_behind_s = 0.25});
  const auto seconds = [](Clock::time_point t) { return std::chrono::duration<double>(t.time_since_epoch()).count(); };

  while (!stop.stop_requested()) {
    bool forced = false;  // a seek or a step shows one frame even while paused
    long long seek_to = pending_seek_.exchange(-1);
    if (seek_to >= 0) {
      source_->seek(seek_to);
      producer_->restart();
      std::lock_guard lock(mutex_);
      previous_track_.reset();
      camera_moved_t_.reset();
      stats_.at_end = false;
      schedule.restart();
      forced = true;
    }
    if (!forced && pending_steps_.load() > 0) {
      --pending_steps_;
      forced = true;
      schedule.restart();
    }
    bool at_end;
    {
      std::lock_guard lock(mutex_);
      at_end = stats_.at_end;
    }
    if (!forced && (paused_.load() || at_end)) {
      schedule.restart();
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(50));
      continue;
    }

    std::optional<SourceFrame> next = source_->next();
    if (!next) {
      std::lock_guard lock(mutex_);
      stats_.at_end = true;
      continue;
    }
    SourceFrame frame = std::move(*next);
    auto start = Clock::now();
    TrackResult result = producer_->process(frame);
    double ms = std::chrono::duration<double, std::milli>(Clock::now() - start).count();

    if (options_.realtime && !forced) {
      const double due_s = schedule.due(frame.t, speed_.load(), seconds(Clock::now()));
      const auto due =
          Clock::time_point(std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(due_s)));
      std::unique_lock lock(mutex_);
      wake_.wait_until(lock, due, [&] { return stop.stop_requested() || pending_seek_.load() >= 0; });
      schedule.shown(due_s, seconds(Clock::now()));
    }

    if (on_frame_) on_frame_(result, frame);

    auto snap = std::make_shared<Snapshot>();
    snap->display_image = display_image(frame.image, display_w_.load(), display_h_.load());
    snap->source = std::move(frame);
    snap->process_ms = ms;
    {
      std::lock_guard lock(mutex_);
      if (result.frame) {
        std::vector<Event> changes = table_events(previous_track_ ? &*previous_track_ : nullptr, *result.frame);
        events_.insert(events_.end(), changes.begin(), changes.end());
        previous_track_ = *result.frame;
      }
      events_.insert(events_.end(), result.notes.begin(), result.notes.end());
      if (result.camera_moved) camera_moved_t_ = snap->source.t;
      snap->camera_moved_t = camera_moved_t_;
      snap->result = std::move(result);
      snap->sequence = ++sequence_;
      ++stats_.frames_processed;
      total_process_ms_ += ms;
      stats_.mean_process_ms = total_process_ms_ / static_cast<double>(stats_.frames_processed);
      stats_.max_process_ms = std::max(stats_.max_process_ms, ms);
      long long index = snap->source.index;
      latest_ = std::move(snap);
      if (options_.stop_after >= 0 && index >= options_.stop_after) paused_ = true;
    }
  }
}

}  // namespace diskref::ui
