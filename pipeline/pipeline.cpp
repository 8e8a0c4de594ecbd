#include "pipeline/pipeline.h"

#include <algorithm>
#include <thread>

#include "vision/live_camera.h"

namespace diskref::pipeline {

Pipeline::Pipeline(std::unique_ptr<vision::Tracker> tracker, std::shared_ptr<RefereedGame> game,
                   std::unique_ptr<recording::RefereedSessionRecorder> recorder, PipelineOptions options)
    : tracker_(std::move(tracker)), game_(std::move(game)), recorder_(std::move(recorder)), options_(options) {}

Pipeline::~Pipeline() {
  try {
    finish();
  } catch (...) {
    // A destructor must not throw; finish() was called on the way that reports its errors.
  }
}

void Pipeline::pace(double t) {
  if (!options_.realtime) return;
  const auto now = std::chrono::steady_clock::now();
  if (!pace_start_) {
    pace_start_ = now;
    pace_t0_ = t;
  }
  const auto due = *pace_start_ + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::duration<double>((t - pace_t0_) / options_.speed));
  // In slices, so that stop() (a signal handler cannot wake a condition variable) ends it soon.
  while (!stop_ && std::chrono::steady_clock::now() < due)
    std::this_thread::sleep_until(std::min(due, std::chrono::steady_clock::now() + std::chrono::milliseconds(50)));
}

void Pipeline::frame(const model::TrackFrame& track, const cv::Mat* picture,
                     std::shared_ptr<const std::vector<unsigned char>> jpeg, const vision::TrackerResult* tracked) {
  pace(track.t);
  if (recorder_ && tracked) recorder_->tracked(*tracked);
  if (game_) game_->on_frame(track);
  if (recorder_) {
    if (game_) game_->read_referee([&](const referee::Referee& r) { recorder_->frame(track, picture, &r, jpeg); });
    else recorder_->frame(track, picture, nullptr, std::move(jpeg));
  }
  ++stats_.frames;
  if (!stats_.first_t) stats_.first_t = track.t;
  stats_.last_t = track.t;
}

void Pipeline::run_source(vision::FrameSource& source, const FrameHook& after) {
  running_source_ = &source;
  if (stop_) source.interrupt();
  auto* camera = dynamic_cast<vision::LiveCameraSource*>(&source);
  bool lock_asked = false;
  while (!stop_) {
    std::optional<vision::Frame> f = source.next();
    if (!f) break;
    vision::TrackerResult result = tracker_->process(f->image, f->index, f->t);
    if (result.table_pose) {
      stats_.table_found = true;
      if (camera && options_.lock_picture && !lock_asked) {
        camera->request_picture_lock();
        lock_asked = true;
      }
    }
    frame(result.track, &f->image, f->jpeg, &result);
    if (after) after(*f, result);
  }
  running_source_ = nullptr;
}

void Pipeline::run_tracks(const std::vector<model::TrackFrame>& tracks) {
  for (const model::TrackFrame& t : tracks) {
    if (stop_) break;
    frame(t);
  }
}

void Pipeline::stop() {
  stop_ = true;
  if (vision::FrameSource* s = running_source_.load()) s->interrupt();
}

void Pipeline::finish() {
  if (finished_) return;
  finished_ = true;
  if (game_) game_->finish();
  if (recorder_) {
    if (game_) game_->read_referee([&](const referee::Referee& r) { recorder_->finish(&r); });
    else recorder_->finish(nullptr);
  }
}

}  // namespace diskref::pipeline
