#include "ui/vision_adapters.h"

#include <cstdio>
#include <stdexcept>

namespace diskref::ui {
namespace {

class SourceFeed : public FrameFeed {
 public:
  SourceFeed(std::unique_ptr<vision::FrameSource> source, std::optional<std::filesystem::path> file)
      : source_(std::move(source)), file_(std::move(file)) {}

  bool next(SourceFrame& out) override {
    std::optional<vision::Frame> f = source_->next();
    if (!f) return false;
    out.image = std::move(f->image);
    out.index = f->index;
    out.t = f->t;
    return true;
  }
  bool can_seek() const override { return file_.has_value(); }
  void seek(long long index) override {
    if (!file_) return;
    // Reopen and read forward (decoding is the only exact way to land on a frame): frames before
    // `index` are decoded and dropped, so the next call to next() returns frame `index`.
    source_ = vision::open_video_file(*file_);
    while (index > 0) {
      std::optional<vision::Frame> f = source_->next();
      if (!f || f->index + 1 >= index) break;
    }
  }
  long long frame_count() const override { return source_->frame_count().value_or(-1); }
  double fps() const override { return source_->frames_per_second(); }
  std::string describe() const override {
    cv::Size s = source_->frame_size();
    char text[256];
    std::snprintf(text, sizeof text, "%s  %dx%d  %.1f fps", source_->description().c_str(), s.width, s.height,
                  source_->frames_per_second());
    return text;
  }

 private:
  std::unique_ptr<vision::FrameSource> source_;
  std::optional<std::filesystem::path> file_;
};

#ifdef DISKREF_UI_HAS_TRACKER
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
#endif

}  // namespace

std::unique_ptr<FrameFeed> open_video_feed(const std::filesystem::path& file) {
  return std::make_unique<SourceFeed>(vision::open_video_file(file), file);
}

std::unique_ptr<FrameFeed> open_camera_feed(const vision::CameraOptions& options) {
  return std::make_unique<SourceFeed>(vision::open_camera(options), std::nullopt);
}

std::unique_ptr<TrackProducer> make_tracker_producer(const model::TableSpec& table, const model::DiskRegistry& registry,
                                                     const std::optional<calib::CameraModel>& lens) {
#ifdef DISKREF_UI_HAS_TRACKER
  return std::make_unique<TrackerProducer>(std::make_unique<vision::Tracker>(table, registry, lens));
#else
  (void)table, (void)registry, (void)lens;
  throw std::logic_error("this build has no tracker");
#endif
}

}  // namespace diskref::ui
