#pragma once
// Events of the game's course: turns, steps and phases, who has the option to act, the orders a
// ship reveals and executes, and the end of the game. One struct per kind (engine/rules/events.h);
// each member is named as its key in the log (engine/rules/event_json.h).

#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/order_kind.h"

namespace diskref::rules::event {

// A new turn begins with Step One (reveal or conceal).
struct Turn {
  static constexpr std::string_view kind = "turn";
  int turn = 0;
};

// A player finished Step One.
struct Reveal {
  static constexpr std::string_view kind = "reveal";
  std::string player;
  std::vector<std::string> revealed;
  std::vector<std::string> concealed;
};

// Step Two (assign orders) begins.
struct Step {
  static constexpr std::string_view kind = "step";
  int turn = 0;
};

// A ship's three orders are placed, face down: the event names the ship, not the orders.
struct OrdersPlaced {
  static constexpr std::string_view kind = "orders_placed";
  std::string ship;
};

// An orders phase of Step Three begins.
struct Phase {
  static constexpr std::string_view kind = "phase";
  int turn = 0;
  int phase = 0;
};

struct InitiativeShip {
  std::string ship;
  int command = 0;
  int speed = 0;
};

// Command initiative determined for a phase: the ships in the order they have the option, each
// with the command and speed it was ranked by.
struct Initiative {
  static constexpr std::string_view kind = "initiative";
  int phase = 0;
  std::vector<InitiativeShip> order;
};

// Command initiative kept from phase 1 (once a turn, docs/rules.md open parameter 12): the ships
// still in play, in that order. Logged with the same kind as Initiative.
struct InitiativeKept {
  static constexpr std::string_view kind = Initiative::kind;
  std::vector<std::string> order;
};

// The ship that has the first option to act.
struct Option {
  static constexpr std::string_view kind = "option";
  std::string ship;
};

struct Acts {
  static constexpr std::string_view kind = "acts";
  std::string ship;
};

// The option holder `ship` defers; the option passes to `option`.
struct Defer {
  static constexpr std::string_view kind = "defer";
  std::string ship;
  std::string option;
};

struct OrderRevealed {
  static constexpr std::string_view kind = "order_revealed";
  std::string ship;
  OrderKind order = OrderKind::change_speed;
  int phase = 0;
};

// `source`: "panel" (the ship's own order) or the crew disk that issued it.
struct OrderExecuted {
  static constexpr std::string_view kind = "order_executed";
  std::string ship;
  OrderKind order = OrderKind::change_speed;
  std::string source;
};

// The ship does not execute its remaining (pending) orders.
struct Declined {
  static constexpr std::string_view kind = "declined";
  std::string ship;
  std::vector<OrderKind> orders;
};

// The ship loses its remaining orders (evasive action, a collision) and its speed drops to `speed`.
struct OrdersRemoved {
  static constexpr std::string_view kind = "orders_removed";
  std::string ship;
  int removed = 0;
  int speed = 0;
};

struct ShipDone {
  static constexpr std::string_view kind = "ship_done";
  std::string ship;
};

struct PhaseEnd {
  static constexpr std::string_view kind = "phase_end";
  int phase = 0;
};

// Every ship has acted; the torpedoes move.
struct TorpedoStage {
  static constexpr std::string_view kind = "torpedo_stage";
  int phase = 0;
};

// Step 4 (boarding) begins, with crew combat on these ships.
struct Boarding {
  static constexpr std::string_view kind = "boarding";
  std::vector<std::string> combats;
};

// `winner`: the winning team, "" when no side is left.
struct GameOver {
  static constexpr std::string_view kind = "game_over";
  std::string winner;
};

}  // namespace diskref::rules::event
