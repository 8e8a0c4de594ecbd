#include "ui/recorded_tracks.h"

namespace diskref::ui {

RecordedTracks::RecordedTracks(std::vector<model::TrackFrame> frames, std::string description,
                               std::unique_ptr<vision::MarkerWatch> pose)
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
    vision::MarkerWatch::Update u = pose_->update(frame);
    r.table_pose = u.pose;
    for (const vision::TagDetection& d : u.markers) r.detections.push_back({d.id, d.corners});
    if (u.event) {
      using Kind = calib::TableMonitorEvent::Kind;
      r.camera_moved = u.event->kind == Kind::camera_moved;
      r.notes.push_back({frame.t, frame.index, u.event->kind == Kind::acquired ? Severity::info : Severity::warning,
                         u.event->message});
    }
  }
  return r;
}

void RecordedTracks::restart() {
  if (pose_) pose_->restart();
}

}  // namespace diskref::ui

namespace diskref::ui {
namespace {

class TimelineSource : public vision::FrameSource {
 public:
  TimelineSource(std::vector<std::pair<long long, double>> times, double fps) : times_(std::move(times)), fps_(fps) {}
  std::optional<vision::Frame> next() override {
    if (pos_ >= times_.size()) return std::nullopt;
    vision::Frame out;
    out.index = times_[pos_].first;
    out.t = times_[pos_].second;
    ++pos_;
    return out;
  }
  double frames_per_second() const override { return fps_; }
  std::optional<long long> frame_count() const override { return times_.empty() ? 0 : times_.back().first + 1; }
  long long corrupt_frames_skipped() const override { return 0; }
  cv::Size frame_size() const override { return {}; }
  std::string description() const override { return "recorded tracks only (no video)"; }
  bool can_seek() const override { return true; }
  void seek(long long index) override {
    pos_ = 0;
    while (pos_ < times_.size() && times_[pos_].first < index) ++pos_;
  }

 private:
  std::vector<std::pair<long long, double>> times_;
  double fps_;
  std::size_t pos_ = 0;
};

}  // namespace

std::unique_ptr<vision::FrameSource> make_timeline_source(const std::vector<model::TrackFrame>& frames, double fps) {
  std::vector<std::pair<long long, double>> times;
  for (const model::TrackFrame& f : frames) times.emplace_back(f.frame, f.t);
  return std::make_unique<TimelineSource>(std::move(times), fps);
}

}  // namespace diskref::ui
