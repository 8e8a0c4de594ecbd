#pragma once
// Range: can the range template be placed so that it overlaps both disks?
//
// The rules engine and the UI call these declarations: extend them, do not change their meaning.

#include "engine/geometry/distance.h"

namespace diskref::geom {

struct RangeOutput {
  bool in_range = false;
  double gap_mm = 0;     // outline distance between the disks, 0 when touching or overlapping
  double reach_mm = 0;   // the template's diagonal: the farthest two of its points can be apart
  double margin_mm = 0;  // reach_mm - gap_mm; in range when >= 0
  Vec2 point_a;          // closest points of the two disks (table frame)
  Vec2 point_b;
  // A placement of the template overlapping both disks when in range (for drawing); when out of
  // range, the template laid along the gap from point_a, as close as it gets. It places a rect of
  // template_length (below) by the template's width.
  Pose template_pose;
  double template_length_mm = 0;  // reach_multiplier x the template's length
};

// `reach_multiplier` lengthens the template (docs/rules.md, open parameter 5: "+1 range" adds one
// template length): 1 for base range, 2 for +1 range, ...
// Throws std::invalid_argument when reach_multiplier < 1.
RangeOutput range_check(const PlacedShape& from, const PlacedShape& to, const Rect& range_template,
                        int reach_multiplier = 1);

// A template physically placed on the table (its pose as seen): does it really overlap both disks?
struct PlacedTemplateCheck {
  bool overlaps_both = false;
  double separation_from_mm = 0;  // signed distance template-to-`from` (<= 0: overlapping)
  double separation_to_mm = 0;    // signed distance template-to-`to`
  // -max(separation_from, separation_to): >= 0 exactly when it overlaps both; the amount by which
  // the less-overlapped disk is inside (or, negative, how far it misses).
  double margin_mm = 0;
};

PlacedTemplateCheck check_placed_template(const PlacedShape& placed_template, const PlacedShape& from,
                                          const PlacedShape& to);

}  // namespace diskref::geom
