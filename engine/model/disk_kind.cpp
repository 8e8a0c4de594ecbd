#include "engine/model/disk_kind.h"

#include <array>
#include <utility>

namespace diskref::model {
namespace {

constexpr std::array<std::pair<DiskKind, std::string_view>, 7> kKindNames{{
    {DiskKind::ship, "ship"},
    {DiskKind::torpedo, "torpedo"},
    {DiskKind::planet, "planet"},
    {DiskKind::terrain, "terrain"},
    {DiskKind::obstruction, "obstruction"},
    {DiskKind::template_, "template"},
    {DiskKind::counter, "counter"},
}};

}  // namespace

std::string_view to_string(DiskKind kind) {
  for (const auto& [k, name] : kKindNames)
    if (k == kind) return name;
  return "unknown";
}

std::optional<DiskKind> disk_kind_from_string(std::string_view text) {
  for (const auto& [k, name] : kKindNames)
    if (name == text) return k;
  return std::nullopt;
}

DiskKind parse_disk_kind(const io::JsonCursor& cursor) {
  return *disk_kind_from_string(
      cursor.one_of({"ship", "torpedo", "planet", "terrain", "obstruction", "template", "counter"}));
}

Face parse_face(const io::JsonCursor& cursor) {
  return *face_from_string(cursor.one_of({"up", "down"}));
}

std::string_view to_string(Face face) {
  return face == Face::up ? "up" : "down";
}

std::optional<Face> face_from_string(std::string_view text) {
  if (text == "up") return Face::up;
  if (text == "down") return Face::down;
  return std::nullopt;
}

}  // namespace diskref::model
