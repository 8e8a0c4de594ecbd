#pragma once
// What a disk on the table is (spec §4 `kind`) and which face is up.

#include <optional>
#include <string>
#include <string_view>

#include "engine/io/json_cursor.h"

namespace diskref::model {

// `counter`: a damage counter, dropped to decide hits and criticals (diskref's addition to spec §4:
// each face's tag says what that face shows; counter_face.h).
enum class DiskKind { ship, torpedo, planet, terrain, obstruction, template_, counter };

std::string_view to_string(DiskKind kind);
std::optional<DiskKind> disk_kind_from_string(std::string_view text);

enum class Face { up, down };

std::string_view to_string(Face face);
std::optional<Face> face_from_string(std::string_view text);
inline Face other_face(Face f) {
  return f == Face::up ? Face::down : Face::up;
}

// Read from JSON; an unknown name fails at the cursor, listing the names allowed.
DiskKind parse_disk_kind(const io::JsonCursor& cursor);
Face parse_face(const io::JsonCursor& cursor);

}  // namespace diskref::model
