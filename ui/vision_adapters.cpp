#include "ui/vision_adapters.h"

namespace diskref::ui {
namespace {

class TrackerProducer : public TrackProducer {
 public:
  explicit TrackerProducer(std::unique_ptr<vision::Tracker> tracker) : tracker_(std::move(tracker)) {}

  TrackResult process(const SourceFrame& frame) override {
    vision::TrackerResult r = tracker_->process(frame.image, frame.index, frame.t);
    TrackResult out;
    out.frame = std::move(r.track);
    if (r.table_pose) out.table_pose = *r.table_pose;
    for (const vision::DetectionRecord& d : r.detections) out.detections.push_back({d.tag.id, d.tag.corners});
    // A frame where the camera was found moved makes its notes warnings (the pose was re-estimated).
    out.camera_moved = r.camera_moved;
    for (std::string& n : r.notes)
      out.notes.push_back({frame.t, frame.index, r.camera_moved ? Severity::warning : Severity::info, std::move(n)});
    return out;
  }
  void restart() override { tracker_->reset(); }
  std::string describe() const override { return "tracker"; }

 private:
  std::unique_ptr<vision::Tracker> tracker_;
};

}  // namespace

std::unique_ptr<TrackProducer> make_tracker_producer(const model::TableSpec& table, const model::DiskRegistry& registry,
                                                     const std::optional<calib::CameraModel>& lens) {
  return std::make_unique<TrackerProducer>(std::make_unique<vision::Tracker>(table, registry, lens));
}

}  // namespace diskref::ui
