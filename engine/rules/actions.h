#pragma once
// Actions: everything a player (or the referee on his behalf) does. Each is applied by
// apply_action (apply.h), which either yields the next state and its events or refuses with a
// typed reason and changes nothing. Drops seen on the table travel with the action (`drops`).

#include <map>
#include <optional>
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "engine/rules/order_kind.h"
#include "engine/rules/state.h"

namespace diskref::rules {

// --- Step One: reveal or conceal crew and tech disks; every player submits once a turn.
struct RevealConceal {
  std::vector<std::string> reveal;
  std::vector<std::string> conceal;
};

// --- Step Two: three orders, face down, left to right.
struct PlaceOrders {
  std::string ship;
  std::vector<OrderKind> orders;
};

// --- Step Three.
struct DetermineInitiative {};
struct Defer {};  // the option holder passes the option to the next ship
struct RevealOrder {
  std::string ship;
};
// Reveal (if not yet) and give up the remaining orders of this phase.
struct DeclineOrders {
  std::string ship;
};

// Order bodies: what executing an order does. Attack orders are BeamAttack, LaunchTorpedo or
// Transport; an Activate Crew/Tech order is ActivateDisk.
struct ChangeSpeed {
  int speed = 0;  // the new speed
};
struct ChangeHeading {
  double heading_deg = 0;
  std::string face;  // when set: turn to face this disk's centre instead of `heading_deg`
};
struct RaiseShields {
  std::optional<int> value;  // absent: the maximum
};
struct BeamAttack {
  std::string target;
  bool refire = false;  // fire again if a flip ability allows it (Pulse Phasers)
};
struct LaunchTorpedo {
  // Heading after each flip of the launch move ("you may change its heading after each flip";
  // docs/rules.md, ruling r-torpedo-bay); fewer entries keep the last heading. The first flip
  // follows the ship's heading.
  std::vector<double> headings_after_flips;
};
struct Transport {
  std::string target;  // ship or terrain disk
  std::vector<std::string> crew;
};
struct ActivateDisk {
  std::string disk;
  std::optional<int> row;     // crew order row (0-based) to carry out
  std::string ready_target;   // ready_a_tech: the tech to ready
};
using OrderBody = std::variant<ChangeSpeed, ChangeHeading, RaiseShields, BeamAttack, LaunchTorpedo, Transport,
                               ActivateDisk>;
OrderKind order_kind_of(const OrderBody& body);

struct ExecuteOrder {
  std::string ship;
  OrderBody body;
};

struct Evasive {
  int after_flip = 0;  // flips made on the old heading before turning (0..speed)
  double heading_deg = 0;
};

struct Move {
  std::string ship;
  std::optional<Evasive> evasive;
  // Where the ship is placed if a collision needs it (ship-planet: the colliding player; ship-ship:
  // the hit player, who may also leave it where it is).
  std::optional<geom::Pose> reposition;
};

// End of phase: every torpedo moves; an entry sets a torpedo's heading at the start of its move.
struct MoveTorpedoes {
  std::map<std::string, double> headings;
};

// Cloaks, before the ship reveals this phase's order.
struct RaiseCloak {
  std::string ship;
};
struct DropCloak {
  std::string ship;
};

// "If your ship's current speed is 0, it may change its heading at any time".
struct TurnAtFullStop {
  std::string ship;
  double heading_deg = 0;
};

// --- Step 4: one segment of crew combat on a ship; `losses` are the crew each losing side
// chooses to lose (one per losing side; may be left out when a side has only one choice).
struct BoardingSegment {
  std::string ship;
  std::vector<std::string> losses;
};

using ActionBody = std::variant<RevealConceal, PlaceOrders, DetermineInitiative, Defer, RevealOrder, DeclineOrders,
                                ExecuteOrder, Move, MoveTorpedoes, RaiseCloak, DropCloak, TurnAtFullStop,
                                BoardingSegment>;

// A drop the referee saw on the table. `purpose` and `subject`, when given, must match what the
// engine asks for (a check against scripts that drift out of step). Either `hits` (counters
// showing "HIT!") or `crits` (the critical types showing; for a typed critical drop these name the
// counters, otherwise only their number counts).
struct SeenDrop {
  std::optional<std::string> purpose;
  std::optional<std::string> subject;
  std::optional<int> hits;
  std::optional<std::vector<std::string>> crits;
};

struct Action {
  std::string player;  // may be empty for the referee's actions (initiative, move_torpedoes, boarding_segment)
  ActionBody body;
  std::vector<SeenDrop> drops;
};

// Whether the action is a player's (who must be named and known) or the referee's.
bool needs_player(const ActionBody& body);

// The action's name in scripts ("reveal", "orders", "initiative", ...).
std::string_view action_name(const ActionBody& body);
// Every action name, in the order of ActionBody's alternatives.
std::span<const std::string_view> action_names();

}  // namespace diskref::rules
