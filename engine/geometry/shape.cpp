#include "engine/geometry/shape.h"

#include <algorithm>
#include <cmath>

namespace diskref::geom {
namespace {

template <class... Ts>
struct Overloaded : Ts... {
  using Ts::operator()...;
};
// C++20 deduces this itself; clang 14 (the fuzzing build's) still needs the guide.
template <class... Ts>
Overloaded(Ts...) -> Overloaded<Ts...>;

bool positive_finite(double v) {
  return std::isfinite(v) && v > 0;
}

double sign_or_zero(double v) {
  return v > 0 ? 1.0 : (v < 0 ? -1.0 : 0.0);
}

}  // namespace

std::string shape_problem(const Shape& shape) {
  return std::visit(Overloaded{[](const Circle& c) -> std::string {
                                 return positive_finite(c.diameter_mm) ? "" : "diameter_mm must be a finite number > 0";
                               },
                               [](const FlattedCircle& f) -> std::string {
                                 if (!positive_finite(f.diameter_mm)) return "diameter_mm must be a finite number > 0";
                                 if (!positive_finite(f.flat_to_flat_mm))
                                   return "flat_to_flat_mm must be a finite number > 0";
                                 if (f.flat_to_flat_mm > f.diameter_mm)
                                   return "flat_to_flat_mm must not be larger than diameter_mm";
                                 return "";
                               },
                               [](const Rect& r) -> std::string {
                                 if (!positive_finite(r.length_mm)) return "length_mm must be a finite number > 0";
                                 if (!positive_finite(r.width_mm)) return "width_mm must be a finite number > 0";
                                 return "";
                               }},
                    shape);
}

const char* shape_type_name(const Shape& shape) {
  return std::visit(
      Overloaded{[](const Circle&) { return "circle"; }, [](const FlattedCircle&) { return "flatted_circle"; },
                 [](const Rect&) { return "rect"; }},
      shape);
}

double flip_length(const Shape& shape) {
  return std::visit(
      Overloaded{[](const Circle& c) { return c.diameter_mm; },
                 [](const FlattedCircle& f) { return f.flat_to_flat_mm; }, [](const Rect& r) { return r.length_mm; }},
      shape);
}

double bounding_radius(const Shape& shape) {
  return std::visit(Overloaded{[](const Circle& c) { return c.diameter_mm / 2; },
                               [](const FlattedCircle& f) { return f.diameter_mm / 2; },
                               [](const Rect& r) { return std::hypot(r.length_mm, r.width_mm) / 2; }},
                    shape);
}

Vec2 support_local(const Shape& shape, Vec2 dir) {
  return std::visit(
      Overloaded{[&](const Circle& c) { return (c.diameter_mm / 2) * normalized(dir); },
                 [&](const FlattedCircle& f) {
                   double r = f.diameter_mm / 2;
                   double h = f.flat_to_flat_mm / 2;
                   Vec2 on_circle = r * normalized(dir);
                   if (std::fabs(on_circle.x) <= h) return on_circle;
                   // The farthest point lies on a flat: its end in the direction's y sense, or its
                   // middle when the direction is exactly along the heading.
                   double half_chord = std::sqrt(std::max(0.0, r * r - h * h));
                   return Vec2{sign_or_zero(dir.x) * h, sign_or_zero(dir.y) * half_chord};
                 },
                 [&](const Rect& r) {
                   return Vec2{sign_or_zero(dir.x) * r.length_mm / 2, sign_or_zero(dir.y) * r.width_mm / 2};
                 }},
      shape);
}

Vec2 support(const PlacedShape& placed, Vec2 dir_table) {
  return to_table(placed.pose, support_local(placed.shape, dir_to_local(placed.pose, dir_table)));
}

bool contains(const PlacedShape& placed, Vec2 point_table) {
  Vec2 p = to_local(placed.pose, point_table);
  return std::visit(
      Overloaded{[&](const Circle& c) { return length(p) <= c.diameter_mm / 2; },
                 [&](const FlattedCircle& f) {
                   return length(p) <= f.diameter_mm / 2 && std::fabs(p.x) <= f.flat_to_flat_mm / 2;
                 },
                 [&](const Rect& r) { return std::fabs(p.x) <= r.length_mm / 2 && std::fabs(p.y) <= r.width_mm / 2; }},
      placed.shape);
}

Outline make_outline(const Shape& shape) {
  return std::visit(
      Overloaded{[](const Circle& c) {
                   Outline o;
                   o.arc_radius = c.diameter_mm / 2;
                   return o;
                 },
                 [](const FlattedCircle& f) {
                   double r = f.diameter_mm / 2;
                   double h = std::min(f.flat_to_flat_mm / 2, r);
                   double k = std::sqrt(std::max(0.0, r * r - h * h));
                   Outline o;
                   o.corner_count = 4;
                   o.corners = {Vec2{h, -k}, Vec2{h, k}, Vec2{-h, k}, Vec2{-h, -k}};
                   o.edge_is_arc = {false, true, false, true};  // front flat, top arc, back flat, bottom arc
                   o.edge_normals = {Vec2{1, 0}, Vec2{0, 1}, Vec2{-1, 0}, Vec2{0, -1}};
                   o.arc_radius = r;
                   return o;
                 },
                 [](const Rect& r) {
                   double h = r.length_mm / 2;
                   double k = r.width_mm / 2;
                   Outline o;
                   o.corner_count = 4;
                   o.corners = {Vec2{h, -k}, Vec2{h, k}, Vec2{-h, k}, Vec2{-h, -k}};
                   o.edge_normals = {Vec2{1, 0}, Vec2{0, 1}, Vec2{-1, 0}, Vec2{0, -1}};
                   return o;
                 }},
      shape);
}

}  // namespace diskref::geom
