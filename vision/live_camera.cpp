#include "vision/live_camera.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <thread>

#include "engine/io/input_error.h"

namespace diskref::vision {
namespace {

class SteadyClock final : public LiveClock {
 public:
  double now() override {
    return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
  }
  void sleep_for(double seconds) override { std::this_thread::sleep_for(std::chrono::duration<double>(seconds)); }
};

// How long the rate is measured over, and how long a connection must have run before its rate is
// judged (the first frames of a webcam come while its exposure settles).
constexpr double kRateWindowS = 3.0;
constexpr double kRateJudgedAfterS = 3.0;
// A rate below this share of the one asked is worth a warning.
constexpr double kRateWarningShare = 0.9;
// Waits between openings are cut in slices this long, so that interrupt() is heard soon.
constexpr double kWaitSliceS = 0.1;

std::string fps_text(double fps) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.1f", fps);
  return buffer;
}

}  // namespace

std::shared_ptr<LiveClock> steady_live_clock() {
  return std::make_shared<SteadyClock>();
}

std::string_view camera_event_kind_name(CameraEvent::Kind kind) {
  switch (kind) {
    case CameraEvent::Kind::note:
      return "note";
    case CameraEvent::Kind::warning:
      return "warning";
    case CameraEvent::Kind::lost:
      return "lost";
    case CameraEvent::Kind::back:
      return "back";
    case CameraEvent::Kind::gave_up:
      return "gave_up";
  }
  return "note";
}

LiveCameraSource::LiveCameraSource(std::string description, LiveStreamOpener opener, LiveCameraOptions options)
    : description_(std::move(description)), opener_(std::move(opener)), options_(std::move(options)) {
  clock_ = options_.clock ? options_.clock : steady_live_clock();
  origin_ = clock_->now();
  std::unique_ptr<LiveStream> stream = opener_();
  size_ = stream->size();
  nominal_fps_ = stream->nominal_fps();
  opened(std::move(stream));
}

double LiveCameraSource::frames_per_second() const {
  if (nominal_fps_ > 0) return nominal_fps_;
  return measured_fps().value_or(0);
}

std::optional<double> LiveCameraSource::measured_fps() const {
  if (recent_.size() < 2 || recent_.back() - recent_.front() <= 0) return std::nullopt;
  return static_cast<double>(recent_.size() - 1) / (recent_.back() - recent_.front());
}

void LiveCameraSource::emit(CameraEvent::Kind kind, double t, std::string message, std::optional<CameraGap> gap) {
  if (!options_.on_event) return;
  CameraEvent e;
  e.kind = kind;
  e.t = t;
  e.source = description_;
  e.message = std::move(message);
  e.gap = std::move(gap);
  options_.on_event(e);
}

void LiveCameraSource::opened(std::unique_ptr<LiveStream> stream) {
  stream_ = std::move(stream);
  first_of_connection_ = true;
  failed_reads_ = 0;
  recent_.clear();
  rate_warned_ = false;
  for (const std::string& n : stream_->notes()) {
    if (n.rfind("warning: ", 0) == 0)
      emit(CameraEvent::Kind::warning, since_open(), n.substr(9));
    else
      emit(CameraEvent::Kind::note, since_open(), n);
  }
}

void LiveCameraSource::wait(double seconds) {
  while (seconds > 0 && !interrupted_) {
    const double slice = std::min(seconds, kWaitSliceS);
    clock_->sleep_for(slice);
    seconds -= slice;
  }
}

bool LiveCameraSource::reopen() {
  double backoff = options_.first_backoff_s;
  const double gap_began = since_open();
  std::string last_error;
  while (!interrupted_) {
    if (options_.give_up_after_s && since_open() - gap_began >= *options_.give_up_after_s) {
      open_gap_->end_t = since_open();
      emit(CameraEvent::Kind::gave_up, open_gap_->end_t,
           "did not come back within " + fps_text(*options_.give_up_after_s) + " s" +
               (last_error.empty() ? "" : " (" + last_error + ")"),
           open_gap_);
      return false;
    }
    ++open_gap_->reopen_attempts;
    try {
      std::unique_ptr<LiveStream> stream = opener_();
      const cv::Size size = stream->size();
      if (size == size_) {
        opened(std::move(stream));
        return true;
      }
      // Another size (a phone turned, another camera on the port): the calibration and the table
      // are for the first one. Said once per size; waited for as for a camera not there.
      last_error = "it came back at " + std::to_string(size.width) + "x" + std::to_string(size.height);
      if (std::find(sizes_refused_.begin(), sizes_refused_.end(), size) == sizes_refused_.end()) {
        sizes_refused_.push_back(size);
        emit(CameraEvent::Kind::warning, since_open(),
             last_error + ", not " + std::to_string(size_.width) + "x" + std::to_string(size_.height) +
                 " as before: its calibration and table are for that size; waiting for it at that size");
      }
    } catch (const io::InputError& e) {
      last_error = e.problem();
    }
    wait(backoff);
    backoff = std::min(backoff * 2, options_.max_backoff_s);
  }
  return false;
}

