#pragma once
// Shapes in JSON (spec §4 `shape`): {"type": "circle", "diameter_mm": ...},
// {"type": "flatted_circle", "diameter_mm": ..., "flat_to_flat_mm": ...},
// {"type": "rect", "length_mm": ..., "width_mm": ...}.

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry/shape.h"
#include "engine/io/json_cursor.h"

namespace diskref::model {

// Throws InputError at the offending member (NaN, negative sizes, flat-to-flat > diameter, ...).
geom::Shape parse_shape(const io::JsonCursor& cursor);
nlohmann::json shape_to_json(const geom::Shape& shape);

}  // namespace diskref::model
