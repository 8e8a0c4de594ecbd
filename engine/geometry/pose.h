#pragma once
// A placement on the table: position of the shape's centre and its heading.
//
// table_from_local: x_table = rotation * x_local + position. The shape's local +x axis is its
// heading (the direction a disk faces; a template's length).

#include "engine/geometry/vec2.h"

namespace diskref::geom {

struct Pose {
  Vec2 position;
  Rot rotation;

  static Pose from_degrees(double x, double y, double heading_deg) { return {{x, y}, Rot::from_degrees(heading_deg)}; }
  double heading_deg() const { return rotation.degrees(); }
  Vec2 heading_dir() const { return rotation.axis_x(); }
};

constexpr Vec2 to_table(const Pose& table_from_local, Vec2 local) {
  return rotate(table_from_local.rotation, local) + table_from_local.position;
}
constexpr Vec2 to_local(const Pose& table_from_local, Vec2 table) {
  return inv_rotate(table_from_local.rotation, table - table_from_local.position);
}
// Table-frame direction -> local direction, and back.
constexpr Vec2 dir_to_local(const Pose& p, Vec2 d) {
  return inv_rotate(p.rotation, d);
}
constexpr Vec2 dir_to_table(const Pose& p, Vec2 d) {
  return rotate(p.rotation, d);
}

inline bool is_valid(const Pose& p) {
  return is_valid(p.position) && std::isfinite(p.rotation.c) && std::isfinite(p.rotation.s) &&
         std::fabs(p.rotation.c * p.rotation.c + p.rotation.s * p.rotation.s - 1.0) < 1e-9;
}

}  // namespace diskref::geom
