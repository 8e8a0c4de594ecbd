#pragma once
// The open parameters of the rules (docs/rules.md, "Open parameters"; the numbers below are
// theirs), with their defaults. The data file data/rules/parameters.json lists all 23 with these
// values; a script may override any of them. Parameters the engine fixes by design (disk sizes
// come from the registry, flip length from the geometry engine, ...) are still listed in the file
// and checked, so the data set documents every open question in one place.

#include "engine/geometry/shape.h"

namespace diskref::rules {

enum class RaiseShieldsRule { any_value, maximum };         // #11
enum class InitiativeTiming { each_phase, once_per_turn };  // #12

struct Parameters {
  // #4: a torpedo moves at launch, then at the end of its launch phase and the next two; it is
  // removed after the last of these end-of-phase moves.
  int torpedo_end_of_phase_moves = 3;
  // #5: the range template, and how many template lengths "+1 range" adds.
  geom::Rect range_template{88.9, 25.4};
  int plus_one_range_template_lengths = 1;
  // #6: the play area [0, w] x [0, h] in the table frame; a ship has "moved out" when a landing
  // centre is beyond the edge (the geometry engine's leaves_play_area).
  geom::Vec2 play_area_mm{914.4, 914.4};
  // #8: probability that a dropped counter lands "HIT!" up (virtual drops only); the critical
  // face has the rest. Strictly between 0 and 1 so that tie-break drops end.
  double hit_face_odds = 0.5;
  // #10: hull damage from a collision triggers the critical check.
  bool collision_damage_crit_check = true;
  // #11: Raise Shields sets any value 0..max, or always the maximum.
  RaiseShieldsRule raise_shields = RaiseShieldsRule::any_value;
  // #12: command initiative each phase, or once a turn (phases 2 and 3 keep phase 1's order).
  InitiativeTiming initiative = InitiativeTiming::each_phase;
  // #13: counters each tied ship drops to break an initiative tie (most hits goes first).
  int initiative_tie_counters = 5;
  // #15: whether a ship may place the same order twice in a turn.
  bool same_order_twice = false;
  // #17: keyword limits (Unique one per game, one Captain or Admiral per ship, one of each
  // non-Unlimited disk per ship) and capacity (disks per ship) checked at setup.
  bool enforce_keyword_limits = true;
  // #21: torpedoes still hit cloaked ships; a cloaked ship cannot launch.
  bool torpedoes_hit_cloaked = true;
  bool cloaked_can_launch = false;
  // #22: largest heading change evasive action allows (360 = any angle).
  double evasive_max_turn_deg = 360;
  // #23: geometry is exact; "adjacent (touching, but not overlapping)" accepts an outline gap
  // within this many millimetres either way, since a hand-placed disk never touches exactly.
  double adjacent_tolerance_mm = 1.0;
};

}  // namespace diskref::rules
