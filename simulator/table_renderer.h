#pragma once
// Renders table scenes into linear radiance images by inverse mapping: every output supersample
// goes back through the lens to a ray, which meets the board, hands, disks, the table top or the
// floor (scene.h). The rays of every pixel are computed once per camera (lens_rays.h).
//
// Frames are rendered incrementally: only tiles whose content can have changed since the last
// frame (the screen boxes, old and new, of every object that moved, appeared or vanished) are
// traced again; the rest is kept. The result does not depend on what was rendered before: a
// tile is a pure function of the instants, so a frame rendered alone is identical.
//
// Motion blur: each of the n x n supersamples of a pixel sees the scene at its own moment of the
// exposure (instants[k]), so moving things smear as on a real sensor at no extra cost.
//
// Edges: a pixel whose n x n samples differ (a tag's cell, a disk's outline, a marker runs
// through it) is sampled again with 8 x 8 samples (supersample_pattern.h), so that an edge is
// placed in the picture as a real pixel's integral places it, not in steps of 1/n² of a pixel.
//
// Speed: the bare table (texture, corner markers, floor) is traced once, fully supersampled; a
// traced pixel then only casts its samples against the objects near it, and its samples that
// reach the table take the bare table's pixel value, darkened by the hands' soft shadows
// evaluated once per pixel (at the exposure's middle). Exact where it matters (objects, tags,
// their edges against each other); at an object's outline the table part is the pixel's average
// table colour rather than that of the uncovered part, a difference far below the noise.

#include <cstdint>
#include <map>
#include <vector>

#include <opencv2/core.hpp>

#include "simulator/camera_rig.h"
#include "simulator/lens_rays.h"
#include "simulator/scene.h"

namespace diskref::simulator {

class TableRenderer {
 public:
  TableRenderer(const SceneModel& model, const CameraRig& rig, int supersample);

  int samples_per_pixel() const { return static_cast<int>(offsets_.size()); }
  // Linear radiance (CV_32FC3) of one frame. `instants` is either one instant (no motion blur)
  // or one per supersample (samples_per_pixel()), spread over the exposure in time order.
  const cv::Mat& render(const std::vector<SceneInstant>& instants);
  // Pixels traced for the last frame (for the speed report).
  long long last_traced_pixels() const { return last_traced_; }

 private:
  struct ObjectBox {
    uint64_t signature = 0;
    cv::Rect box;
  };
  std::map<int, ObjectBox> object_boxes(const std::vector<SceneInstant>& instants) const;
  // Screen boxes of every part of every hand of every instant: [instant][hand][part].
  std::vector<std::vector<std::vector<cv::Rect>>> hand_part_boxes(const std::vector<SceneInstant>& instants) const;
  cv::Rect project_points(const std::vector<cv::Vec3d>& table_points) const;
  // The unit ray (table frame) through raw image point (u, v); false outside the lens model.
  bool ray_at(double u, double v, cv::Vec3d& direction_table) const;
  void trace_tile(const cv::Rect& tile, const std::vector<SceneInstant>& instants,
                  const std::map<int, ObjectBox>& boxes,
                  const std::vector<std::vector<std::vector<cv::Rect>>>& part_boxes);

  const SceneModel& model_;
  CameraRig rig_;
  RayGrid rays_;
  // Table-frame ray directions (not unit) at every pixel centre, one pixel beyond the image:
  // (width + 2) x (height + 2) x 3 floats; NaN where the lens cannot be inverted.
  std::vector<float> directions_;
  int grid_w_ = 0, grid_h_ = 0;
  cv::Matx33d table_from_camera_;
  cv::Vec3d camera_center_;
  std::vector<cv::Point2d> offsets_;
  std::vector<int> time_of_sample_;       // which instant each supersample sees, for n x n instants
  std::vector<int> fine_time_of_sample_;  // the same for the fine samples of a pixel with an edge
  cv::Rect2d field_;                      // normalized ray coordinates the lens model covers (with a margin)
  cv::Mat radiance_;
  cv::Mat bare_table_;  // CV_32FC3: the table, markers and floor without any object
  std::map<int, ObjectBox> previous_;
  bool first_ = true;
  long long last_traced_ = 0;
};

}  // namespace diskref::simulator
