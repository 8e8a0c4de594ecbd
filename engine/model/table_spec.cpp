#include "engine/model/table_spec.h"

#include <string>

namespace diskref::model {

std::array<geom::Vec2, 4> CornerMarker::corners_mm() const {
  double h = size_mm / 2;
  // Seen from above, the upright bitmap's top (row 0) faces table +y and its right faces +x, so
  // bottom-left, bottom-right, top-right, top-left are (-,-), (+,-), (+,+), (-,+) about the centre.
  return {geom::Vec2{center_mm.x - h, center_mm.y - h}, geom::Vec2{center_mm.x + h, center_mm.y - h},
          geom::Vec2{center_mm.x + h, center_mm.y + h}, geom::Vec2{center_mm.x - h, center_mm.y + h}};
}

TableSpec parse_table(const io::JsonCursor& root) {
  root.allow_only({"play_area_mm", "corner_markers", "name", "notes"});
  TableSpec table;
  auto area = root.at("play_area_mm");
  auto wh = area.numbers(2);
  if (!(wh[0] > 0) || !(wh[1] > 0)) area.fail("both sides must be > 0");
  table.play_area_mm = {wh[0], wh[1]};

  auto markers = root.at("corner_markers");
  if (markers.size() != 4) markers.fail("must list exactly 4 corner markers (ids 0, 1, 2, 3)");
  std::array<bool, 4> seen{};
  for (std::size_t i = 0; i < 4; ++i) {
    auto m = markers.at(i);
    m.allow_only({"id", "center_mm", "size_mm"});
    auto id_cursor = m.at("id");
    int id = id_cursor.int_in(0, 3);
    if (seen[static_cast<std::size_t>(id)]) id_cursor.fail("corner marker id " + std::to_string(id) + " listed twice");
    seen[static_cast<std::size_t>(id)] = true;
    CornerMarker marker;
    marker.id = id;
    auto c = m.at("center_mm").numbers(2);
    marker.center_mm = {c[0], c[1]};
    marker.size_mm = m.at("size_mm").positive_number();
    // A marker inside the play area would sit under the disks; the spec puts them outside.
    double h = marker.size_mm / 2;
    bool overlaps_area = marker.center_mm.x + h > 0 && marker.center_mm.x - h < table.play_area_mm.x &&
                         marker.center_mm.y + h > 0 && marker.center_mm.y - h < table.play_area_mm.y;
    if (overlaps_area) m.at("center_mm").fail("corner marker must lie outside the play area");
    table.corner_markers[static_cast<std::size_t>(id)] = marker;
  }
  return table;
}

TableSpec load_table(const std::filesystem::path& file) {
  nlohmann::json doc = io::read_json_file(file);
  return parse_table(io::JsonCursor(doc, file.string()));
}

nlohmann::json table_to_json(const TableSpec& table) {
  nlohmann::json markers = nlohmann::json::array();
  for (const auto& m : table.corner_markers)
    markers.push_back({{"id", m.id}, {"center_mm", {m.center_mm.x, m.center_mm.y}}, {"size_mm", m.size_mm}});
  return {{"play_area_mm", {table.play_area_mm.x, table.play_area_mm.y}}, {"corner_markers", markers}};
}

TableSpec default_table() {
  TableSpec t;
  t.play_area_mm = {914.4, 914.4};
  t.corner_markers = {CornerMarker{0, {-45, -45}, 40}, CornerMarker{1, {959.4, -45}, 40},
                      CornerMarker{2, {959.4, 959.4}, 40}, CornerMarker{3, {-45, 959.4}, 40}};
  return t;
}

}  // namespace diskref::model
