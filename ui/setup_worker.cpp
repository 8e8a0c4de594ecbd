#include "ui/setup_worker.h"

#include <chrono>
#include <utility>

#include <opencv2/imgproc.hpp>

namespace diskref::ui {
namespace {

cv::Mat gray_of(const cv::Mat& image) {
  if (image.channels() == 1) return image;
  cv::Mat g;
  cv::cvtColor(image, g, image.channels() == 4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
  return g;
}

}  // namespace

SetupWorker::SetupWorker(std::unique_ptr<vision::FrameSource> source, bool live, bool realtime)
    : source_(std::move(source)),
      live_(live),
      realtime_(realtime),
      frame_size_(source_->frame_size()),
      description_(source_->description()),
      thread_([this](std::stop_token stop) { run(stop); }) {}

SetupWorker::~SetupWorker() {
  if (source_) source_->interrupt();  // a camera being waited for (gone away) stops being waited for
  thread_.request_stop();
  wake_.notify_all();
}

void SetupWorker::set_stage(std::unique_ptr<SetupStage> stage) {
  {
    std::lock_guard lock(mutex_);
    stage_ = std::move(stage);
    commands_.clear();
  }
  wake_.notify_all();
}

void SetupWorker::post(std::string label, std::function<void(SetupStage&)> command) {
  {
    std::lock_guard lock(mutex_);
    commands_.emplace_back(std::move(label), std::move(command));
  }
  wake_.notify_all();
}

void SetupWorker::hold_after(double t) {
  {
    std::lock_guard lock(mutex_);
    hold_after_ = t;
  }
  wake_.notify_all();
}

void SetupWorker::set_display_size(int width, int height) {
  display_w_ = width;
  display_h_ = height;
}

std::shared_ptr<const SetupPublication> SetupWorker::latest() const {
  std::lock_guard lock(mutex_);
  return latest_;
}

void SetupWorker::publish(const vision::Frame* frame, const std::string& busy, bool at_end,
                          std::optional<double> held_at) {
  auto p = std::make_shared<SetupPublication>();
  std::shared_ptr<SetupStage> stage;
  {
    std::lock_guard lock(mutex_);
    stage = stage_;
  }
  if (frame != nullptr) {
    // Shrunk here, on this thread: the screen uploads a small texture.
    const int w = display_w_.load(), h = display_h_.load();
    const double scale =
        (w > 0 && h > 0)
            ? std::min({1.0, w / static_cast<double>(frame->image.cols), h / static_cast<double>(frame->image.rows)})
            : 1.0;
    cv::Mat shown;
    if (scale < 1.0)
      cv::resize(frame->image, shown, cv::Size(), scale, scale, cv::INTER_AREA);
    else
      shown = frame->image.clone();
    if (shown.channels() == 1) cv::cvtColor(shown, shown, cv::COLOR_GRAY2BGR);
    last_display_ = shown;
    last_frame_ = frame->index;
    last_t_ = frame->t;
  }
  p->display = last_display_;
  p->frame = last_frame_;
  p->t = last_t_;
  p->image_size = frame_size_;
  if (stage) p->view = stage->view();
  p->busy = busy;
  p->at_end = at_end;
  p->held = held_at.has_value();
  p->held_at = held_at.value_or(0);
  std::lock_guard lock(mutex_);
  p->sequence = ++sequence_;
  latest_ = std::move(p);
}

void SetupWorker::run(std::stop_token stop) {
  using Clock = std::chrono::steady_clock;
  cv::Mat previous_gray;
  long long previous_index = -2;
  std::optional<vision::Frame> pending;
  std::optional<Clock::time_point> started;
  double first_t = 0;
  std::shared_ptr<SetupStage> last_stage;
  while (!stop.stop_requested()) {
    std::shared_ptr<SetupStage> stage;
    std::optional<std::pair<std::string, std::function<void(SetupStage&)>>> command;
    bool at_end = false;
    {
      std::unique_lock lock(mutex_);
      stage = stage_;
      if (stage && !commands_.empty()) {
        command = std::move(commands_.front());
        commands_.pop_front();
      }
      at_end = at_end_;
    }
    if (stage != last_stage) {
      // A new step: its view is shown at once, and its frames start afresh.
      last_stage = stage;
      previous_gray.release();
      publish(nullptr, "", at_end);
    }
    if (command) {
      publish(nullptr, command->first, at_end);
      command->second(*stage);
      publish(nullptr, "", at_end);
      continue;
    }
    const bool wants_frames = (stage || live_) && !at_end;
    if (!wants_frames) {
      std::unique_lock lock(mutex_);
      wake_.wait_for(lock, std::chrono::milliseconds(50));
      continue;
    }
    if (!pending) pending = source_->next();
    if (!pending) {
      {
        std::lock_guard lock(mutex_);
        at_end_ = true;
      }
      publish(nullptr, "", true);
      continue;
    }
    {
      // Held: a scripted run waits here until the screen has done what it does at this time.
      std::unique_lock lock(mutex_);
      if (pending->t > hold_after_ && stage_ == stage && commands_.empty()) {
        const double at = hold_after_;
        const bool said = latest_ && latest_->held && latest_->held_at == at;
        lock.unlock();
        if (!said) publish(nullptr, "", false, at);
        lock.lock();
        wake_.wait_for(lock, std::chrono::milliseconds(20));
        continue;
      }
    }
    if (realtime_ && !live_) {
      if (!started) {
        started = Clock::now();
        first_t = pending->t;
      }
      std::this_thread::sleep_until(
          *started + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(pending->t - first_t)));
    }
    vision::Frame frame = std::move(*pending);
    pending.reset();
    const cv::Mat gray = gray_of(frame.image);
    if (stage) stage->process(frame, gray, frame.index == previous_index + 1 ? previous_gray : cv::Mat());
    previous_gray = gray;
    previous_index = frame.index;
    publish(&frame, "", false);
  }
}

}  // namespace diskref::ui
