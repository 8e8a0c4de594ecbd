#include "simulator/still_table_renderer.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "engine/geometry/shape.h"
#include "simulator/coarse_rays.h"
#include "simulator/lens_rays.h"
#include "simulator/supersample_pattern.h"

namespace diskref::simulator {
namespace {

constexpr int kRayTile = 16;  // px: exact rays at the corners of tiles this wide, interpolated between

// The pixel box a set of table points projects into, grown by a few pixels; empty when none is in
// front of the camera. Points are clamped to the field the image sees (and a margin), so that a
// point far outside cannot fold back into the image through the lens polynomial.
cv::Rect project_box(const CameraRig& rig, const std::vector<cv::Vec3d>& points, const cv::Rect2d& field) {
  const cv::Rect image(cv::Point(0, 0), rig.camera.image_size);
  double u0 = 1e18, v0 = 1e18, u1 = -1e18, v1 = -1e18;
  for (const cv::Vec3d& p : points) {
    const cv::Vec3d c = rig.rotation * p + rig.translation;
    if (c[2] < 1.0) return image;  // at or behind the camera: everywhere, to be safe
    const double x = std::clamp(c[0] / c[2], field.x, field.x + field.width);
    const double y = std::clamp(c[1] / c[2], field.y, field.y + field.height);
    const cv::Point2d px = pixel_from_ray(rig.camera, {x, y});
    u0 = std::min(u0, px.x);
    v0 = std::min(v0, px.y);
    u1 = std::max(u1, px.x);
    v1 = std::max(v1, px.y);
  }
  constexpr double kMargin = 4;  // the box filter, and the outline bending between the box's points
  const cv::Rect box(
      cv::Point(static_cast<int>(std::floor(u0 - kMargin)), static_cast<int>(std::floor(v0 - kMargin))),
      cv::Point(static_cast<int>(std::ceil(u1 + kMargin)) + 1, static_cast<int>(std::ceil(v1 + kMargin)) + 1));
  return box & image;
}

// Normalized ray coordinates the image covers, grown by a tenth each way.
cv::Rect2d field_of(const CameraRig& rig) {
  const cv::Size size = rig.camera.image_size;
  double x0 = 1e9, x1 = -1e9, y0 = 1e9, y1 = -1e9;
  for (int k = 0; k <= 64; ++k) {
    const double f = k / 64.0;
    for (cv::Point2d p : {cv::Point2d(f * (size.width - 1), 0), cv::Point2d(f * (size.width - 1), size.height - 1),
                          cv::Point2d(0, f * (size.height - 1)), cv::Point2d(size.width - 1, f * (size.height - 1))}) {
      const auto r = ray_from_pixel(rig.camera, p);
      if (!r) continue;
      x0 = std::min(x0, (*r)[0]);
      x1 = std::max(x1, (*r)[0]);
      y0 = std::min(y0, (*r)[1]);
      y1 = std::max(y1, (*r)[1]);
    }
  }
  const double mx = 0.1 * (x1 - x0), my = 0.1 * (y1 - y0);
  return {x0 - mx, y0 - my, x1 - x0 + 2 * mx, y1 - y0 + 2 * my};
}

// The 8 corners of a disk's bounding slab, table frame.
std::vector<cv::Vec3d> disk_box_points(const SceneModel& model, const DiskInstant& d) {
  const model::DiskSpec& spec = model.disks[d.disk].spec();
  const double r = geom::bounding_radius(spec.shape);
  std::vector<cv::Vec3d> out;
  for (int k = 0; k < 8; ++k)
    out.push_back(d.rotation * cv::Vec3d((k & 1) ? r : -r, (k & 2) ? r : -r, (k & 4) ? spec.thickness_mm : 0.0) +
                  d.translation);
  return out;
}

}  // namespace

cv::Mat render_still_table(const SceneModel& model, const SceneInstant& instant, const CameraRig& rig) {
  const cv::Size size = rig.camera.image_size;
  const CoarseRays rays(rig);
  const cv::Vec3d eye = rig.center_table();
  const cv::Rect2d field = field_of(rig);

  // Where disks (by index into the instant) and the corner markers' cards can be seen.
  std::vector<cv::Rect> disk_boxes, marker_boxes;
  for (const DiskInstant& d : instant.disks) disk_boxes.push_back(project_box(rig, disk_box_points(model, d), field));
  for (const model::CornerMarker& m : model.surface->table().corner_markers) {
    const double h = 1.2 * m.size_mm;  // the printed marker (0.9 x size each side) and its card
    marker_boxes.push_back(project_box(rig,
                                       {{m.center_mm.x - h, m.center_mm.y - h, 0},
                                        {m.center_mm.x + h, m.center_mm.y - h, 0},
                                        {m.center_mm.x + h, m.center_mm.y + h, 0},
                                        {m.center_mm.x - h, m.center_mm.y + h, 0}},
                                       field));
  }

  cv::Mat radiance(size, CV_32FC3);
  const cv::Size tiles((size.width + kRayTile - 1) / kRayTile, (size.height + kRayTile - 1) / kRayTile);
  const std::vector<cv::Point2d> coarse = supersample_offsets(2);
  const std::vector<cv::Point2d>& fine = edge_supersample_offsets();
  cv::parallel_for_(cv::Range(0, tiles.area()), [&](const cv::Range& range) {
    for (int t = range.start; t < range.end; ++t) {
      const cv::Rect tile = cv::Rect((t % tiles.width) * kRayTile, (t / tiles.width) * kRayTile, kRayTile, kRayTile) &
                            cv::Rect(cv::Point(0, 0), size);
      Candidates candidates;
      for (std::size_t i = 0; i < disk_boxes.size(); ++i)
        if (!(disk_boxes[i] & tile).empty()) candidates.disks.push_back(static_cast<int>(i));
      bool careful = !candidates.disks.empty();
      for (const cv::Rect& b : marker_boxes) careful = careful || !(b & tile).empty();
      auto sample = [&](double u, double v) {
        cv::Vec3d direction = rays.at(u, v);
        const double n = cv::norm(direction);
        if (!(n > 0)) return cv::Vec3f(0, 0, 0);
        direction /= n;
        if (!candidates.disks.empty())
          if (auto hit = cast_objects(model, instant, eye, direction, std::numeric_limits<double>::infinity(),
                                      &candidates, true))
            return hit->color;
        return surface_color(model, eye, direction);
      };
      for (int v = tile.y; v < tile.y + tile.height; ++v) {
        auto* row = radiance.ptr<cv::Vec3f>(v);
        for (int u = tile.x; u < tile.x + tile.width; ++u) {
          if (!careful) {
            row[u] = sample(u, v);
            continue;
          }
          auto average = [&](const std::vector<cv::Point2d>& offsets, float& spread) {
            cv::Vec3f sum(0, 0, 0);
            float lo = std::numeric_limits<float>::infinity(), hi = -lo;
            for (const cv::Point2d& o : offsets) {
              const cv::Vec3f c = sample(u + o.x, v + o.y);
              lo = std::min(lo, luminance(c));
              hi = std::max(hi, luminance(c));
              sum += c;
            }
            spread = hi - lo;
            return sum * (1.0f / static_cast<float>(offsets.size()));
          };
          float spread = 0, unused = 0;
          row[u] = average(coarse, spread);
          if (spread > kEdgeContrast) row[u] = average(fine, unused);
        }
      }
    }
  });
  return radiance;
}

}  // namespace diskref::simulator
