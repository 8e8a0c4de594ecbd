#pragma once
// Hands and arms over the table: a few shaded solids (an ellipsoid palm, capsule fingers and
// thumb, a capsule forearm in a sleeve) that cover disks, cast soft shadows and look roughly 3-D.
// Table frame (mm, z up).

#include <cstdint>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/geometry/vec2.h"

namespace diskref::simulator {

struct Capsule {
  cv::Vec3d a, b;  // segment ends
  double radius = 0;
  cv::Vec3f color;
};

struct Ellipsoid {
  cv::Vec3d center;
  cv::Matx33d axes_from_table;  // rows: the unit axes
  cv::Vec3d radii;
  cv::Vec3f color;
};

struct HandShape {
  std::vector<Capsule> capsules;
  std::vector<Ellipsoid> ellipsoids;
  // Axis-aligned bounds of every solid (table frame).
  cv::Vec3d min_corner, max_corner;
  // Table-frame x-y bounds of the shadow on the table (the solids' footprint and penumbra).
  cv::Rect2d shadow_bounds;
};

// Where a hand is: its palm's centre over the table, the height of the palm's underside, the
// direction its fingers point (degrees, table frame) and where the arm comes from (the forearm
// runs back towards the opposite of the finger direction, rising).
struct HandPose {
  geom::Vec2 palm_mm;
  double palm_height_mm = 40;
  double finger_heading_deg = 90;
  cv::Vec3f skin{0.42f, 0.55f, 0.75f};  // linear BGR
  cv::Vec3f sleeve{0.35f, 0.22f, 0.12f};
};

HandShape make_hand(const HandPose& pose);

struct SolidHit {
  double distance = 0;  // along the (unit) ray
  cv::Vec3d normal;     // unit, table frame
  cv::Vec3f color;
};

// The solids of a hand as parts: capsules first, then ellipsoids. A bit mask selects parts.
inline constexpr uint32_t kAllHandParts = 0xFFFFFFFFu;
int part_count(const HandShape& hand);
// Axis-aligned bounds (table frame) of one part.
void part_bounds(const HandShape& hand, int part, cv::Vec3d& lo, cv::Vec3d& hi);

// Nearest intersection of a ray (unit direction) with the hand's solids (those in `parts`),
// beyond 0 and before max_distance.
std::optional<SolidHit> intersect(const HandShape& hand, const cv::Vec3d& origin, const cv::Vec3d& direction,
                                  double max_distance, uint32_t parts = kAllHandParts);

// How much light from above reaches a point (table frame) under the hand: 1 in full light,
// down to about 0.45 in the core of the shadow, with soft edges that widen with height.
float shadow_factor(const HandShape& hand, const cv::Vec3d& point);

// Shading of a solid's surface: a soft light from above and a little from the camera side.
cv::Vec3f shade_solid(const SolidHit& hit);

}  // namespace diskref::simulator
