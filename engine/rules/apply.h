#pragma once
// The two entry points of the rules: apply an action to a state, and ask what it still needs.
//
//   ActionResult r = apply_action(state, data, action);
//   if (r.applied()) state = std::move(*r.state);   // and show r.events
//   else show(r.refusal->reason);                   // state unchanged
//
//   ActionNeeds n = needs(state, data, action);
//   if (n.ready()) state = std::move(*n.outcome.state);   // the same outcome, the rules run once
//   else if (n.need) ask_for(*n.need);                     // a drop, a choice, a placement (need.h)
//   else show(n.outcome.refusal->reason);                  // not legal
//
// An action is either not legal (a Refusal: it changes nothing, and giving more does not help),
// or legal so far but needing more before it can be resolved (a Need: a drop not yet given, a
// player's choice, a collided ship put down again), or ready. apply_action gives a need as the
// refusal it always was (missing_drop, choice_needed), for the callers that only apply (the play
// command, a script); `needs` gives it typed, for the callers that wait for it (the referee, the
// screen's list of legal inputs).
//
// What an action needs is often known only part way through its resolution (a damage drop is
// needed only once a hit is known; a placement only once the ship is found to collide), so `needs`
// runs the rules on a copy of the state, as apply_action does, and hands back that run's outcome:
// a caller that commits a ready action commits `outcome` and does not apply it again. The state
// is a value and an action a pure function of it, as boardgame.io's moves and Stockfish's
// positions are: a trial on a copy is as good as the real thing.
//
// No hidden inputs: the result depends only on the state (including its PRNG state), the data and
// the action (including the drops seen on the table).

#include <optional>
#include <vector>

#include "engine/rules/actions.h"
#include "engine/rules/events.h"
#include "engine/rules/game_data.h"
#include "engine/rules/need.h"
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

// What the action needs before it is resolved, with the outcome of the rules' run.
//   ready:    no need; `outcome` applied (the next state and its events)
//   needs:    `need` says what; `outcome` is apply_action's refusal saying the same
//             (missing_drop, choice_needed), except for an optional placement (a ship-ship
//             collision), where `outcome` is applied: the ship left where it is
//   refused:  no need; `outcome` refused (why not)
// `outcome` is always what apply_action gives for the same arguments.
struct ActionNeeds {
  std::optional<Need> need;
  ActionResult outcome;

  bool ready() const { return !need && outcome.applied(); }
  bool refused() const { return !need && !outcome.applied(); }
};

ActionNeeds needs(const GameState& state, const GameData& data, const Action& action);

}  // namespace diskref::rules
