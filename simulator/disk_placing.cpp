#include "simulator/disk_placing.h"

#include <cmath>
#include <numbers>
#include <stdexcept>

#include "engine/geometry/distance.h"

namespace diskref::simulator {

geom::PlacedShape placed(const model::DiskRegistry& registry, const PlacedDisk& disk) {
  const model::DiskSpec* spec = registry.find(disk.name);
  if (!spec) throw std::invalid_argument("no disk \"" + disk.name + "\" in the registry");
  return {spec->shape, geom::Pose::from_degrees(disk.x, disk.y, disk.heading)};
}

void place_apart(const model::DiskRegistry& registry, const PlacedDisk& a, PlacedDisk& b, double direction_deg,
                 double target, const GrowingMeasure& measure, double nearest_mm, double farthest_mm) {
  const double t = direction_deg * std::numbers::pi / 180;
  double near = nearest_mm, far = farthest_mm;
  for (int i = 0; i < 60; ++i) {  // 60 halvings: far below a micrometre from any start
    const double mid = 0.5 * (near + far);
    b.x = a.x + mid * std::cos(t);
    b.y = a.y + mid * std::sin(t);
    (measure(placed(registry, a), placed(registry, b)) < target ? near : far) = mid;
  }
}

void place_at_range_margin(const model::DiskRegistry& registry, const PlacedDisk& a, PlacedDisk& b,
                           double direction_deg, double margin_mm, const geom::Rect& range_template) {
  // The gap grows as they part, so the margin is measured with its sign turned.
  place_apart(
      registry, a, b, direction_deg, -margin_mm,
      [&](const geom::PlacedShape& from, const geom::PlacedShape& to) {
        return -geom::range_check(from, to, range_template).margin_mm;
      },
      30, 400);
}

void place_at_separation(const model::DiskRegistry& registry, const PlacedDisk& a, PlacedDisk& b, double direction_deg,
                         double separation_mm) {
  place_apart(
      registry, a, b, direction_deg, separation_mm,
      [](const geom::PlacedShape& from, const geom::PlacedShape& to) {
        return geom::signed_distance(from, to).distance;
      },
      0, 400);
}

}  // namespace diskref::simulator
