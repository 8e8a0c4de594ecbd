#pragma once
// What a player may see. "Players on opposite teams may not examine each other's orders until they
// are revealed. Teammates may confer at any time regarding the orders they have selected."
// Concealed disks of the other side show only that a disk is there.

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/rules/state.h"

namespace diskref::rules {

// The state as JSON (state_to_json) with the other teams' unrevealed orders and concealed cards
// hidden, and the PRNG state withheld (it would tell every future virtual drop).
nlohmann::json state_view_for(const GameState& state, const std::string& player);

}  // namespace diskref::rules
