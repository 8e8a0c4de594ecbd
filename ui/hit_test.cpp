#include "ui/hit_test.h"

#include <algorithm>
#include <limits>

#include "engine/geometry/outline.h"

namespace diskref::ui {
namespace {

using geom::Vec2;

double distance_to_segment(Vec2 p, Vec2 a, Vec2 b) {
  Vec2 ab = b - a;
  double len2 = geom::length_squared(ab);
  double s = len2 > 0 ? std::clamp(geom::dot(p - a, ab) / len2, 0.0, 1.0) : 0.0;
  return geom::distance(p, a + s * ab);
}

Vec2 centroid_of(const std::vector<Vec2>& pts) {
  Vec2 c;
  for (Vec2 p : pts) c = c + p;
  return pts.empty() ? c : c / static_cast<double>(pts.size());
}

}  // namespace

bool polygon_contains(const std::vector<Vec2>& polygon, Vec2 p) {
  bool inside = false;
  std::size_t n = polygon.size();
  for (std::size_t i = 0, j = n - 1; i < n; j = i++) {
    Vec2 a = polygon[i];
    Vec2 b = polygon[j];
    if ((a.y > p.y) != (b.y > p.y) && p.x < (b.x - a.x) * (p.y - a.y) / (b.y - a.y) + a.x) inside = !inside;
  }
  return inside;
}

double distance_to_boundary(const std::vector<Vec2>& polygon, Vec2 p) {
  double best = std::numeric_limits<double>::infinity();
  std::size_t n = polygon.size();
  for (std::size_t i = 0; i < n; ++i) best = std::min(best, distance_to_segment(p, polygon[i], polygon[(i + 1) % n]));
  return best;
}

std::optional<std::size_t> pick_outline(const std::vector<std::vector<Vec2>>& outlines, Vec2 point,
                                        double tolerance_px) {
  std::optional<std::size_t> best;
  double best_centre = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    if (outlines[i].size() < 3 || !polygon_contains(outlines[i], point)) continue;
    double d = geom::distance(point, centroid_of(outlines[i]));
    if (d < best_centre) best_centre = d, best = i;
  }
  if (best) return best;
  double best_edge = tolerance_px;
  for (std::size_t i = 0; i < outlines.size(); ++i) {
    if (outlines[i].size() < 2) continue;
    double d = distance_to_boundary(outlines[i], point);
    if (d <= best_edge) best_edge = d, best = i;
  }
  return best;
}

std::optional<std::size_t> pick_disk_in_table(const referee::TableSnapshot& scene, Vec2 point_mm, double tolerance_mm) {
  std::optional<std::size_t> best;
  double best_centre = std::numeric_limits<double>::infinity();
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const referee::SeenDisk& d = scene.disks[i];
    if (!d.has_pose() || !geom::contains(d.placed(), point_mm)) continue;
    double c = geom::distance(point_mm, d.pose->position);
    if (c < best_centre) best_centre = c, best = i;
  }
  if (best) return best;
  double best_edge = tolerance_mm;
  for (std::size_t i = 0; i < scene.disks.size(); ++i) {
    const referee::SeenDisk& d = scene.disks[i];
    if (!d.has_pose()) continue;
    double e = distance_to_boundary(geom::outline_polygon(d.placed()), point_mm);
    if (e <= best_edge) best_edge = e, best = i;
  }
  return best;
}

}  // namespace diskref::ui
