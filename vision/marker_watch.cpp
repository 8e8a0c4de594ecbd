#include "vision/marker_watch.h"

#include <cmath>

#include <opencv2/imgproc.hpp>

namespace diskref::vision {

MarkerWatch::MarkerWatch(model::TableSpec table, std::optional<calib::CameraModel> lens, double refresh_s)
    : table_(std::move(table)), lens_(std::move(lens)), refresh_s_(refresh_s) {}

void MarkerWatch::restart() {
  last_t_.reset();
}

MarkerWatch::Update MarkerWatch::update(const Frame& frame) {
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
    for (const TagDetection& d : detector_.detect(gray)) {
      if (!model::is_corner_marker(d.id)) continue;
      observed.push_back({d.id, d.corners});
      u.markers.push_back(d);
    }
    if (!monitor_) monitor_.emplace(table_, lens_, frame.image.size());
    u.event = monitor_->update(frame.index, observed);
  }
  if (monitor_) u.pose = monitor_->pose();
  return u;
}

}  // namespace diskref::vision
