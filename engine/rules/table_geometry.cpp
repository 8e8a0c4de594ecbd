#include "engine/rules/table_geometry.h"

#include <cmath>

namespace diskref::rules {

geom::PlacedShape placed(const ShipState& ship) {
  return {ship.shape, ship.pose};
}
geom::PlacedShape placed(const Torpedo& torpedo) {
  return {torpedo.shape, torpedo.pose};
}
geom::PlacedShape placed(const Terrain& terrain) {
  return {terrain.shape, terrain.pose};
}

std::vector<geom::Obstacle> obstacles_except(const GameState& state, std::string_view mover) {
  std::vector<geom::Obstacle> out;
  for (const ShipState& s : state.ships)
    if (!s.destroyed && s.id != mover) out.push_back({s.id, placed(s), false});
  for (const Terrain& t : state.terrain)
    if (t.in_play && t.id != mover) out.push_back({t.id, placed(t), false});
  for (const Torpedo& t : state.torpedoes)
    if (t.id != mover) out.push_back({t.id, placed(t), true});
  return out;
}

geom::RangeOutput range_between(const Parameters& params, const geom::PlacedShape& from, const geom::PlacedShape& to,
                                int extra_ranges) {
  int multiplier = 1 + extra_ranges * params.plus_one_range_template_lengths;
  return geom::range_check(from, to, params.range_template, multiplier);
}

Adjacency adjacency(const Parameters& params, const geom::PlacedShape& a, const geom::PlacedShape& b) {
  double gap = geom::signed_distance(a, b).distance;
  // "touching, but not overlapping": a disk put down by hand never touches exactly, and one seen
  // by a camera is measured to a few tenths of a millimetre, so a gap or an overlap within the
  // tolerance counts as touching (spec §9, docs/rules.md, open parameter 23).
  return {std::fabs(gap) <= params.adjacent_tolerance_mm, gap};
}

}  // namespace diskref::rules
