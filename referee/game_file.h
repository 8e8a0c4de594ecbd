#pragma once
// The referee's game file (spec §9, GAME.json): the `setup` of a `diskref play` script, read with
// the table and the disk registry the camera watches. Every ship and terrain id is a disk of the
// registry (of a fitting kind); their shapes come from it, the play area from the table file. A
// pose in the file is only the expected start: the table gives the real one.

#include <filesystem>
#include <set>
#include <string>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/rules/script.h"

namespace diskref::referee {

struct GameFile {
  std::filesystem::path file;
  rules::GameData data;
  rules::GameState initial;             // poses where the file gives them (expected), else the origin
  std::set<std::string> expected_poses; // the ids whose pose the file gives
};

// Throws InputError naming the file, the JSON path and the problem: a ship or terrain the registry
// lacks (or of another kind), a torpedo-carrying game with no torpedo disk in the registry, and
// everything `diskref play` refuses in a setup.
GameFile load_game_file(const std::filesystem::path& file, const model::TableSpec& table,
                        const model::DiskRegistry& registry);

}  // namespace diskref::referee
