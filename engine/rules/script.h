#pragma once
// Play scripts (`diskref play SCRIPT.json`; format in docs/reference/commands/play.md): a setup and
// a list of actions with the drops the referee saw. Running a script applies the actions in order;
// a refused action is logged with its reason and the game goes on.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/rules/actions.h"
#include "engine/rules/events.h"
#include "engine/rules/game_data.h"
#include "engine/rules/initial_state.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state.h"

namespace diskref::rules {

struct Script {
  std::filesystem::path file;
  GameData data;
  GameState initial;
  std::vector<Action> actions;
};

// Reads the script and everything its setup names (data files and directories, an optional table
// file for the play area, an optional disk registry for shapes), paths relative to the script.
// Throws InputError naming the file, the JSON path and the problem.
Script load_script(const std::filesystem::path& file);

// A game's start: its data and the state before the first action.
struct Setup {
  GameData data;
  GameState initial;
};

// The "setup" member of a script (or a referee's game file, which is one), paths relative to
// `file`. `table` and `registry`, when given, stand over the setup's own "table" and "registry"
// members (the referee has them from the command line).
Setup load_setup(const io::JsonCursor& setup, const std::filesystem::path& file, const model::TableSpec* table,
                 const model::DiskRegistry* registry, const InitialStateOptions& options = {});

struct LogEntry {
  std::size_t index = 0;  // position in the script's "actions"
  Action action;
  int turn = 0;
  Step step = Step::reveal;
  int phase = 0;
  std::vector<Event> events;       // when applied
  std::optional<Refusal> refusal;  // when refused
};

struct PlayResult {
  GameState final_state;
  std::vector<LogEntry> log;
  int refused = 0;
};

// Applies every action of the script. `check` (may be null) is called after each applied action
// with the new state (tests pass an invariant check).
PlayResult run_script(const Script& script, void (*check)(const GameState&, const GameData&) = nullptr);

nlohmann::json log_entry_to_json(const LogEntry& entry);
// {"log": [...], "refused": n, "final_state": {...}}; with `viewer`, the final state as that player
// sees it.
nlohmann::json play_result_to_json(const PlayResult& result, const std::optional<std::string>& viewer);

}  // namespace diskref::rules
