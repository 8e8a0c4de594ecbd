#pragma once
// Loading the game data files (data/rules/*.json). A data file is an object with any of the
// sections "parameters", "crit_types", "ships", "crew", "tech" (and an optional "about" text).
// Several files merge into one GameData: cards and crit types add up (an id defined twice is an
// error naming both places), parameters set later override earlier ones. Every entry may list
// its guessed values in "placeholder" (names of its own members) and say where the rest comes from
// in "source". Errors are InputErrors naming the file, the JSON path and the problem.

#include <filesystem>
#include <vector>

#include "engine/io/json_cursor.h"
#include "engine/rules/game_data.h"

namespace diskref::rules {

// Files, or directories whose *.json files are read in name order.
GameData load_game_data(const std::vector<std::filesystem::path>& paths);

// Adds one parsed data file to `data`.
void merge_data_file(GameData& data, const io::JsonCursor& root);

// Checks what spans files (at least one critical type); throws InputError naming `where`.
void check_game_data(const GameData& data, const std::string& where);

}  // namespace diskref::rules
