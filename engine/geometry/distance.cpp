#include "engine/geometry/distance.h"

#include <algorithm>
#include <array>
#include <cmath>

#include "engine/geometry/outline.h"

// How the signed distance is computed, exactly.
//
// For convex A and B and a unit direction n (from A towards B), the separation along n is
//   s(n) = min_{b in B} n.b - max_{a in A} n.a = n.(c_B - c_A) - h_A(n) - h_B(-n),
// with h the support functions about the centres. By the separating axis theorem, max_n s(n) is
// the distance when A and B are apart, and minus the penetration depth (the shortest translation
// that separates them) when they overlap: both are the signed distance from the origin to the
// Minkowski difference A - B, whose support function is h_A(n) + h_B(-n).
//
// Each support function is piecewise simple in n (outline.h): n . corner near a corner, a
// constant radius along an arc. Between consecutive "breaks" of A and of B (at most 16 directions
// in all) s(n) = n . V - C for one vector V and constant C, whose maximum on an arc of directions
// is |V| - C at n = V / |V| when that direction lies inside the arc, else at an end. So the global
// maximum is found exactly, in closed form, with no iteration and no polygon approximation.

namespace diskref::geom {
namespace {

constexpr double kTwoPi = 2 * std::numbers::pi;
// Points of a support feature within this of the farthest are treated as one flat (witness
// points only; the distance value itself does not depend on it).
constexpr double kFeatureTolerance = 1e-9;

struct Break {
  double angle;  // atan2 of n, in (-pi, pi]
  Vec2 n;
};

double angle_of(Vec2 v) { return std::atan2(v.y, v.x); }

// The separation along n on one interval between breaks: s(n) = n.V - C.
struct Piecewise {
  Vec2 v;
  double c;
  double at(Vec2 n) const { return dot(n, v) - c; }
};

Piecewise piece_between(const PlacedShape& a, const Outline& oa, const PlacedShape& b, const Outline& ob, Vec2 n_mid) {
  SupportPiece pa = support_piece(oa, dir_to_local(a.pose, n_mid));
  SupportPiece pb = support_piece(ob, dir_to_local(b.pose, -n_mid));
  Vec2 va = to_table(a.pose, pa.point);
  Vec2 vb = to_table(b.pose, pb.point);
  return {vb - va, pa.radius + pb.radius};
}

// Witness points: the two support features facing each other along `normal`, paired at the
// middle of the part where they face each other (a point for curved or corner contacts).
void witness_points(const PlacedShape& a, const Outline& oa, const PlacedShape& b, const Outline& ob,
                    DistanceOutput& out) {
  Segment fa = support_feature(oa, dir_to_local(a.pose, out.normal), kFeatureTolerance);
  Segment fb = support_feature(ob, dir_to_local(b.pose, -out.normal), kFeatureTolerance);
  fa = {to_table(a.pose, fa.p0), to_table(a.pose, fa.p1)};
  fb = {to_table(b.pose, fb.p0), to_table(b.pose, fb.p1)};
  Vec2 t = perp(out.normal);
  auto range = [&](const Segment& s) {
    double t0 = dot(t, s.p0), t1 = dot(t, s.p1);
    return std::array<double, 2>{std::min(t0, t1), std::max(t0, t1)};
  };
  auto ra = range(fa), rb = range(fb);
  double middle = (std::max(ra[0], rb[0]) + std::min(ra[1], rb[1])) / 2;
  auto point_at = [&](const Segment& s, std::array<double, 2> r) {
    double t0 = dot(t, s.p0), t1 = dot(t, s.p1);
    if (t1 - t0 == 0) return s.p0;
    double u = (std::clamp(middle, r[0], r[1]) - t0) / (t1 - t0);
    return s.p0 + u * (s.p1 - s.p0);
  };
  out.point_a = point_at(fa, ra);
  out.point_b = point_at(fb, rb);
}

}  // namespace

DistanceOutput signed_distance(const PlacedShape& a, const PlacedShape& b) {
  const Outline oa = make_outline(a.shape);
  const Outline ob = make_outline(b.shape);

  // 1. The directions n where a support piece changes: A's breaks, and B's breaks turned round
  //    (B is probed in direction -n).
  std::array<Break, 16> breaks;
  int count = 0;
  std::array<Vec2, 8> local;
  int na = support_breaks(oa, local);
  for (int i = 0; i < na; ++i) {
    Vec2 n = dir_to_table(a.pose, local[i]);
    breaks[count++] = {angle_of(n), n};
  }
  int nb = support_breaks(ob, local);
  for (int i = 0; i < nb; ++i) {
    Vec2 n = -dir_to_table(b.pose, local[i]);
    breaks[count++] = {angle_of(n), n};
  }
  std::sort(breaks.begin(), breaks.begin() + count, [](const Break& x, const Break& y) { return x.angle < y.angle; });

  DistanceOutput out;
  out.distance = -1e300;
  auto consider = [&](const Piecewise& p, Vec2 n) {
    double s = p.at(n);
    if (s > out.distance) {
      out.distance = s;
      out.normal = n;
    }
  };

  if (count == 0) {
    // Two circles: one piece all round; the maximum is along the line of centres.
    Piecewise p = piece_between(a, oa, b, ob, Vec2{1, 0});
    consider(p, normalized(p.v));
    out.iterations = 1;
  } else {
    // 2. On each interval between consecutive breaks, maximise n.V - C in closed form.
    for (int i = 0; i < count; ++i) {
      const Break& lo = breaks[i];
      const Break& hi = breaks[(i + 1) % count];
      double width = hi.angle - lo.angle;
      if (i + 1 == count) width += kTwoPi;  // the interval that wraps round
      if (width <= 0) continue;             // coincident breaks
      double mid_angle = lo.angle + width / 2;
      Piecewise p = piece_between(a, oa, b, ob, {std::cos(mid_angle), std::sin(mid_angle)});
      consider(p, lo.n);
      consider(p, hi.n);
      if (length_squared(p.v) > 0) {
        double offset = angle_of(p.v) - lo.angle;
        offset -= kTwoPi * std::floor(offset / kTwoPi);
        if (offset < width) consider(p, normalized(p.v));
      }
      ++out.iterations;
    }
  }

  // 3. Witness points on the features that realise the maximum.
  witness_points(a, oa, b, ob, out);
  return out;
}

}  // namespace diskref::geom
