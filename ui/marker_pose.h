#pragma once
// The table pose for overlays when the tracks do not come from the live tracker (ground truth or
// a recording over its video): found from the corner markers in the image through the
// calibration library, refreshed every few seconds of video.

#include <optional>
#include <vector>

#include "calibration/table_pose.h"
#include "engine/model/table_spec.h"
#include "ui/source_worker.h"
#include "vision/apriltag_detector.h"

namespace diskref::ui {

class MarkerPose {
 public:
  MarkerPose(TableSpec table, std::optional<CameraModel> lens, double refresh_s = 2.0);

  struct Update {
    std::optional<TablePose> pose;     // the current estimate (kept between refreshes)
    std::vector<OverlayTag> markers;   // corner markers seen, on frames that refreshed
    std::vector<Event> notes;
  };
  Update update(const SourceFrame& frame);
  void restart();

 private:
  TableSpec table_;
  std::optional<CameraModel> lens_;
  double refresh_s_;
  vision::AprilTagDetector detector_;
  std::optional<TablePose> pose_;
  std::optional<double> last_t_;
  std::string last_problem_;
};

}  // namespace diskref::ui
