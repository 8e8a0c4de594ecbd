#pragma once
// Tracks that already exist, looked up by frame index: a rendered video's ground truth
// (truth.jsonl) or a session recording's track.jsonl. The screen then shows them over the video
// exactly as it would show the live tracker's output.

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "ui/source_worker.h"
#include "vision/marker_watch.h"

namespace diskref::ui {

class RecordedTracks : public TrackProducer {
 public:
  // `pose` (may be null) finds the table pose from the image's corner markers, for overlays.
  RecordedTracks(std::vector<model::TrackFrame> frames, std::string description,
                 std::unique_ptr<vision::MarkerWatch> pose);
  TrackResult process(const SourceFrame& frame) override;
  void restart() override;
  std::string describe() const override { return description_; }

 private:
  std::map<long long, model::TrackFrame> frames_;
  std::string description_;
  std::unique_ptr<vision::MarkerWatch> pose_;
};

}  // namespace diskref::ui

namespace diskref::ui {

// A source with no images, one empty frame per recorded track frame at its time: replaying a
// recording whose video is not available (a live camera's session) still plays the table view.
std::unique_ptr<vision::FrameSource> make_timeline_source(const std::vector<model::TrackFrame>& frames, double fps);

}  // namespace diskref::ui
