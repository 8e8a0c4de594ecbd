#include "brute_force.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace diskref::geom::brute {
namespace {

double sign_dist_circle(double r, Vec2 p) {
  return length(p) - r;
}

double sign_dist_rect(double h, double k, Vec2 p) {
  double qx = std::fabs(p.x) - h, qy = std::fabs(p.y) - k;
  return std::hypot(std::max(qx, 0.0), std::max(qy, 0.0)) + std::min(std::max(qx, qy), 0.0);
}

// A disk of radius r cut by the flats |x| = w: the nearest of its four boundary pieces.
double sign_dist_flatted(double r, double w, Vec2 p) {
  double k = std::sqrt(std::max(0.0, r * r - w * w));
  double ax = std::fabs(p.x), ay = std::fabs(p.y);
  double to_flat = std::hypot(ax - w, std::max(0.0, ay - k));
  double len = length(p);
  double to_arc;
  if (len == 0) {
    to_arc = r;
  } else if (r * ax / len <= w) {
    to_arc = std::fabs(len - r);  // the radial projection lands on an arc
  } else {
    to_arc = std::hypot(ax - w, ay - k);  // else the arc's nearest end, a corner
  }
  double d = std::min(to_flat, to_arc);
  bool inside = len <= r && ax <= w;
  return inside ? -d : d;
}

}  // namespace

Vec2 outline_point_local(const Shape& shape, double t) {
  const double two_pi = 2 * std::numbers::pi;
  double u = t / two_pi;
  u -= std::floor(u);  // fraction of the way round
  if (auto ci = std::get_if<Circle>(&shape)) {
    double r = ci->diameter_mm / 2;
    return {r * std::cos(two_pi * u), r * std::sin(two_pi * u)};
  }
  // Walk the perimeter counter-clockwise from the front-right corner (h, -k): front edge, top,
  // back edge, bottom; the top and bottom are arcs for a flatted circle, straight for a rect.
  double h, k, r = 0;
  bool arcs = false;
  if (auto f = std::get_if<FlattedCircle>(&shape)) {
    r = f->diameter_mm / 2;
    h = f->flat_to_flat_mm / 2;
    k = std::sqrt(std::max(0.0, r * r - h * h));
    arcs = true;
  } else {
    const auto& rect = std::get<Rect>(shape);
    h = rect.length_mm / 2;
    k = rect.width_mm / 2;
  }
  double alpha = std::atan2(k, h);  // polar angle of the corner (h, k)
  double side = arcs ? r * (std::numbers::pi - 2 * alpha) : 2 * h;
  double s = u * (4 * k + 2 * side);
  if (s < 2 * k) return {h, -k + s};
  s -= 2 * k;
  if (s < side) {
    if (!arcs) return {h - s, k};
    double a = alpha + s / r;
    return {r * std::cos(a), r * std::sin(a)};
  }
  s -= side;
  if (s < 2 * k) return {-h, k - s};
  s -= 2 * k;
  if (!arcs) return {-h + s, -k};
  double a = std::numbers::pi + alpha + s / r;
  return {r * std::cos(a), r * std::sin(a)};
}

double point_signed_distance(const PlacedShape& placed, Vec2 point) {
  Vec2 p = to_local(placed.pose, point);
  if (auto c = std::get_if<Circle>(&placed.shape)) return sign_dist_circle(c->diameter_mm / 2, p);
  if (auto f = std::get_if<FlattedCircle>(&placed.shape))
    return sign_dist_flatted(f->diameter_mm / 2, f->flat_to_flat_mm / 2, p);
  const auto& r = std::get<Rect>(placed.shape);
  return sign_dist_rect(r.length_mm / 2, r.width_mm / 2, p);
}

double support_value(const PlacedShape& placed, Vec2 dir) {
  Vec2 u = dir_to_local(placed.pose, dir);
  double local = 0;
  if (auto c = std::get_if<Circle>(&placed.shape)) {
    local = c->diameter_mm / 2;
  } else if (auto f = std::get_if<FlattedCircle>(&placed.shape)) {
    double r = f->diameter_mm / 2, w = f->flat_to_flat_mm / 2;
    double k = std::sqrt(std::max(0.0, r * r - w * w));
    local = w * std::fabs(u.x) + k * std::fabs(u.y);          // best of the four corners
    if (r * std::fabs(u.x) <= w) local = std::max(local, r);  // the arc point r u is on the shape
  } else {
    const auto& r = std::get<Rect>(placed.shape);
    local = r.length_mm / 2 * std::fabs(u.x) + r.width_mm / 2 * std::fabs(u.y);
  }
  return local + dot(dir, placed.pose.position);
}

double gap_by_outline(const PlacedShape& a, const PlacedShape& b) {
  // For disjoint convex shapes the point of A nearest to B lies on A's outline, so searching one
  // outline is enough.
  return minimise_periodic(
      [&](double t) { return point_signed_distance(b, to_table(a.pose, outline_point_local(a.shape, t))); });
}

double signed_distance_by_directions(const PlacedShape& a, const PlacedShape& b) {
  return -minimise_periodic([&](double theta) {
    Vec2 n{std::cos(theta), std::sin(theta)};
    return support_value(a, n) + support_value(b, -n);  // = -(separation along n)
  });
}

bool overlap_by_outline(const PlacedShape& a, const PlacedShape& b) {
  return point_signed_distance(a, b.pose.position) <= 0 || point_signed_distance(b, a.pose.position) <= 0 ||
         gap_by_outline(a, b) <= 0;
}

Shape ShapeSampler::shape(int kind) {
  if (kind == 0) return Circle{uniform(8, 120)};
  if (kind == 1) {
    double d = uniform(8, 120);
    // One in eight is degenerate (flats shrunk to points); the others from nearly round to bars.
    double f = std::uniform_int_distribution<int>(0, 7)(rng) == 0 ? d : d * uniform(0.15, 1.0);
    return FlattedCircle{d, f};
  }
  return Rect{uniform(5, 150), uniform(3, 60)};
}

Pose ShapeSampler::pose_near(Vec2 centre, double max_offset) {
  double r = max_offset * std::sqrt(uniform(0, 1));
  double a = uniform(0, 2 * std::numbers::pi);
  return {{centre.x + r * std::cos(a), centre.y + r * std::sin(a)}, Rot::from_degrees(uniform(0, 360))};
}

}  // namespace diskref::geom::brute
