#pragma once
// Flip movement (spec §6 "move"): where a disk lands flip by flip, what it touches on the way,
// where it ends, and whether it leaves the play area.
//
// The rules engine and the UI call these declarations: extend them, do not change their meaning.

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

// Overlap rule used throughout: shapes overlap when they share a point, touching included
// (signed distance <= 0), as geom::overlaps. Whoever builds `others` decides what counts as an
// obstacle; `diskref check` leaves templates out (a template lies on the table only while
// measuring, and a ship flipping over it does not collide with it).
struct FlipOutput {
  std::vector<Pose> landings;  // one per flip; each faces the direction of travel
  std::vector<TorpedoContact> torpedo_contacts;
  std::vector<EndOverlap> end_overlaps;
  bool leaves_play_area = false;
  std::optional<int> first_flip_outside;  // 1-based flip whose landing centre is outside
  // Smallest distance from a landing centre to the play area's edge, signed (negative outside):
  // the margin of the leaves_play_area verdict.
  // With no flips there is no landing: leaves_play_area is false and the margin is the start's.
  double play_area_margin_mm = 0;

  // Margins of the other verdicts, so callers can say "too close to call":
  // the torpedo that came nearest at any landing (contact or not), absent without torpedoes;
  std::optional<TorpedoContact> nearest_torpedo;
  // every other disk's signed distance where the mover ends, nearest first (end_overlaps are the
  // ones <= 0).
  std::vector<EndOverlap> end_separations;
  Pose end_pose;  // the last landing, or the start when there are no flips
};

FlipOutput flip_path(const FlipInput& input);

// Signed distance of a point to the play area [0, w] x [0, h]'s edge: positive inside (the
// distance to the nearest edge), negative outside (minus the distance to the area).
double play_area_margin(Vec2 point, Vec2 play_area_mm);

// The region the mover sweeps over between consecutive footprints, for drawing: the convex hull
// of the footprint at `from` and at `to` (a counter-clockwise polygon, arcs split into short
// chords; never used for answers).
std::vector<Vec2> swept_outline(const Shape& mover, const Pose& from, const Pose& to);

// One swept outline per flip: from the start (turned to the direction of travel) to landing 1,
// then landing to landing.
std::vector<std::vector<Vec2>> swept_outlines(const FlipInput& input, const FlipOutput& output);

}  // namespace diskref::geom
