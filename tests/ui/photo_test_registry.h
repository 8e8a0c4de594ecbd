#pragma once
// A small disk registry for the Photo tab's tests: two ships and a torpedo.

#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"

namespace diskref::ui::testing {

inline model::DiskRegistry photo_test_registry() {
  const nlohmann::json j = nlohmann::json::parse(R"({"disks": [
    {"name": "enterprise", "kind": "ship", "shape": {"type": "flatted_circle", "diameter_mm": 63.5, "flat_to_flat_mm": 57.2},
     "tags": [{"id": 10, "face": "up", "size_mm": 24.0}]},
    {"name": "ktinga", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 63.5},
     "tags": [{"id": 12, "face": "up", "size_mm": 24.0}]},
    {"name": "torpedo-1", "kind": "torpedo", "shape": {"type": "circle", "diameter_mm": 25.4},
     "tags": [{"id": 20, "face": "up", "size_mm": 9.0}]}]})");
  return model::parse_disk_registry(io::JsonCursor(j, "photo-test-disks.json"));
}

}  // namespace diskref::ui::testing
