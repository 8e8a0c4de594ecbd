#include "engine/model/shape_json.h"

#include <nlohmann/json.hpp>

#include "engine/model/bounds.h"

namespace diskref::model {

geom::Shape parse_shape(const io::JsonCursor& cursor) {
  std::string type = cursor.at("type").one_of({"circle", "flatted_circle", "rect"});
  if (type == "circle") {
    cursor.allow_only({"type", "diameter_mm"});
    return geom::Circle{bounds::size_mm(cursor.at("diameter_mm"))};
  }
  if (type == "flatted_circle") {
    cursor.allow_only({"type", "diameter_mm", "flat_to_flat_mm"});
    double diameter = bounds::size_mm(cursor.at("diameter_mm"));
    auto flat = cursor.at("flat_to_flat_mm");
    double flat_to_flat = bounds::size_mm(flat);
    if (flat_to_flat > diameter)
      flat.fail("flat_to_flat_mm (" + std::to_string(flat_to_flat) + ") must not be larger than diameter_mm (" +
                std::to_string(diameter) + ")");
    return geom::FlattedCircle{diameter, flat_to_flat};
  }
  cursor.allow_only({"type", "length_mm", "width_mm"});
  return geom::Rect{bounds::size_mm(cursor.at("length_mm")), bounds::size_mm(cursor.at("width_mm"))};
}

nlohmann::json shape_to_json(const geom::Shape& shape) {
  if (auto c = std::get_if<geom::Circle>(&shape)) return {{"type", "circle"}, {"diameter_mm", c->diameter_mm}};
  if (auto f = std::get_if<geom::FlattedCircle>(&shape))
    return {{"type", "flatted_circle"}, {"diameter_mm", f->diameter_mm}, {"flat_to_flat_mm", f->flat_to_flat_mm}};
  const auto& r = std::get<geom::Rect>(shape);
  return {{"type", "rect"}, {"length_mm", r.length_mm}, {"width_mm", r.width_mm}};
}

}  // namespace diskref::model
