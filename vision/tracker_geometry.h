#pragma once
// The table as the image shows it, for the tracker's own files (tracker.cpp, tracker_foreign.cpp,
// tracker_second_look.cpp): how large a millimetre or a disk's tag looks at a place, where a
// square of the table lies in the image, and the frame in grey.

#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "engine/geometry/pose.h"
#include "engine/model/disk_registry.h"
#include "vision/change_detector.h"

namespace diskref::vision {

// The smallest box holding `points`.
cv::Rect2d bounding_box(const std::vector<cv::Point2d>& points);

// Image pixels per table millimetre at a table point (square root of the local area scale).
double pixels_per_mm_at(const calib::CameraPose& pose, geom::Vec2 p, double height_mm);

// The corners of a square of half-side `half` about `centre`, at `height_mm`, in the image.
std::vector<cv::Point2d> square_in_image(const calib::CameraPose& pose, geom::Vec2 centre, double half,
                                         double height_mm);

// The sizes (mm, between the detector's corners) of a disk's smallest and largest tags.
struct TagSizes {
  double smallest_mm = 0;
  double largest_mm = 0;
};
TagSizes tag_sizes_mm(const model::DiskSpec& disk);

// `box` (full-resolution pixels) in the change detector's shrunk frame, a small pixel's margin
// around it, clipped to the frame (empty when wholly outside).
cv::Rect small_box(const ChangeResult& change, const cv::Rect2d& box);
// Whether any pixel changed in `box` (full-resolution pixels; a small pixel's margin around it);
// always on the first frame.
bool changed_in(const ChangeResult& change, const cv::Rect2d& box);

// `frame` (8-bit grey, BGR or BGRA; a whole frame or a region of one) in 8-bit grey, into `grey`:
// written in place when `grey` already has its size and type, so that a view of a buffer stays one.
void grey_into(const cv::Mat& frame, cv::Mat& grey);

}  // namespace diskref::vision
