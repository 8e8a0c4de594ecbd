#include "ui/marker_pose.h"

#include <cmath>
#include <cstdio>

#include <opencv2/imgproc.hpp>

namespace diskref::ui {

MarkerPose::MarkerPose(TableSpec table, std::optional<CameraModel> lens, double refresh_s)
    : table_(table), lens_(std::move(lens)), refresh_s_(refresh_s) {}

void MarkerPose::restart() { last_t_.reset(); }

MarkerPose::Update MarkerPose::update(const SourceFrame& frame) {
  Update u;
  bool due = !pose_ || !last_t_ || std::fabs(frame.t - *last_t_) >= refresh_s_;
  if (due && !frame.image.empty()) {
    last_t_ = frame.t;
    cv::Mat gray;
    cv::cvtColor(frame.image, gray, cv::COLOR_BGR2GRAY);
    std::vector<MarkerObservation> observed;
    for (const vision::TagDetection& d : detector_.detect(gray)) {
      if (d.id < 0 || d.id > 3) continue;
      observed.push_back({d.id, d.corners});
      u.markers.push_back({d.id, d.corners});
    }
    // The calibration scales a lens calibrated at another resolution itself.
    TablePoseEstimate est = estimate_table_pose(table_, observed, lens_, frame.image.size());
    if (est.pose) {
      if (!pose_) {
        char text[160];
        std::snprintf(text, sizeof text, "table found: %zu corner markers, reprojection %.2f px (%.2f mm)",
                      est.pose->markers_used.size(), est.pose->reprojection_rms_px, est.pose->reprojection_rms_mm);
        u.notes.push_back({frame.t, frame.index, Severity::info, text});
      }
      pose_ = est.pose;
      last_problem_.clear();
    } else if (est.problem != last_problem_) {
      last_problem_ = est.problem;
      u.notes.push_back({frame.t, frame.index, Severity::warning, "table pose: " + est.problem});
    }
  }
  u.pose = pose_;
  return u;
}

}  // namespace diskref::ui
