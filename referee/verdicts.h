#pragma once
// The questions players argue about, asked of the geometry engine for the disks on the table, with
// the measurement's uncertainty (call.h): range, overlap, a flip path, and whether a template
// lying on the table really touches both ships. The screen draws these verdicts; the referee
// takes its rulings from them.

#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/flip_path.h"
#include "engine/geometry/range.h"
#include "engine/model/table_spec.h"
#include "referee/call.h"
#include "referee/table_snapshot.h"

namespace diskref::referee {

struct TemplateTouch {
  std::string template_name;
  geom::PlacedTemplateCheck check;  // separations template -> a and template -> b
  Call touches_a = Call::no;
  Call touches_b = Call::no;
  Call touches_both = Call::no;  // yes only when both are yes; no when either is no
};

struct PairVerdict {
  std::size_t a = 0;  // indices into the scene
  std::size_t b = 0;
  geom::RangeOutput range;
  geom::Rect template_rect;  // the template asked about (before the reach multiplier)
  double sigma_mm = 0;       // of gap, margin and separation alike
  Call in_range = Call::no;
  geom::DistanceOutput separation;  // outline distance, negative when overlapping
  Call overlapping = Call::no;
  std::vector<TemplateTouch> templates;  // every template disk on the table (not lost)
};

// Both disks must have a pose. `reach_multiplier`: 1 for base range, 2 for "+1 range", ...
PairVerdict evaluate_pair(const TableSnapshot& scene, std::size_t a, std::size_t b, const geom::Rect& range_template,
                          int reach_multiplier = 1);

struct NearMiss {
  std::string disk;
  double separation_mm = 0;  // signed outline distance at the end pose
  Call overlapping = Call::no;
};

struct FlipVerdict {
  std::size_t mover = 0;
  int flips = 0;
  geom::FlipOutput path;
  double sigma_mm = 0;                         // the mover's
  Call leaves_play_area = Call::no;            // from the path's play_area_margin_mm
  std::vector<NearMiss> at_end;                // every disk overlapping or within the call band at the end
  std::optional<NearMiss> nearest_torpedo;     // the closest a torpedo comes at any landing
  std::vector<std::vector<geom::Vec2>> swept;  // the region each flip passes over (drawing only)
};

// The mover must have a pose; the other disks with a pose are the obstacles, except templates (a
// template lies on the table only while measuring; a ship flipping over it does not collide) and
// damage counters (no game piece: they lie there until picked up).
FlipVerdict evaluate_flip(const TableSnapshot& scene, const model::TableSpec& table, std::size_t mover, int flips);

}  // namespace diskref::referee
