#include "engine/geometry/flip_path.h"

#include <algorithm>
#include <cmath>

#include "engine/geometry/outline.h"

namespace diskref::geom {
namespace {

Rot travel_rotation(const FlipInput& input) {
  return input.heading_deg ? Rot::from_degrees(*input.heading_deg) : input.mover.pose.rotation;
}

}  // namespace

double play_area_margin(Vec2 p, Vec2 area) {
  double inside = std::min({p.x, area.x - p.x, p.y, area.y - p.y});
  if (inside >= 0) return inside;
  double dx = std::max({0.0, -p.x, p.x - area.x});
  double dy = std::max({0.0, -p.y, p.y - area.y});
  return -std::hypot(dx, dy);
}

FlipOutput flip_path(const FlipInput& input) {
  FlipOutput out;
  const Rot heading = travel_rotation(input);
  const Vec2 step = flip_length(input.mover.shape) * heading.axis_x();
  const Vec2 start = input.mover.pose.position;

  out.end_pose = input.mover.pose;
  out.play_area_margin_mm = play_area_margin(start, input.play_area_mm);
  for (int flip = 1; flip <= input.flips; ++flip) {
    // Multiply rather than accumulate, so that landing k is exactly k flip lengths away.
    const Pose landing{start + static_cast<double>(flip) * step, heading};
    out.landings.push_back(landing);
    out.end_pose = landing;

    const double margin = play_area_margin(landing.position, input.play_area_mm);
    out.play_area_margin_mm = flip == 1 ? margin : std::min(out.play_area_margin_mm, margin);
    if (margin < 0 && !out.first_flip_outside) out.first_flip_outside = flip;

    const PlacedShape mover{input.mover.shape, landing};
    for (const Obstacle& other : input.others) {
      if (!other.is_torpedo) continue;
      TorpedoContact c{flip, other.name, signed_distance(mover, other.placed).distance};
      if (c.separation_mm <= 0) out.torpedo_contacts.push_back(c);
      if (!out.nearest_torpedo || c.separation_mm < out.nearest_torpedo->separation_mm) out.nearest_torpedo = c;
    }
  }
  out.leaves_play_area = out.first_flip_outside.has_value();

  const PlacedShape end{input.mover.shape, out.end_pose};
  for (const Obstacle& other : input.others) {
    EndOverlap e{other.name, signed_distance(end, other.placed).distance};
    out.end_separations.push_back(e);
    if (e.separation_mm <= 0) out.end_overlaps.push_back(e);
  }
  std::stable_sort(out.end_separations.begin(), out.end_separations.end(),
                   [](const EndOverlap& x, const EndOverlap& y) { return x.separation_mm < y.separation_mm; });
  return out;
}

std::vector<Vec2> swept_outline(const Shape& mover, const Pose& from, const Pose& to) {
  std::vector<Vec2> points = outline_polygon({mover, from});
  std::vector<Vec2> more = outline_polygon({mover, to});
  points.insert(points.end(), more.begin(), more.end());
  return convex_hull(std::move(points));
}

std::vector<std::vector<Vec2>> swept_outlines(const FlipInput& input, const FlipOutput& output) {
  std::vector<std::vector<Vec2>> regions;
  Pose previous{input.mover.pose.position, travel_rotation(input)};
  for (const Pose& landing : output.landings) {
    regions.push_back(swept_outline(input.mover.shape, previous, landing));
    previous = landing;
  }
  return regions;
}

}  // namespace diskref::geom
