#pragma once
// The table pose for overlays when the tracks do not come from the live tracker (ground truth or
// a recording shown over its video): the corner markers are found in the image every
// `refresh_s` seconds of video and handed to calibration's TableMonitor, which acquires the pose,
// notices a bumped camera and re-estimates it.

#include <optional>
#include <vector>

#include "calibration/table_monitor.h"
#include "engine/model/table_spec.h"
#include "ui/source_worker.h"
#include "vision/apriltag_detector.h"

namespace diskref::ui {

class MarkerPose {
 public:
  MarkerPose(model::TableSpec table, std::optional<calib::CameraModel> lens, double refresh_s = 0.25);

  struct Update {
    std::optional<calib::CameraPose> pose;     // the monitor's current pose
    std::vector<OverlayTag> markers;   // corner markers seen, on frames that looked
    std::vector<Event> notes;          // the monitor's events
    bool camera_moved = false;
  };
  Update update(const SourceFrame& frame);
  void restart();

 private:
  model::TableSpec table_;
  std::optional<calib::CameraModel> lens_;
  double refresh_s_;
  vision::AprilTagDetector detector_;
  std::optional<calib::TableMonitor> monitor_;
  std::optional<double> last_t_;
};

}  // namespace diskref::ui
