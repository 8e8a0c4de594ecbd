#pragma once
// The rays of a camera's pixels for rendering one large picture: exact (lens_rays.h's Newton
// inverse of the lens) at the nodes of a grid `step` pixels apart, bilinear between them.
//
// RayGrid (lens_rays.h) keeps one exact ray a pixel: 384 MB and 48 million Newton inverses for a
// 48 Mpx phone picture taken once. A phone's lens, after its own correction, bends the
// inverse map by far less than a thousandth of a pixel over 16 px (tests/simulator measure it), so
// one exact ray every 16 px costs nothing in accuracy.

#include <algorithm>
#include <vector>

#include <opencv2/core.hpp>

#include "simulator/camera_rig.h"

namespace diskref::simulator {

class CoarseRays {
 public:
  explicit CoarseRays(const CameraRig& rig, int step = 16);

  // Table-frame direction (not unit) through raw image point (u, v); zero where the lens model
  // cannot be inverted.
  cv::Vec3d at(double u, double v) const {
    const double gu = (u + step_) / step_, gv = (v + step_) / step_;
    const int i = std::clamp(static_cast<int>(gu), 0, cols_ - 2), j = std::clamp(static_cast<int>(gv), 0, rows_ - 2);
    const double fu = gu - i, fv = gv - j;
    const cv::Vec3d* p = &nodes_[static_cast<std::size_t>(j * cols_ + i)];
    const cv::Vec3d* q = p + cols_;
    return (1 - fv) * ((1 - fu) * p[0] + fu * p[1]) + fv * ((1 - fu) * q[0] + fu * q[1]);
  }

 private:
  int step_;
  int cols_ = 0, rows_ = 0;
  std::vector<cv::Vec3d> nodes_;  // from one node before the image's first pixel to one after its last
};

}  // namespace diskref::simulator
