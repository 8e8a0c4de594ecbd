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

// Points of a support feature within this of the farthest are treated as one flat (witness
// points only; the distance value itself does not depend on it).
constexpr double kFeatureTolerance = 1e-9;

// A monotone stand-in for the angle of a direction, in [0, 4) counter-clockwise from +x (one unit
// per quarter turn): orders directions exactly like atan2 without any trigonometry.
double pseudo_angle(Vec2 v) {
  double s = std::fabs(v.x) + std::fabs(v.y);
  if (s == 0) return 0;
  double t = v.y / s;  // in [-1, 1]
  return v.x >= 0 ? (t >= 0 ? t : 4 + t) : 2 - t;
}

struct Break {
  double angle;  // pseudo_angle(n)
  Vec2 n;
};

// The separation along n on one interval between breaks: s(n) = n.V - C.
struct Piecewise {
  Vec2 v;
  double c;
  double at(Vec2 n) const { return dot(n, v) - c; }
};

// The outline turned into the table frame's orientation (still about the shape's centre), so the
// per-interval work needs no rotations.
Outline turned(Outline o, Rot q) {
  for (int i = 0; i < o.corner_count; ++i) {
    o.corners[i] = rotate(q, o.corners[i]);
    o.edge_normals[i] = rotate(q, o.edge_normals[i]);
  }
  return o;
}

// The smallest support value over all directions (the inner radius about the centre): a lower
// bound on h used to skip intervals that cannot hold the maximum.
double min_support(const Outline& o) {
  if (o.corner_count == 0) return o.arc_radius;
  double m = o.arc_radius > 0 ? o.arc_radius : 1e300;
  for (int i = 0; i < o.corner_count; ++i)
    if (!o.edge_is_arc[i]) m = std::min(m, dot(o.edge_normals[i], o.corners[i]));
  return m;
}

// Whether direction `v` (pseudo-angle pv) lies in the interval starting at `lo` of `width`.
bool inside(double pv, double lo, double width) {
  double offset = pv - lo;
  if (offset < 0) offset += 4;
  return offset < width;
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
  const Outline ta = turned(oa, a.pose.rotation);
  const Outline tb = turned(ob, b.pose.rotation);
  const Vec2 centres = b.pose.position - a.pose.position;

  // 1. The directions n where a support piece changes: A's breaks, and B's breaks turned round
  //    (B is probed in direction -n).
  std::array<Break, 16> breaks;
  int count = 0;
  std::array<Vec2, 8> local;
  int na = support_breaks(ta, local);
  for (int i = 0; i < na; ++i) breaks[count++] = {pseudo_angle(local[i]), local[i]};
  int nb = support_breaks(tb, local);
  for (int i = 0; i < nb; ++i) breaks[count++] = {pseudo_angle(-local[i]), -local[i]};
  // Insertion sort: each shape's breaks already come in counter-clockwise order.
  for (int i = 1; i < count; ++i)
    for (int j = i; j > 0 && breaks[j].angle < breaks[j - 1].angle; --j) std::swap(breaks[j], breaks[j - 1]);

  DistanceOutput out;
  out.distance = -1e300;
  auto consider = [&](const Piecewise& p, Vec2 n) {
    double s = p.at(n);
    if (s > out.distance) {
      out.distance = s;
      out.normal = n;
    }
  };
  auto piece_at = [&](Vec2 n) {
    SupportPiece pa = support_piece(ta, n);
    SupportPiece pb = support_piece(tb, -n);
    return Piecewise{centres + pb.point - pa.point, pa.radius + pb.radius};
  };

  if (count == 0) {
    // Two circles: one piece all round; the maximum is along the line of centres.
    Piecewise p = piece_at(Vec2{1, 0});
    consider(p, normalized(p.v));
    out.iterations = 1;
  } else {
    // 2. On each interval between consecutive breaks, maximise n.V - C in closed form. Start
    //    with the interval facing B, and skip intervals whose bound
    //    max n.(c_B - c_A) - min h_A - min h_B cannot beat the best so far.
    const double floor_c = min_support(ta) + min_support(tb);
    const double pc = pseudo_angle(centres);
    int first = 0;
    for (int i = 0; i < count; ++i) {
      double width = breaks[(i + 1) % count].angle - breaks[i].angle + (i + 1 == count ? 4 : 0);
      if (width > 0 && inside(pc, breaks[i].angle, width)) first = i;
    }
    for (int k = 0; k < count; ++k) {
      const int i = (first + k) % count;
      const Break& lo = breaks[i];
      const Break& hi = breaks[(i + 1) % count];
      double width = hi.angle - lo.angle;
      if (i + 1 == count) width += 4;  // the interval that wraps round
      if (width <= 0) continue;        // coincident breaks
      double bound = std::max(dot(lo.n, centres), dot(hi.n, centres));
      if (inside(pc, lo.angle, width)) bound = length(centres);
      if (bound - floor_c <= out.distance) continue;
      // A direction strictly inside the interval: the bisector of its ends (turned round when
      // the interval spans more than half a turn; square to lo when exactly half a turn).
      Vec2 sum = lo.n + hi.n;
      Vec2 mid = width < 2 ? sum : (width > 2 && length_squared(sum) > 0 ? -sum : perp(lo.n));
      Piecewise p = piece_at(normalized(mid));
      consider(p, lo.n);
      consider(p, hi.n);
      if (length_squared(p.v) > 0 && inside(pseudo_angle(p.v), lo.angle, width)) consider(p, normalized(p.v));
      ++out.iterations;
    }
  }

  // 3. Witness points on the features that realise the maximum.
  witness_points(a, oa, b, ob, out);
  return out;
}

}  // namespace diskref::geom
