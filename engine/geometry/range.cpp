#include "engine/geometry/range.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <stdexcept>

#include "engine/geometry/outline.h"

// Why "in range" is exactly "gap <= the template's diagonal".
//
// Claim. Let A and B be closed convex disks and T a closed rectangle l x w (any placement). Some
// placement of T overlaps both A and B (shares a point with each) if and only if
// gap(A, B) <= sqrt(l^2 + w^2), where gap is the shortest distance between A and B (0 when they
// touch or overlap).
//
// (=>) Let a placement of T overlap both: pick a in T and A, b in T and B. Any two points of T are
//      at most its diagonal apart (in T's frame |p - q|^2 = dx^2 + dy^2 <= l^2 + w^2), so
//      gap(A, B) <= |a - b| <= sqrt(l^2 + w^2).
// (<=) If A and B share a point p, any placement containing p overlaps both. Otherwise take the
//      closest points a in A, b in B, |b - a| = gap <= diagonal, and place T with one corner at a
//      and its diagonal along b - a. The closed rectangle contains its diagonal, a segment of
//      length sqrt(l^2 + w^2) from a through b, so T contains a (in A) and b (in B).
//
// "+1 range" (docs/rules.md, open parameter 5) adds one template length: the same claim for an
// (m l) x w rectangle. The placement returned for drawing is the one built in (<=).

namespace diskref::geom {
namespace {

// A point shared by two overlapping shapes, for centring a template on it. Candidates first
// (the deepest points, their middle, the centres), then the outlines of each against the other:
// two overlapping convex shapes either contain one another's centre or their outlines cross.
Vec2 common_point(const PlacedShape& a, const PlacedShape& b, const DistanceOutput& d) {
  const std::array<Vec2, 5> candidates = {(d.point_a + d.point_b) / 2, d.point_a, d.point_b, a.pose.position,
                                          b.pose.position};
  for (Vec2 p : candidates)
    if (contains(a, p) && contains(b, p)) return p;
  for (Vec2 p : outline_polygon(a, 0.5))
    if (contains(b, p)) return p;
  for (Vec2 p : outline_polygon(b, 0.5))
    if (contains(a, p)) return p;
  return candidates[0];  // not reached for overlapping shapes; still a sensible place to draw
}

}  // namespace

RangeOutput range_check(const PlacedShape& from, const PlacedShape& to, const Rect& range_template,
                        int reach_multiplier) {
  if (reach_multiplier < 1) throw std::invalid_argument("range_check: reach_multiplier must be >= 1");
  const double length = reach_multiplier * range_template.length_mm;
  const double width = range_template.width_mm;

  DistanceOutput d = signed_distance(from, to);
  RangeOutput out;
  out.reach_mm = std::hypot(length, width);
  out.gap_mm = std::max(0.0, d.distance);
  out.margin_mm = out.reach_mm - out.gap_mm;
  out.in_range = out.margin_mm >= 0;
  out.point_a = d.point_a;
  out.point_b = d.point_b;
  out.template_length_mm = length;

  // The template's heading that lays its diagonal (local direction (length, width)) along the
  // normal from `from` to `to`: rotate the normal back by the diagonal's angle.
  const Rot diagonal_back{length / out.reach_mm, -width / out.reach_mm};
  const Rot heading = compose(Rot{d.normal.x, d.normal.y}, diagonal_back);
  Vec2 centre;
  if (d.distance >= 0) {
    centre = d.point_a + (out.reach_mm / 2) * d.normal;  // corner at point_a, as in the proof
  } else if (-d.distance <= out.reach_mm) {
    centre = (d.point_a + d.point_b) / 2;  // contains both deepest points
  } else {
    centre = common_point(from, to, d);
  }
  out.template_pose = {centre, heading};
  return out;
}

PlacedTemplateCheck check_placed_template(const PlacedShape& placed_template, const PlacedShape& from,
                                          const PlacedShape& to) {
  PlacedTemplateCheck out;
  out.separation_from_mm = signed_distance(placed_template, from).distance;
  out.separation_to_mm = signed_distance(placed_template, to).distance;
  out.margin_mm = -std::max(out.separation_from_mm, out.separation_to_mm);
  out.overlaps_both = out.margin_mm >= 0;
  return out;
}

}  // namespace diskref::geom
