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

#include "engine/geometry/pose.h"
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

// --- What the table showed (the referee reads it from the camera, spec §9). Given with a move, a
// launch or the torpedoes' runs, it replaces the legal path the engine would otherwise compute:
// "the books keep the pose on the table, and later legal paths start from it".

// A disk met at a landing: for a ship's move, a torpedo it ran into; for a torpedo's run, the ship
// it struck. Flips count from 1.
struct Contact {
  int flip = 0;
  std::string disk;
};

// The referee's calls on what a run met, each taken from the measured margin and its uncertainty
// (or decided by the referee when too close to call).
struct TableRulings {
  std::vector<Contact> contacts;
  std::vector<std::string> end_overlaps;  // a ship's move: the ships and terrain it ended overlapping
  std::optional<int> left_play_area_at;   // the flip after which its centre lay beyond the edge
};

struct TableRun {
  std::vector<geom::Pose> landings;     // flip by flip; the last is where it ended
  std::optional<TableRulings> rulings;  // absent: taken exactly from the landings' geometry
};

// A disk found somewhere its books did not put it (moved out of turn, bumped, put back by hand):
// the books take the table's pose. The referee's action, with a warning of its own.
struct Displaced {
  std::string disk;  // a ship, torpedo or terrain
  geom::Pose pose;
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
  // The new heading; absent (and no `face`): the referee reads it from the table, where the ship
  // is turned in place (spec §9); the rules alone cannot execute it.
  std::optional<double> heading_deg;
  std::string face;  // when set: turn to face this disk's centre instead of `heading_deg`
};
struct RaiseShields {
  std::optional<int> value;  // absent: the maximum
};
struct BeamAttack {
  std::string target;
  bool refire = false;  // fire again if a flip ability allows it (Pulse Phasers)
  // The referee's call on the range, measured on the table; absent: exact geometry of the books.
  std::optional<bool> in_range;
};
struct LaunchTorpedo {
  // Heading after each flip of the launch move ("you may change its heading after each flip";
  // docs/rules.md, ruling r-torpedo-bay); fewer entries keep the last heading. The first flip
  // follows the ship's heading.
  std::vector<double> headings_after_flips;
  // The torpedo disk put in the bay (its registry name; absent: a fresh "torpedo-N"), where it was
  // put, and its launch run as the table showed it. Without `placed`, it starts in the bay exactly.
  std::string torpedo;
  std::optional<geom::Pose> placed;
  std::optional<TableRun> run;
  std::optional<geom::Shape> shape;  // the torpedo disk's (its registry's), over the card's
};
struct Transport {
  std::string target;  // ship or terrain disk
  std::vector<std::string> crew;
  std::optional<bool> in_range;  // as BeamAttack's
};
struct ActivateDisk {
  std::string disk;
  std::optional<int> row;    // crew order row (0-based) to carry out
  std::string ready_target;  // ready_a_tech: the tech to ready
};
using OrderBody =
    std::variant<ChangeSpeed, ChangeHeading, RaiseShields, BeamAttack, LaunchTorpedo, Transport, ActivateDisk>;
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
  // The flips as the table showed them (may number other than the speed: the books keep them).
  std::optional<TableRun> run;
};

// End of phase: every torpedo moves; an entry sets a torpedo's heading at the start of its move.
struct MoveTorpedoes {
  std::map<std::string, double> headings;
  // Runs as the table showed them, by torpedo (a torpedo without one moves its legal path).
  std::map<std::string, TableRun> runs;
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

using ActionBody =
    std::variant<RevealConceal, PlaceOrders, DetermineInitiative, Defer, RevealOrder, DeclineOrders, ExecuteOrder, Move,
                 MoveTorpedoes, RaiseCloak, DropCloak, TurnAtFullStop, BoardingSegment, Displaced>;

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
