#pragma once
// The camera's pose over the table from the corner markers alone, for when the disks' tracks do
// not come from the live tracker (a rendered video's ground truth, or a recording shown over its
// video): the corner markers are looked for in the whole image every `refresh_s` seconds of video
// (every frame until a pose is acquired) and handed to calibration's TableMonitor, which acquires
// the pose, notices a bumped camera and re-estimates it. The tracker does the same inside its own
// pipeline, on the regions it searches anyway.

#include <optional>
#include <vector>

#include "calibration/table_monitor.h"
#include "engine/model/table_spec.h"
#include "vision/apriltag_detector.h"
#include "vision/frame_source.h"

namespace diskref::vision {

class MarkerWatch {
 public:
  MarkerWatch(model::TableSpec table, std::optional<calib::CameraModel> lens, double refresh_s = 0.25);

  struct Update {
    std::optional<calib::CameraPose> pose;          // the monitor's current pose
    std::vector<TagDetection> markers;              // corner markers seen, on frames that looked
    std::optional<calib::TableMonitorEvent> event;  // acquired, camera moved, ...
  };
  Update update(const Frame& frame);
  // After a seek: the next frame is looked at whatever its time.
  void restart();

 private:
  model::TableSpec table_;
  std::optional<calib::CameraModel> lens_;
  double refresh_s_;
  AprilTagDetector detector_;
  std::optional<calib::TableMonitor> monitor_;
  std::optional<double> last_t_;
};

}  // namespace diskref::vision
