#pragma once
// Signed distance between two placed shapes, exactly (no polygon approximation).
//
// The rules engine, vision and the UI call these declarations: extend them, do not change their
// meaning.

#include "engine/geometry/shape.h"

namespace diskref::geom {

struct DistanceOutput {
  // Outline distance: the gap when apart (> 0), 0 when touching, minus the penetration depth
  // when overlapping (< 0; the penetration depth is the length of the shortest translation that
  // separates them).
  double distance = 0;
  // Witness points in the table frame: the closest points when apart; when overlapping, the
  // deepest points along `normal`. point_b = point_a + distance * normal (to rounding); where two
  // flats face each other, the middle of the stretch they share.
  Vec2 point_a;
  Vec2 point_b;
  // Unit vector from a towards b (the direction to move b to increase the distance).
  Vec2 normal{1, 0};
  int iterations = 0;  // direction intervals evaluated (at most 16)
};

DistanceOutput signed_distance(const PlacedShape& a, const PlacedShape& b);

// True when the closed shapes share at least one point (distance <= 0).
inline bool overlaps(const PlacedShape& a, const PlacedShape& b) {
  return signed_distance(a, b).distance <= 0;
}

}  // namespace diskref::geom
