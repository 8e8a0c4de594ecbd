#pragma once
// What an action still needs before it can be resolved. Not a refusal: the action is legal so far,
// and goes on once the table or a player gives this. The rules say it by throwing NeedsMore where
// a Refused would say "not legal"; `needs` (apply.h) returns it as a value, and apply_action, for
// the callers that only apply, as the refusal it always was (missing_drop, choice_needed).
//
//   NeededDrop       counters to drop (refusal.h): which drop, for what, how many
//   NeededChoice     a player's choice: one of `options` (the crew a boarding side loses), or, with
//                    no options, a value the action is to name (a heading, an order row, the crew
//                    to transport, the tech to ready)
//   NeededPlacement  a collided ship put down again, adjacent to what it hit: after a ship-planet
//                    collision (the action cannot go on without it), or after a ship-ship collision
//                    (optional: the hit player may leave it where it is, which is how the action
//                    resolves without one)

#include <optional>
#include <string>
#include <utility>
#include <variant>
#include <vector>

#include "engine/rules/refusal.h"

namespace diskref::rules {

struct NeededChoice {
  std::vector<std::string> options;  // empty: a value the action is to name
};

struct NeededPlacement {
  std::string ship;         // the ship to put down again
  std::string adjacent_to;  // what it collided with
  std::string placer;       // the player who places it
  bool optional = false;    // true: leaving it in place is allowed (ship-ship)
};

struct Need {
  std::variant<NeededDrop, NeededChoice, NeededPlacement> what;
  std::string reason;  // in words, as the refusal says it
};

// The refusal apply_action gives for an action that needs this: missing_drop (with the drop) or
// choice_needed (with the options; a placement as a choice among no options).
Refusal as_refusal(const Need& need);

// Thrown inside the rules, like Refused, where the resolution cannot go on without what `need`
// says; caught by apply_action and `needs`, which drop their working copy of the state.
class NeedsMore : public std::exception {
 public:
  explicit NeedsMore(Need need) : need_(std::move(need)) {}
  const Need& need() const { return need_; }
  const char* what() const noexcept override { return need_.reason.c_str(); }

 private:
  Need need_;
};

[[noreturn]] inline void need_drop(NeededDrop drop, std::string reason) {
  throw NeedsMore({std::move(drop), std::move(reason)});
}

[[noreturn]] inline void need_choice(std::string reason, std::vector<std::string> options = {}) {
  throw NeedsMore({NeededChoice{std::move(options)}, std::move(reason)});
}

[[noreturn]] inline void need_placement(NeededPlacement placement, std::string reason) {
  throw NeedsMore({std::move(placement), std::move(reason)});
}

}  // namespace diskref::rules
