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

namespace {
double steady_seconds() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}
}  // namespace

void Pipeline::pace(double t) {
  if (!options_.realtime) return;
  const double due = schedule_.due(t, options_.speed, steady_seconds());
  // In slices, so that stop() (a signal handler cannot wake a condition variable) ends it soon.
  for (double now = steady_seconds(); !stop_ && now < due; now = steady_seconds())
    std::this_thread::sleep_for(std::chrono::duration<double>(std::min(due - now, 0.05)));
}

void Pipeline::frame(const model::TrackFrame& track, const cv::Mat* picture,
                     std::shared_ptr<const std::vector<unsigned char>> jpeg, const vision::TrackerResult* tracked) {
  pace(track.t);
  if (recorder_ && tracked) recorder_->tracked(*tracked);
  if (game_) game_->on_frame(track);
  if (recorder_) {
    if (game_)
      game_->read_referee([&](const referee::Referee& r) { recorder_->frame(track, picture, &r, jpeg); });
    else
      recorder_->frame(track, picture, nullptr, std::move(jpeg));
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
    if (game_)
      game_->read_referee([&](const referee::Referee& r) { recorder_->finish(&r); });
    else
      recorder_->finish(nullptr);
  }
}

}  // namespace diskref::pipeline
