#pragma once
// The starting position of a game from a script's "setup" (docs/reference/commands/play.md):
// players and teams, ships with their crew and tech, their poses on the table, terrain, and where
// drops come from. Checks the keyword limits (docs/rules.md, open parameter 17): Unique one per
// game, one Captain or Admiral per ship, one of each non-Unlimited disk per ship, capacity, and
// fleet points when a player has them.

#include <set>
#include <string>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/rules/game_data.h"
#include "engine/rules/state.h"

namespace diskref::rules {

struct InitialStateOptions {
  // The table gives every ship's and terrain's pose (the referee, spec §9): a pose in the setup is
  // then optional, only the expected start. `posed` (may be null) receives the ids that have one.
  bool poses_from_table = false;
  std::set<std::string>* posed = nullptr;
};

// `registry` (may be null) gives shapes to disks that do not carry one; the play area is
// `data.parameters.play_area_mm`. Throws InputError naming the file and path of what is wrong.
GameState build_initial_state(const io::JsonCursor& setup, const GameData& data, const model::DiskRegistry* registry,
                              const InitialStateOptions& options = {});

}  // namespace diskref::rules
