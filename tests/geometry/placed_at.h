#pragma once
// A shape placed on the table at (x, y) mm, heading in degrees: how the geometry tests write a
// configuration down.

#include "engine/geometry/shape.h"

namespace diskref::geom::test_shapes {

inline PlacedShape at(Shape s, double x, double y, double heading_deg) {
  return {s, Pose::from_degrees(x, y, heading_deg)};
}

}  // namespace diskref::geom::test_shapes
