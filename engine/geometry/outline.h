#pragma once
// Queries on the Outline model (shape.h): exact support pieces and features for the distance core,
// and sampled outlines for drawing.
//
// The support function h(n) = max over the shape of n . x is piecewise simple in the direction n:
// near a corner it is n . corner (linear in n), along an arc it is the constant arc_radius, and a
// straight edge is a single direction where two corner pieces meet. The directions where the piece
// changes (the "breaks") are the corners' normal-cone limits. Everything here is in the shape's
// local frame unless it takes a PlacedShape.

#include <array>
#include <vector>

#include "engine/geometry/shape.h"

namespace diskref::geom {

// h(n) = dot(n, point) + radius for directions n inside the piece: a corner (point, radius 0) or
// an arc (point 0, radius arc_radius).
struct SupportPiece {
  Vec2 point;
  double radius = 0;
};

// The piece that realises h in unit direction `dir` (the farthest one; at a break either side).
SupportPiece support_piece(const Outline& outline, Vec2 dir);

// h(dir) for a unit direction.
inline double support_value(const Outline& outline, Vec2 dir) {
  SupportPiece p = support_piece(outline, dir);
  return dot(dir, p.point) + p.radius;
}

// The unit normals where the support piece changes: each corner's two normal-cone limits (the
// normal of the edge before it and of the edge after it). Returns how many were written (<= 8).
int support_breaks(const Outline& outline, std::array<Vec2, 8>& breaks);

// A segment of the outline (a point when p0 == p1).
struct Segment {
  Vec2 p0;
  Vec2 p1;
};

// The outline's points farthest along unit `dir`, within `tolerance_mm` of the farthest: a flat
// or an edge when `dir` is its normal, otherwise a single point.
Segment support_feature(const Outline& outline, Vec2 dir, double tolerance_mm);

// The placed outline as a counter-clockwise polygon in the table frame, arcs split into chords of
// at most `max_chord_deg` degrees, every corner included. For drawing and sampling, never for
// exact answers.
std::vector<Vec2> outline_polygon(const PlacedShape& placed, double max_chord_deg = 5.0);

// Convex hull of points, counter-clockwise, without collinear points (Andrew's monotone chain).
std::vector<Vec2> convex_hull(std::vector<Vec2> points);

}  // namespace diskref::geom
