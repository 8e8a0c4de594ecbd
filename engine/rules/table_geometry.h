#pragma once
// The rules' only bridge to the geometry engine: disks in the state as placed shapes, and the
// questions the rules ask (range, overlap, adjacency, flip movement). Everything geometric is
// answered by engine/geometry (signed_distance, range_check, flip_path); nothing here measures.

#include <string_view>
#include <vector>

#include "engine/geometry/flip_path.h"
#include "engine/geometry/range.h"
#include "engine/rules/game_data.h"
#include "engine/rules/state.h"

namespace diskref::rules {

geom::PlacedShape placed(const ShipState& ship);
geom::PlacedShape placed(const Torpedo& torpedo);
geom::PlacedShape placed(const Terrain& terrain);

// Everything on the table except `mover`: ships in play, terrain in play, torpedoes in flight
// (flagged so flip_path reports them as contacts).
std::vector<geom::Obstacle> obstacles_except(const GameState& state, std::string_view mover);

// Range with the parameters' template; `extra_ranges` is the number of "+1 range" bonuses.
geom::RangeOutput range_between(const Parameters& params, const geom::PlacedShape& from, const geom::PlacedShape& to,
                                int extra_ranges = 0);

// "adjacent to (i.e., touching, but not overlapping)": the outline gap is between 0 (excluded when
// overlapping) and the tolerance (docs/rules.md, open parameter 23). Returns the signed outline
// distance in `gap_mm`.
struct Adjacency {
  bool adjacent = false;
  double gap_mm = 0;
};
Adjacency adjacency(const Parameters& params, const geom::PlacedShape& a, const geom::PlacedShape& b);

}  // namespace diskref::rules
