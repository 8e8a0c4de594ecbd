#include "engine/rules/player_view.h"

#include <nlohmann/json.hpp>

#include "engine/rules/state_json.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

nlohmann::json state_view_for(const GameState& state, const std::string& player) {
  nlohmann::json view = state_to_json(state);
  for (std::size_t i = 0; i < state.ships.size(); ++i) {
    if (same_team(state, state.ships[i].controller, player)) continue;
    for (auto& slot : view["ships"][i]["orders"])
      if (!slot["revealed"].get<bool>() && !slot["removed"].get<bool>()) slot["order"] = "hidden";
  }
  for (std::size_t i = 0; i < state.disks.size(); ++i) {
    const CrewTechDisk& d = state.disks[i];
    if (!d.revealed && !same_team(state, d.owner, player)) view["disks"][i]["card"] = "hidden";
  }
  view["drops"].erase("rng");
  view["viewer"] = player;
  return view;
}

}  // namespace diskref::rules
