#pragma once
// The questions players argue about, asked of the geometry engine for the disks on the table, with
// the measurement's uncertainty: range, overlap, a flip path, and whether a template lying on the
// table really touches both ships.
//
// Uncertainty: each disk's tracked position is known to sigma_mm (1-sigma, per axis). A distance
// between two independently measured disks is then known to sqrt(sa^2 + sb^2) along the line
// joining them. A verdict is called only when its margin is more than kCallSigmas of that from
// zero; otherwise it is "too close to call". Heading uncertainty is not included (the tracker
// does not report it); it matters for flatted disks whose flats face each other.

#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/flip_path.h"
#include "engine/geometry/range.h"
#include "engine/model/table_spec.h"
#include "ui/table_scene.h"

namespace diskref::ui {

// About 95 % confidence for a Gaussian error.
inline constexpr double kCallSigmas = 2.0;

// The rules' default range template (docs/rules.md, open parameter 5).
inline constexpr geom::Rect kDefaultRangeTemplate{88.9, 25.4};

enum class Call { yes, no, too_close };
const char* to_string(Call call);

// `margin_mm` > 0 means "yes" by that much (negative: "no"); sigma_mm is its 1-sigma uncertainty.
// yes when margin >= k sigma, no when margin <= -k sigma, else too close (a zero-sigma margin of
// exactly 0 is "yes": touching counts, as the spec's in_range is margin >= 0).
Call call_margin(double margin_mm, double sigma_mm, double k = kCallSigmas);

// 1-sigma of the distance between two independently measured disks.
double combined_sigma(double sigma_a_mm, double sigma_b_mm);

struct TemplateTouch {
  std::string template_name;
  geom::PlacedTemplateCheck check;  // separations template -> a and template -> b
  Call touches_a = Call::no;
  Call touches_b = Call::no;
  Call touches_both = Call::no;  // yes only when both are yes; no when either is no
};

struct PairDispute {
  std::size_t a = 0;  // indices into the scene
  std::size_t b = 0;
  geom::RangeOutput range;
  geom::Rect template_rect;  // the template asked about (before the reach multiplier)
  double sigma_mm = 0;    // of gap, margin and separation alike
  Call in_range = Call::no;
  geom::DistanceOutput separation;  // outline distance, negative when overlapping
  Call overlapping = Call::no;
  std::vector<TemplateTouch> templates;  // every template disk on the table (not lost)
};

// Both disks must have a pose. `reach_multiplier`: 1 for base range, 2 for "+1 range", ...
PairDispute evaluate_pair(const TableScene& scene, std::size_t a, std::size_t b, const geom::Rect& range_template,
                          int reach_multiplier = 1);

struct NearMiss {
  std::string disk;
  double separation_mm = 0;  // signed outline distance at the end pose
  Call overlapping = Call::no;
};

struct FlipDispute {
  std::size_t mover = 0;
  int flips = 0;
  geom::FlipOutput path;
  double sigma_mm = 0;                 // the mover's
  Call leaves_play_area = Call::no;    // from the path's play_area_margin_mm
  std::vector<NearMiss> at_end;        // every disk overlapping or within the call band at the end
  std::optional<NearMiss> nearest_torpedo;  // the closest a torpedo comes at any landing
  std::vector<std::vector<geom::Vec2>> swept;  // the region each flip passes over (drawing only)
};

// The mover must have a pose; the other disks with a pose are the obstacles, except templates (a
// template lies on the table only while measuring; a ship flipping over it does not collide).
FlipDispute evaluate_flip(const TableScene& scene, const model::TableSpec& table, std::size_t mover, int flips);

}  // namespace diskref::ui
