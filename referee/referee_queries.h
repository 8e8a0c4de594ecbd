#pragma once
// Inside the referee: small questions to the books (a game state) and to a settle, asked by the
// table's reading and by the pending question. Not part of the referee's interface.

#include <algorithm>
#include <string>

#include "engine/rules/actions.h"
#include "engine/rules/state.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

// An action of the ship's controller.
inline rules::Action action_for(const rules::GameState& state, const std::string& ship, rules::ActionBody body) {
  rules::Action a;
  for (const rules::ShipState& s : state.ships)
    if (s.id == ship) a.player = s.controller;
  a.body = std::move(body);
  return a;
}

// The ship in play (not destroyed), if any.
inline const rules::ShipState* ship_in(const rules::GameState& state, const std::string& id) {
  for (const rules::ShipState& s : state.ships)
    if (s.id == id && !s.destroyed) return &s;
  return nullptr;
}

inline bool torpedo_in_flight(const rules::GameState& state, const std::string& id) {
  return std::any_of(state.torpedoes.begin(), state.torpedoes.end(),
                     [&](const rules::Torpedo& t) { return t.id == id; });
}

// When the disk began to move before the settle (when the table began to move, if it is not among
// those that moved).
inline double first_motion(const TableSettle& settle, const std::string& name) {
  for (const DiskMotion& m : settle.moved)
    if (m.name == name) return m.first_motion_t;
  return settle.unsettled_since;
}

}  // namespace diskref::referee
