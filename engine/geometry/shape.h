#pragma once
// The outlines of everything on the table, as plain values in millimetres.
//
// Shapes are centred on their local origin with their heading along local +x. A Shape is a
// variant over the three kinds; the one dispatch point from a Shape to the query machinery is in
// shape.cpp (support function, flip length, bounds), in the manner of Box2D v3.

#include <array>
#include <string>
#include <variant>

#include "engine/geometry/pose.h"

namespace diskref::geom {

struct Circle {
  double diameter_mm = 0;
};

// A circle cut by two parallel flats at its front and back, perpendicular to the heading: the
// flats are the chords at local x = +flat_to_flat/2 and x = -flat_to_flat/2.
struct FlattedCircle {
  double diameter_mm = 0;
  double flat_to_flat_mm = 0;
};

// A rectangle: length along the heading (local x), width across it (local y). Range templates.
struct Rect {
  double length_mm = 0;
  double width_mm = 0;
};

using Shape = std::variant<Circle, FlattedCircle, Rect>;

struct PlacedShape {
  Shape shape;
  Pose pose;
};

// Why a shape is invalid, or empty when it is valid: finite, positive sizes, and a flat-to-flat
// that is positive and not larger than the diameter.
std::string shape_problem(const Shape& shape);
inline bool is_valid(const Shape& shape) {
  return shape_problem(shape).empty();
}

// "circle", "flatted_circle", "rect" (the registry's shape.type).
const char* shape_type_name(const Shape& shape);

// How far one flip moves the centre: flat_to_flat for a flatted circle, diameter for a circle,
// length for a rect (docs/rules.md, open parameter 2).
double flip_length(const Shape& shape);

// Radius of the smallest circle about the centre containing the shape.
double bounding_radius(const Shape& shape);

// The farthest point of the shape in local direction `dir` (need not be unit length). For a
// flatted circle a direction along the heading returns the middle of the flat.
Vec2 support_local(const Shape& shape, Vec2 dir);
// The same for a placed shape, in the table frame.
Vec2 support(const PlacedShape& placed, Vec2 dir_table);

// Whether a table-frame point lies inside or on the placed shape's outline.
bool contains(const PlacedShape& placed, Vec2 point_table);

// The outline as the exact query core sees it (engine/geometry/outline.h): up to four corners in
// counter-clockwise order, each followed by an edge that is either straight (with its outward
// unit normal) or an arc of `arc_radius` about the centre. All three kinds fit:
//   circle          no corners, one arc all round;
//   flatted_circle  corners (+-f/2, +-k) with k = sqrt(r^2 - (f/2)^2); flats at local x = +-f/2
//                   (normals +-x) alternate with arcs (top and bottom);
//   rect            corners (+-l/2, +-w/2); four straight edges.
// Normals of straight edges are given, not derived from corners, so that a degenerate flat
// (flat_to_flat == diameter, a zero-length flat) still has its normal. Local frame, millimetres.
struct Outline {
  int corner_count = 0;
  std::array<Vec2, 4> corners{};
  std::array<bool, 4> edge_is_arc{};   // edge from corners[i] to corners[(i + 1) % n]
  std::array<Vec2, 4> edge_normals{};  // outward unit normal of a straight edge
  double arc_radius = 0;
};

// The one place (besides the small per-kind facts above) that turns a Shape kind into the
// representation every exact query works on.
Outline make_outline(const Shape& shape);

}  // namespace diskref::geom
