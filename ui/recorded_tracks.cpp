#include "ui/recorded_tracks.h"

namespace diskref::ui {

RecordedTracks::RecordedTracks(std::vector<model::TrackFrame> frames, std::string description,
                               std::unique_ptr<MarkerPose> pose)
    : description_(std::move(description)), pose_(std::move(pose)) {
  for (model::TrackFrame& f : frames) {
    long long index = f.frame;
    frames_[index] = std::move(f);
  }
}

TrackResult RecordedTracks::process(const SourceFrame& frame) {
  TrackResult r;
  if (auto it = frames_.find(frame.index); it != frames_.end()) r.frame = it->second;
  if (pose_) {
    MarkerPose::Update u = pose_->update(frame);
    r.table_pose = u.pose;
    r.detections = std::move(u.markers);
    r.notes = std::move(u.notes);
    r.camera_moved = u.camera_moved;
  }
  return r;
}

void RecordedTracks::restart() {
  if (pose_) pose_->restart();
}

}  // namespace diskref::ui

namespace diskref::ui {
namespace {

class TimelineFeed : public FrameFeed {
 public:
  TimelineFeed(std::vector<std::pair<long long, double>> times, double fps) : times_(std::move(times)), fps_(fps) {}
  bool next(SourceFrame& out) override {
    if (pos_ >= times_.size()) return false;
    out.image = cv::Mat();
    out.index = times_[pos_].first;
    out.t = times_[pos_].second;
    ++pos_;
    return true;
  }
  bool can_seek() const override { return true; }
  void seek(long long index) override {
    pos_ = 0;
    while (pos_ < times_.size() && times_[pos_].first < index) ++pos_;
  }
  long long frame_count() const override { return times_.empty() ? 0 : times_.back().first + 1; }
  double fps() const override { return fps_; }
  std::string describe() const override { return "recorded tracks only (no video)"; }

 private:
  std::vector<std::pair<long long, double>> times_;
  double fps_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<FrameFeed> make_timeline_feed(const std::vector<model::TrackFrame>& frames, double fps) {
  std::vector<std::pair<long long, double>> times;
  for (const model::TrackFrame& f : frames) times.emplace_back(f.frame, f.t);
  return std::make_unique<TimelineFeed>(std::move(times), fps);
}

}  // namespace diskref::ui
