#include "simulator/coarse_rays.h"

#include "simulator/lens_rays.h"

namespace diskref::simulator {

CoarseRays::CoarseRays(const CameraRig& rig, int step) : step_(step) {
  const cv::Size size = rig.camera.image_size;
  cols_ = (size.width + 2 * step) / step + 2;
  rows_ = (size.height + 2 * step) / step + 2;
  nodes_.assign(static_cast<std::size_t>(cols_ * rows_), cv::Vec3d(0, 0, 0));
  const cv::Matx33d table_from_camera = rig.rotation.t();
  cv::parallel_for_(cv::Range(0, rows_), [&](const cv::Range& r) {
    for (int j = r.start; j < r.end; ++j)
      for (int i = 0; i < cols_; ++i) {
        const auto ray =
            ray_from_pixel(rig.camera, {static_cast<double>(i * step - step), static_cast<double>(j * step - step)});
        if (ray)
          nodes_[static_cast<std::size_t>(j * cols_ + i)] = table_from_camera * cv::Vec3d((*ray)[0], (*ray)[1], 1.0);
      }
  });
}

}  // namespace diskref::simulator
