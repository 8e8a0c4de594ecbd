#pragma once
// Flip movement (spec §6 "move"): where a disk lands flip by flip, what it touches on the way,
// where it ends, and whether it leaves the play area.
//
// IMPLEMENTATION OWNED BY THE GEOMETRY ISSUE: the rules engine and UI already call these
// declarations; extend them, do not change their meaning.

#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/distance.h"

namespace diskref::geom {

// Another disk on the table, as the flip path sees it.
struct Obstacle {
  std::string name;
  PlacedShape placed;
  bool is_torpedo = false;
};

struct FlipInput {
  PlacedShape mover;
  int flips = 0;
  // Direction of travel; the mover's current heading when absent.
  std::optional<double> heading_deg;
  std::vector<Obstacle> others;
  Vec2 play_area_mm{914.4, 914.4};  // the play area is [0, w] x [0, h] in the table frame
};

struct TorpedoContact {
  int flip = 0;  // 1-based
  std::string disk;
  double separation_mm = 0;  // signed distance at that landing (<= 0)
};

struct EndOverlap {
  std::string disk;
  double separation_mm = 0;  // signed distance where the mover ends (<= 0)
};

struct FlipOutput {
  std::vector<Pose> landings;  // one per flip; each faces the direction of travel
  std::vector<TorpedoContact> torpedo_contacts;
  std::vector<EndOverlap> end_overlaps;
  bool leaves_play_area = false;
  std::optional<int> first_flip_outside;  // 1-based flip whose landing centre is outside
  // Smallest distance from a landing centre to the play area's edge, signed (negative outside):
  // the margin of the leaves_play_area verdict.
  double play_area_margin_mm = 0;
};

FlipOutput flip_path(const FlipInput& input);

}  // namespace diskref::geom
