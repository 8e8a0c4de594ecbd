#pragma once
// The table step of a setup: the four corner markers found in the camera's pictures, the table
// pose from them (calibration/camera_pose.h, as `diskref table` finds it), and everything that can
// be wrong said with its fix: a marker missing (outside the picture, or in it but not read), markers
// in the wrong corners (going round the wrong way), a marker turned on its card, a marker moved
// from where the table file puts it, distances between markers that disagree with the table file,
// and tags this camera cannot read from where it is (the camera planner on the real pose).

#include <deque>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "engine/model/camera_plan.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "setup/advice.h"
#include "vision/apriltag_detector.h"

namespace diskref::setup {

// The distance between two marker centres, measured through the pose, may differ from the table
// file's by this much: the pose itself is good to a few tenths of a millimetre, a marker laid by
// hand to a millimetre or two.
inline constexpr double kMarkerDistanceToleranceMm = 3.0;
// The markers of this many recent frames are combined (median corners), as `diskref table` does.
inline constexpr std::size_t kTableFrames = 10;

// A check of the markers seen in one picture, before any pose: ids out of order, turned markers.
// `markers`: the corner markers seen once each (raw pixels).
std::vector<Advice> marker_layout_problems(const std::vector<calib::MarkerObservation>& markers);

class TableCheck {
 public:
  // `registry` (may be null): its tags are checked against the camera once the pose is known.
  TableCheck(model::TableSpec table, std::optional<calib::CameraModel> lens, const model::DiskRegistry* registry);

  // One picture (8-bit grey).
  void add_frame(const cv::Mat& gray);

  // The corner markers of the last picture (raw pixels), for drawing.
  const std::vector<calib::MarkerObservation>& markers() const { return last_; }
  // The table pose from the recent pictures, when the markers give one and their layout is right.
  const std::optional<calib::CameraPose>& pose() const { return pose_; }
  // What is found and what is wrong, each problem with its fix.
  const std::vector<Advice>& advice() const { return advice_; }
  // A pose from at least 3 markers whose distances all agree with the table file.
  bool ready() const { return ready_; }

 private:
  model::TableSpec table_;
  std::optional<calib::CameraModel> lens_;
  const model::DiskRegistry* registry_;
  vision::AprilTagDetector detector_;
  cv::Size image_size_;
  std::deque<std::vector<calib::MarkerObservation>> frames_;
  std::vector<calib::MarkerObservation> last_;
  std::optional<calib::CameraPose> pose_;
  std::vector<Advice> advice_;
  bool ready_ = false;
};

}  // namespace diskref::setup
