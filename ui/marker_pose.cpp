#include "ui/marker_pose.h"

#include <cmath>

#include <opencv2/imgproc.hpp>

namespace diskref::ui {

MarkerPose::MarkerPose(model::TableSpec table, std::optional<calib::CameraModel> lens, double refresh_s)
    : table_(table), lens_(std::move(lens)), refresh_s_(refresh_s) {}

void MarkerPose::restart() { last_t_.reset(); }

MarkerPose::Update MarkerPose::update(const SourceFrame& frame) {
  Update u;
  // Detection over the whole image costs tens of milliseconds: once the monitor has a pose, look
  // every refresh_s of video (and on the first frame after a seek); until then, every frame.
  bool acquired = monitor_ && monitor_->pose();
  bool due = !acquired || !last_t_ || std::fabs(frame.t - *last_t_) >= refresh_s_;
  if (due && !frame.image.empty()) {
    last_t_ = frame.t;
    cv::Mat gray = frame.image;
    if (frame.image.channels() == 3) cv::cvtColor(frame.image, gray, cv::COLOR_BGR2GRAY);
    std::vector<calib::MarkerObservation> observed;
    for (const vision::TagDetection& d : detector_.detect(gray)) {
      if (d.id < 0 || d.id > 3) continue;
      observed.push_back({d.id, d.corners});
      u.markers.push_back({d.id, d.corners});
    }
    if (!monitor_) monitor_.emplace(table_, lens_, frame.image.size());
    if (std::optional<calib::TableMonitorEvent> e = monitor_->update(frame.index, observed)) {
      bool moved = e->kind == calib::TableMonitorEvent::Kind::camera_moved;
      u.camera_moved = moved;
      u.notes.push_back({frame.t, frame.index,
                         e->kind == calib::TableMonitorEvent::Kind::acquired ? Severity::info : Severity::warning, e->message});
    }
  }
  if (monitor_) u.pose = monitor_->pose();
  return u;
}

}  // namespace diskref::ui
