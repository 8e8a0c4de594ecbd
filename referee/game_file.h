#pragma once
// The referee's game file (spec §9, GAME.json): the `setup` of a `diskref play` script, read with
// the table and the disk registry the camera watches. Every ship and terrain id is a disk of the
// registry (of a fitting kind); their shapes come from it, the play area from the table file. A
// pose in the file is only the expected start: the table gives the real one.

#include <filesystem>
#include <optional>
#include <set>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/rules/script.h"

namespace diskref::referee {

// Where the players drop damage counters (the game file's `setup.drops.zone_mm`: [x0, y0, x1, y1],
// table frame, mm, inside the play area). A drop is read from the counters lying wholly inside it;
// without a zone, from those lying anywhere on the play area off the other disks.
struct DropZone {
  double x0 = 0, y0 = 0, x1 = 0, y1 = 0;
  bool contains(double x, double y) const { return x >= x0 && x <= x1 && y >= y0 && y <= y1; }
};

struct GameFile {
  std::filesystem::path file;
  std::optional<DropZone> drop_zone;
  rules::GameData data;
  rules::GameState initial;              // poses where the file gives them (expected), else the origin
  std::set<std::string> expected_poses;  // the ids whose pose the file gives
};

// Throws InputError naming the file, the JSON path and the problem: a ship or terrain the registry
// lacks (or of another kind), a torpedo-carrying game with no torpedo disk in the registry, a
// counter whose critical face names no critical type of the game (the registry's file and place),
// a drop zone that is not a rectangle inside the play area, and everything `diskref play` refuses
// in a setup.
GameFile load_game_file(const std::filesystem::path& file, const model::TableSpec& table,
                        const model::DiskRegistry& registry);

}  // namespace diskref::referee
