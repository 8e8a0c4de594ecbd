#pragma once
// Brute-force references for the geometry property tests. Written independently of the library's
// outline model and closed forms: each shape kind is handled by its own plain formula here, and
// the answers come from dense sampling plus local refinement, not from the library's pieces.

#include <random>

#include "engine/geometry/shape.h"

namespace diskref::geom::brute {

// How closely the library must agree with these references (mm): their own accuracy, with room.
inline constexpr double kTolerance = 1e-7;

// The outline point a fraction t / (2 pi) of the way round the perimeter (by arc length, so that
// thin shapes are sampled as evenly as round ones), in the shape's local frame.
Vec2 outline_point_local(const Shape& shape, double t);

// Exact signed distance from a table-frame point to the placed shape's outline: negative inside.
double point_signed_distance(const PlacedShape& placed, Vec2 point);

// max over the placed shape of dot(dir, x), for a unit table-frame direction.
double support_value(const PlacedShape& placed, Vec2 dir);

// Minimum of a continuous 2-pi-periodic function: a grid of `coarse` samples, then golden-section
// refinement around the best few local minima of the grid (to about 1e-11 of a turn).
template <class F>
double minimise_periodic(F f, int coarse = 160, int keep = 3);

// The gap between two disjoint shapes by outline sampling: the smallest point-to-shape distance
// from A's outline to B. Equals the gap when apart; a negative value means the outlines cross (it
// is then not the penetration depth).
double gap_by_outline(const PlacedShape& a, const PlacedShape& b);

// The signed distance by brute force over directions (the separating-axis view): the largest
// separation min_B n.x - max_A n.x over unit directions n. Positive: the gap; negative: minus the
// penetration depth.
double signed_distance_by_directions(const PlacedShape& a, const PlacedShape& b);

// Whether the closed shapes share a point, by outline sampling: a point of A's outline in B, or a
// centre inside the other shape (when one lies inside the other).
bool overlap_by_outline(const PlacedShape& a, const PlacedShape& b);

// Random shapes and poses for the property tests.
struct ShapeSampler {
  std::mt19937_64 rng;
  explicit ShapeSampler(std::uint64_t seed) : rng(seed) {}
  double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(rng); }
  // kind 0 circle, 1 flatted circle (sometimes degenerate, flat_to_flat == diameter), 2 rect.
  Shape shape(int kind);
  // A disk (circle or flatted circle), never a rect.
  Shape disk() { return shape(std::uniform_int_distribution<int>(0, 1)(rng)); }
  Pose pose_near(Vec2 centre, double max_offset);
};

}  // namespace diskref::geom::brute

#include "brute_force_impl.h"
