#include "engine/model/table_spec.h"

#include <cmath>
#include <string>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/model/bounds.h"

namespace diskref::model {

std::array<geom::Vec2, 4> CornerMarker::corners_mm() const {
  double h = size_mm / 2;
  // Seen from above, the upright bitmap's top (row 0) faces table +y and its right faces +x, so
  // bottom-left, bottom-right, top-right, top-left are (-,-), (+,-), (+,+), (-,+) about the centre.
  return {geom::Vec2{center_mm.x - h, center_mm.y - h}, geom::Vec2{center_mm.x + h, center_mm.y - h},
          geom::Vec2{center_mm.x + h, center_mm.y + h}, geom::Vec2{center_mm.x - h, center_mm.y + h}};
}

namespace {

// The markers as a whole (spec §1-§3): apart from one another, and going round the play area
// counter-clockwise in id order, marker i beside the play area's corner i. A table file with two
// markers in one place, three in a line or two swapped cannot give a table pose; it is named here
// rather than blamed on the camera later ("corner markers were never seen").
void check_marker_layout(const TableSpec& table, const io::JsonCursor& markers,
                         const std::array<std::size_t, 4>& index_of_id) {
  const auto& m = table.corner_markers;
  auto place = [&](int id) { return markers.at(index_of_id[static_cast<std::size_t>(id)]).at("center_mm"); };
  for (int a = 0; a < 4; ++a)
    for (int b = a + 1; b < 4; ++b) {
      const geom::Vec2 d = m[static_cast<std::size_t>(b)].center_mm - m[static_cast<std::size_t>(a)].center_mm;
      const double reach = (m[static_cast<std::size_t>(a)].size_mm + m[static_cast<std::size_t>(b)].size_mm) / 2;
      if (std::fabs(d.x) < reach && std::fabs(d.y) < reach)
        place(b).fail(fmt::format("corner marker {} overlaps corner marker {} (their centres are {:.1f} mm apart)", b,
                                  a, std::hypot(d.x, d.y)));
    }
  // Counter-clockwise and convex: every turn from one marker to the next goes left, and clearly
  // (the sine of the turn at least 0.1: not three markers in a line).
  for (int i = 0; i < 4; ++i) {
    const geom::Vec2 p = m[static_cast<std::size_t>((i + 3) % 4)].center_mm,
                     q = m[static_cast<std::size_t>(i)].center_mm,
                     r = m[static_cast<std::size_t>((i + 1) % 4)].center_mm;
    const geom::Vec2 u = q - p, v = r - q;
    const double cross = u.x * v.y - u.y * v.x;
    const double sine = cross / (std::hypot(u.x, u.y) * std::hypot(v.x, v.y));
    if (!(sine >= 0.1))
      place(i).fail(fmt::format(
          "corner markers {}, {} and {} {}: seen from above the markers go round the play area counter-clockwise, "
          "0 to 3 (spec §2)",
          (i + 3) % 4, i, (i + 1) % 4,
          sine < -0.1 ? "turn clockwise (two markers swapped?)" : "lie (nearly) in a line"));
  }
  // Marker i beside corner i: 0 at the origin, 1 along +x, 2 opposite, 3 along +y (spec §1).
  const geom::Vec2 w = table.play_area_mm;
  const std::array<geom::Vec2, 4> corners{geom::Vec2{0, 0}, geom::Vec2{w.x, 0}, geom::Vec2{w.x, w.y},
                                          geom::Vec2{0, w.y}};
  for (int i = 0; i < 4; ++i) {
    int nearest = 0;
    double best = 0;
    for (int k = 0; k < 4; ++k) {
      const geom::Vec2 d = m[static_cast<std::size_t>(i)].center_mm - corners[static_cast<std::size_t>(k)];
      const double dist = std::hypot(d.x, d.y);
      if (k == 0 || dist < best) {
        best = dist;
        nearest = k;
      }
    }
    if (nearest != i)
      place(i).fail(
          fmt::format("corner marker {} lies beside the play area's corner ({:g}, {:g}), but marker {} marks "
                      "the corner ({:g}, {:g}) (spec §1: the origin by marker 0, +x towards 1, +y towards 3)",
                      i, corners[static_cast<std::size_t>(nearest)].x, corners[static_cast<std::size_t>(nearest)].y, i,
                      corners[static_cast<std::size_t>(i)].x, corners[static_cast<std::size_t>(i)].y));
  }
}

}  // namespace

TableSpec parse_table(const io::JsonCursor& root) {
  root.allow_only({"play_area_mm", "corner_markers", "name", "notes"});
  TableSpec table;
  auto area = root.at("play_area_mm");
  area.numbers(2);
  table.play_area_mm = {bounds::play_area_side_mm(area.at(std::size_t{0})),
                        bounds::play_area_side_mm(area.at(std::size_t{1}))};

  auto markers = root.at("corner_markers");
  if (markers.size() != 4) markers.fail("must list exactly 4 corner markers (ids 0, 1, 2, 3)");
  std::array<bool, 4> seen{};
  std::array<std::size_t, 4> index_of_id{};
  for (std::size_t i = 0; i < 4; ++i) {
    auto m = markers.at(i);
    m.allow_only({"id", "center_mm", "size_mm"});
    auto id_cursor = m.at("id");
    int id = id_cursor.int_in(0, 3);
    if (seen[static_cast<std::size_t>(id)]) id_cursor.fail("corner marker id " + std::to_string(id) + " listed twice");
    seen[static_cast<std::size_t>(id)] = true;
    index_of_id[static_cast<std::size_t>(id)] = i;
    CornerMarker marker;
    marker.id = id;
    auto center = m.at("center_mm");
    center.numbers(2);
    marker.center_mm = {bounds::coordinate_mm(center.at(std::size_t{0})),
                        bounds::coordinate_mm(center.at(std::size_t{1}))};
    marker.size_mm = bounds::tag_size_mm(m.at("size_mm"));
    // A marker inside the play area would sit under the disks; the spec puts them outside.
    double h = marker.size_mm / 2;
    bool overlaps_area = marker.center_mm.x + h > 0 && marker.center_mm.x - h < table.play_area_mm.x &&
                         marker.center_mm.y + h > 0 && marker.center_mm.y - h < table.play_area_mm.y;
    if (overlaps_area) m.at("center_mm").fail("corner marker must lie outside the play area");
    table.corner_markers[static_cast<std::size_t>(id)] = marker;
  }
  check_marker_layout(table, markers, index_of_id);
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

TableSpec table_with_markers(geom::Vec2 play_area_mm, double marker_size_mm) {
  TableSpec t;
  t.play_area_mm = play_area_mm;
  const double out = 0.9 * marker_size_mm + 9;
  const geom::Vec2 w = play_area_mm;
  t.corner_markers = {CornerMarker{0, {-out, -out}, marker_size_mm}, CornerMarker{1, {w.x + out, -out}, marker_size_mm},
                      CornerMarker{2, {w.x + out, w.y + out}, marker_size_mm},
                      CornerMarker{3, {-out, w.y + out}, marker_size_mm}};
  return t;
}

TableSpec default_table() {
  return table_with_markers({914.4, 914.4}, 40);
}

}  // namespace diskref::model
