#include "vision/tracker_geometry.h"

#include <algorithm>
#include <cmath>

#include <opencv2/imgproc.hpp>

namespace diskref::vision {

cv::Rect2d bounding_box(const std::vector<cv::Point2d>& points) {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  for (const auto& p : points) {
    x0 = std::min(x0, p.x);
    y0 = std::min(y0, p.y);
    x1 = std::max(x1, p.x);
    y1 = std::max(y1, p.y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

double pixels_per_mm_at(const calib::CameraPose& pose, geom::Vec2 p, double height_mm) {
  auto q = calib::image_from_table(pose, {{p.x, p.y, height_mm}, {p.x + 1, p.y, height_mm}, {p.x, p.y + 1, height_mm}});
  const cv::Point2d dx = q[1] - q[0], dy = q[2] - q[0];
  return std::sqrt(std::fabs(dx.x * dy.y - dx.y * dy.x));
}

std::vector<cv::Point2d> square_in_image(const calib::CameraPose& pose, geom::Vec2 centre, double half,
                                         double height_mm) {
  return calib::image_from_table(pose, {{centre.x - half, centre.y - half, height_mm},
                                        {centre.x + half, centre.y - half, height_mm},
                                        {centre.x + half, centre.y + half, height_mm},
                                        {centre.x - half, centre.y + half, height_mm}});
}

TagSizes tag_sizes_mm(const model::DiskSpec& disk) {
  TagSizes sizes{1e300, 0};
  for (const auto& tag : disk.tags) {
    sizes.largest_mm = std::max(sizes.largest_mm, tag.size_mm);
    sizes.smallest_mm = std::min(sizes.smallest_mm, tag.size_mm);
  }
  return sizes;
}

void grey_into(const cv::Mat& frame, cv::Mat& grey) {
  if (frame.type() == CV_8UC1)
    frame.copyTo(grey);
  else
    cv::cvtColor(frame, grey, frame.type() == CV_8UC4 ? cv::COLOR_BGRA2GRAY : cv::COLOR_BGR2GRAY);
}

cv::Rect small_box(const ChangeResult& change, const cv::Rect2d& box) {
  const int s = change.scale;
  return cv::Rect(static_cast<int>(box.x) / s - 1, static_cast<int>(box.y) / s - 1, static_cast<int>(box.width) / s + 3,
                  static_cast<int>(box.height) / s + 3) &
         cv::Rect(0, 0, change.changed_small.cols, change.changed_small.rows);
}

bool changed_in(const ChangeResult& change, const cv::Rect2d& box) {
  if (change.first_frame) return true;
  const cv::Rect small = small_box(change, box);
  return small.area() > 0 && cv::countNonZero(change.changed_small(small)) > 0;
}

}  // namespace diskref::vision
