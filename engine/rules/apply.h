#pragma once
// The one entry point of the rules: apply an action to a state.
//
//   ActionResult r = apply_action(state, data, action);
//   if (r.applied()) state = std::move(*r.state);   // and show r.events
//   else show(r.refusal->reason);                   // state unchanged
//
// No hidden inputs: the result depends only on the state (including its PRNG state), the data and
// the action (including the drops seen on the table).

#include <optional>
#include <vector>

#include "engine/rules/actions.h"
#include "engine/rules/events.h"
#include "engine/rules/game_data.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state.h"

namespace diskref::rules {

struct ActionResult {
  std::optional<GameState> state;  // the next state, when applied
  std::vector<Event> events;       // what happened, when applied
  std::optional<Refusal> refusal;  // why not, when refused

  bool applied() const { return state.has_value(); }
};

ActionResult apply_action(const GameState& state, const GameData& data, const Action& action);

}  // namespace diskref::rules
