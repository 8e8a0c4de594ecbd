#pragma once
// The table file (spec §3): the play area and the four corner markers, in the table frame.

#include <array>
#include <filesystem>

#include <nlohmann/json_fwd.hpp>

#include "engine/geometry/vec2.h"
#include "engine/io/json_cursor.h"

namespace diskref::model {

// Corner markers are tags 0, 1, 2 and 3 (spec §2); every other id is a disk's. The one place that
// says so.
inline constexpr int kCornerMarkerCount = 4;
constexpr bool is_corner_marker(int tag_id) {
  return tag_id >= 0 && tag_id < kCornerMarkerCount;
}

struct CornerMarker {
  int id = 0;            // 0..3, going round the play area counter-clockwise seen from above
  geom::Vec2 center_mm;  // table frame
  double size_mm = 0;    // side of the detector's corner square (spec §2)
  // The marker's four detector corners in the table frame, in apriltag's order: the tag's own
  // (-1,1), (1,1), (1,-1), (-1,-1), i.e. bottom-left, bottom-right, top-right, top-left of the
  // upright bitmap. The marker's +x is the table's +x and the bitmap's "up" (-row) is table +y,
  // seen from above.
  std::array<geom::Vec2, 4> corners_mm() const;
};

struct TableSpec {
  geom::Vec2 play_area_mm{914.4, 914.4};
  std::array<CornerMarker, kCornerMarkerCount> corner_markers;  // indexed by id

  bool in_play_area(geom::Vec2 p) const {
    return p.x >= 0 && p.y >= 0 && p.x <= play_area_mm.x && p.y <= play_area_mm.y;
  }
};

// Throws InputError naming the file and the JSON path: the four ids 0..3 each exactly once,
// positive sizes, finite numbers, markers outside the play area.
TableSpec parse_table(const io::JsonCursor& root);
TableSpec load_table(const std::filesystem::path& file);
nlohmann::json table_to_json(const TableSpec& table);

// A play area with its four corner markers of `marker_size_mm` placed as the spec §3 example places
// its 40 mm ones: each centre 0.9 x size + 9 mm outside its corner along both axes (45 mm for 40
// mm), so that the printed tag (1.8 x size wide) stays 9 mm clear of the play area.
TableSpec table_with_markers(geom::Vec2 play_area_mm, double marker_size_mm);
// The spec §3 example: a 914.4 mm (3 ft) square with 40 mm markers 45 mm outside each corner.
TableSpec default_table();

}  // namespace diskref::model
