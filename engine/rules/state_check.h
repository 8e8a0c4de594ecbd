#pragma once
// Invariants of a game state (in the manner of Stockfish's pos_is_ok): tests call state_is_ok
// after every applied action. Returns what is wrong, empty when the state is consistent.

#include <string>
#include <vector>

#include "engine/rules/game_data.h"
#include "engine/rules/state.h"

namespace diskref::rules {

std::vector<std::string> state_problems(const GameState& state, const GameData& data);
inline bool state_is_ok(const GameState& state, const GameData& data) {
  return state_problems(state, data).empty();
}

}  // namespace diskref::rules