std::optional<Frame> LiveCameraSource::next() {
  while (!ended_ && !interrupted_) {
    if (!stream_) {
      if (!reopen()) {
        ended_ = true;
        break;
      }
    }
    std::optional<StreamFrame> f = stream_->read();
    if (f && f->image.size() != size_) {
      ++wrong_size_frames_;
      f.reset();
    }
    if (f) return accept(std::move(*f));
    if (++failed_reads_ <= options_.read_retries) continue;
    // Gone: this connection is dropped, and a new one opened until frames come again.
    stream_.reset();
    if (!open_gap_) {
      open_gap_ = CameraGap{};
      open_gap_->start_t = last_t_.value_or(0);
      open_gap_->cause = "no frame in " + std::to_string(failed_reads_) + " reads";
      gap_rate_ = nominal_fps_ > 0 ? nominal_fps_ : measured_fps().value_or(0);
      emit(CameraEvent::Kind::lost, since_open(), "lost (" + open_gap_->cause + "): opening it again");
    }
  }
  return std::nullopt;
}

Frame LiveCameraSource::accept(StreamFrame&& s) {
  double t = s.time - origin_;
  if (last_t_) t = std::max(t, *last_t_);  // never backwards, whatever a stream's clock does
  long long step = 1;
  // Frames that arrived and were dropped before this one (arrival_reader.h) are lost frames, except
  // where a known rate counts the lost frames from the times: they are then among those it counts.
  frames_dropped_behind_ += s.dropped_before;
  bool counted_from_times = false;
  if (open_gap_) {
    // Back: the gap closes at this frame; the frames the camera took meanwhile are counted lost.
    CameraGap gap = *open_gap_;
    open_gap_.reset();
    gap.end_t = t;
    gap.frames_lost = gap_rate_ > 0 ? std::max(0LL, std::llround((gap.end_t - gap.start_t) * gap_rate_) - 1) : 0;
    counted_from_times = gap_rate_ > 0;
    step += gap.frames_lost;
    frames_lost_ += gap.frames_lost;
    gaps_.push_back(gap);
    char text[160];
    std::snprintf(text, sizeof text, "back after %.1f s without frames (%lld frames lost, %d openings)",
                  gap.end_t - gap.start_t, gap.frames_lost, gap.reopen_attempts);
    emit(CameraEvent::Kind::back, t, text, gap);
  } else if (!first_of_connection_ && last_t_ && nominal_fps_ > 0) {
    // Inside a connection, a known rate tells frames the camera took and never delivered.
    step = std::max(1LL, std::llround((t - *last_t_) * nominal_fps_));
    frames_lost_ += step - 1;
    counted_from_times = true;
  }
  if (!counted_from_times) {
    step += s.dropped_before;
    frames_lost_ += s.dropped_before;
  }
  if (first_of_connection_) connection_start_t_ = t;
  first_of_connection_ = false;
  failed_reads_ = 0;
  Frame frame;
  frame.image = std::move(s.image);
  frame.index = last_t_ ? next_index_ - 1 + step : 0;
  frame.t = t;
  next_index_ = frame.index + 1;
  last_t_ = t;
  if (!first_t_) first_t_ = t;
  recent_.push_back(t);
  while (recent_.size() > 2 && recent_.back() - recent_.front() > kRateWindowS) recent_.pop_front();
  check_rate(t);
  const bool due = options_.lock_after_s && !locked_ && t - *first_t_ >= *options_.lock_after_s;
  if (lock_requested_.exchange(false) || due) {
    locked_ = true;
    for (const std::string& said : stream_->lock_picture()) {
      if (said.rfind("warning: ", 0) == 0)
        emit(CameraEvent::Kind::warning, t, said.substr(9));
      else
        emit(CameraEvent::Kind::note, t, said);
    }
  }
  return frame;
}

void LiveCameraSource::check_rate(double t) {
  const double asked = options_.asked_fps > 0 ? options_.asked_fps : nominal_fps_;
  if (rate_warned_ || asked <= 0 || t - connection_start_t_ < kRateJudgedAfterS) return;
  const std::optional<double> measured = measured_fps();
  if (!measured || *measured >= asked * kRateWarningShare) return;
  rate_warned_ = true;
  emit(CameraEvent::Kind::warning, t,
       "delivers " + fps_text(*measured) + " frames/s, below the " + fps_text(asked) +
           " asked (too little light with automatic exposure? a USB port shared with another camera? an uncompressed "
           "format?)");
}

}  // namespace diskref::vision
