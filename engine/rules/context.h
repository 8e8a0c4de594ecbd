#pragma once
// What every rule function works on while an action is applied: the working copy of the state,
// the card data, the drop source and the event log. apply_action builds one per action; when a
// rule refuses (throws Refused) or needs more (throws NeedsMore, need.h) the working copy is
// dropped, so rule functions may change the state freely before they find a reason to stop.

#include <optional>
#include <set>
#include <string>
#include <vector>

#include "engine/rules/drops.h"
#include "engine/rules/events.h"
#include "engine/rules/game_data.h"
#include "engine/rules/need.h"
#include "engine/rules/state.h"

namespace diskref::rules {

struct Ctx {
  GameState& state;
  const GameData& data;
  DropSource& drops;
  std::vector<Event>& events;
  std::string player;  // who acts
  // Disks whose contacts the referee ruled in this action (a table run's rulings): the exact check
  // of resting contacts after the action leaves them alone, so that the ruling stands.
  std::set<std::string> ruled;
  // A placement the action may still be given (a ship-ship collision: the hit player may put the
  // ship down elsewhere), the first one met; the action resolves without it.
  std::optional<NeededPlacement> placement_offered;

  // Logs what happened (an event:: struct) with its sentence for people.
  void emit(EventBody what, std::string text) { events.push_back({std::move(text), std::move(what)}); }

  // Drops counters through the source, counts the drop and logs it.
  DropOutcome drop(const DropRequest& request);

  const Parameters& params() const { return data.parameters; }
};

}  // namespace diskref::rules
