#include "simulator/hand_model.h"

#include <algorithm>
#include <cmath>

namespace diskref::simulator {
namespace {

cv::Vec3d lift(geom::Vec2 p, double z) {
  return {p.x, p.y, z};
}

void grow(HandShape& hand, const cv::Vec3d& p, double r) {
  for (int k = 0; k < 3; ++k) {
    hand.min_corner[k] = std::min(hand.min_corner[k], p[k] - r);
    hand.max_corner[k] = std::max(hand.max_corner[k], p[k] + r);
  }
}

// Ray/capsule (Inigo Quilez's closed form). Returns the ray parameter or a negative value.
double ray_capsule(const cv::Vec3d& ro, const cv::Vec3d& rd, const Capsule& c) {
  cv::Vec3d ba = c.b - c.a, oa = ro - c.a;
  double baba = ba.dot(ba), bard = ba.dot(rd), baoa = ba.dot(oa), rdoa = rd.dot(oa), oaoa = oa.dot(oa);
  double a = baba - bard * bard;
  double b = baba * rdoa - baoa * bard;
  double cc = baba * oaoa - baoa * baoa - c.radius * c.radius * baba;
  double h = b * b - a * cc;
  if (h >= 0.0 && a > 1e-12) {
    double t = (-b - std::sqrt(h)) / a;
    double y = baoa + t * bard;
    if (y > 0.0 && y < baba) return t;          // body
    cv::Vec3d oc = (y <= 0.0) ? oa : ro - c.b;  // caps
    b = rd.dot(oc);
    cc = oc.dot(oc) - c.radius * c.radius;
    h = b * b - cc;
    if (h > 0.0) return -b - std::sqrt(h);
  } else if (a <= 1e-12) {
    // Ray parallel to the axis: only the caps matter.
    for (const cv::Vec3d& end : {c.a, c.b}) {
      cv::Vec3d oc = ro - end;
      double bb = rd.dot(oc), c2 = oc.dot(oc) - c.radius * c.radius, hh = bb * bb - c2;
      if (hh > 0.0) return -bb - std::sqrt(hh);
    }
  }
  return -1.0;
}

cv::Vec3d capsule_normal(const cv::Vec3d& p, const Capsule& c) {
  cv::Vec3d ba = c.b - c.a, pa = p - c.a;
  double h = std::clamp(pa.dot(ba) / ba.dot(ba), 0.0, 1.0);
  cv::Vec3d n = pa - h * ba;
  return n / std::max(cv::norm(n), 1e-12);
}

double smoothstep(double e0, double e1, double x) {
  double t = std::clamp((x - e0) / (e1 - e0), 0.0, 1.0);
  return t * t * (3 - 2 * t);
}

double segment_distance_2d(double px, double py, const cv::Vec3d& a, const cv::Vec3d& b) {
  double abx = b[0] - a[0], aby = b[1] - a[1];
  double len2 = abx * abx + aby * aby;
  double h = len2 > 1e-12 ? std::clamp(((px - a[0]) * abx + (py - a[1]) * aby) / len2, 0.0, 1.0) : 0.0;
  double dx = px - a[0] - h * abx, dy = py - a[1] - h * aby;
  return std::sqrt(dx * dx + dy * dy);
}

double penumbra_at(double height_above) {
  return 6.0 + 0.18 * height_above;
}

// Quick rejection of a ray that passes farther than `radius` from `center`.
bool ray_misses_sphere(const cv::Vec3d& origin, const cv::Vec3d& direction, const cv::Vec3d& center, double radius) {
  cv::Vec3d oc = center - origin;
  double along = oc.dot(direction);
  double d2 = oc.dot(oc) - along * along;
  return d2 > radius * radius;
}

}  // namespace

HandShape make_hand(const HandPose& pose) {
  HandShape hand;
  hand.min_corner = cv::Vec3d(1e18, 1e18, 1e18);
  hand.max_corner = cv::Vec3d(-1e18, -1e18, -1e18);
  double a = pose.finger_heading_deg * std::numbers::pi / 180;
  geom::Vec2 f{std::cos(a), std::sin(a)};  // towards the fingertips
  geom::Vec2 l{-f.y, f.x};                 // to the hand's left (the thumb of a right hand, palm down)
  double z0 = pose.palm_height_mm;
  geom::Vec2 p = pose.palm_mm;

  Ellipsoid palm;
  palm.center = lift(p, z0 + 14);
  palm.radii = {50, 42, 14};
  palm.axes_from_table = cv::Matx33d(f.x, f.y, 0, l.x, l.y, 0, 0, 0, 1);
  palm.color = pose.skin;
  hand.ellipsoids.push_back(palm);
  grow(hand, palm.center, 50);

  // Four fingers, longest in the middle, curling down towards their tips.
  const double lateral[] = {-25, -8.5, 8.5, 25};
  const double length[] = {52, 70, 74, 66};
  for (int i = 0; i < 4; ++i) {
    geom::Vec2 base = p + 38.0 * f + lateral[i] * l;
    geom::Vec2 tip = base + length[i] * f + 0.12 * lateral[i] * l;
    Capsule finger{lift(base, z0 + 14), lift(tip, z0 + 4), 8.5, pose.skin * 0.97f};
    hand.capsules.push_back(finger);
    grow(hand, finger.a, finger.radius);
    grow(hand, finger.b, finger.radius);
  }
  // The thumb, from the side of the palm, forward and outward.
  Capsule thumb{lift(p - 12.0 * f + 30.0 * l, z0 + 10), lift(p + 38.0 * f + 58.0 * l, z0 + 4), 10.5, pose.skin};
  hand.capsules.push_back(thumb);
  grow(hand, thumb.a, thumb.radius);
  grow(hand, thumb.b, thumb.radius);
  // Wrist and forearm (bare), then the sleeve, rising away from the table.
  cv::Vec3d wrist = lift(p - 55.0 * f, z0 + 16);
  cv::Vec3d elbow = wrist + cv::Vec3d(-f.x, -f.y, 0) * 250.0 + cv::Vec3d(0, 0, 110);
  cv::Vec3d shoulder = elbow + cv::Vec3d(-f.x, -f.y, 0) * 280.0 + cv::Vec3d(0, 0, 260);
  Capsule forearm{wrist, elbow - (elbow - wrist) * 0.45, 27, pose.skin * 0.95f};
  Capsule sleeve{elbow - (elbow - wrist) * 0.5, shoulder, 40, pose.sleeve};
  for (const Capsule& c : {forearm, sleeve}) {
    hand.capsules.push_back(c);
    grow(hand, c.a, c.radius);
    grow(hand, c.b, c.radius);
  }
  double reach = penumbra_at(hand.max_corner[2]) + 1;
  hand.shadow_bounds = cv::Rect2d(hand.min_corner[0] - reach, hand.min_corner[1] - reach,
                                  hand.max_corner[0] - hand.min_corner[0] + 2 * reach,
                                  hand.max_corner[1] - hand.min_corner[1] + 2 * reach);
  return hand;
}

int part_count(const HandShape& hand) {
  return static_cast<int>(hand.capsules.size() + hand.ellipsoids.size());
}

void part_bounds(const HandShape& hand, int part, cv::Vec3d& lo, cv::Vec3d& hi) {
  auto n = static_cast<int>(hand.capsules.size());
  if (part < n) {
    const Capsule& c = hand.capsules[static_cast<std::size_t>(part)];
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::min(c.a[k], c.b[k]) - c.radius;
      hi[k] = std::max(c.a[k], c.b[k]) + c.radius;
    }
    return;
  }
  const Ellipsoid& e = hand.ellipsoids[static_cast<std::size_t>(part - n)];
  double r = std::max({e.radii[0], e.radii[1], e.radii[2]});
  lo = e.center - cv::Vec3d(r, r, r);
  hi = e.center + cv::Vec3d(r, r, r);
}

std::optional<SolidHit> intersect(const HandShape& hand, const cv::Vec3d& origin, const cv::Vec3d& direction,
                                  double max_distance, uint32_t parts) {
  // Quick reject: the ray against the bounding box (slab test).
  double t0 = 0, t1 = max_distance;
  for (int k = 0; k < 3; ++k) {
    if (std::fabs(direction[k]) < 1e-15) {
      if (origin[k] < hand.min_corner[k] || origin[k] > hand.max_corner[k]) return std::nullopt;
      continue;
    }
    double inv = 1.0 / direction[k];
    double a = (hand.min_corner[k] - origin[k]) * inv, b = (hand.max_corner[k] - origin[k]) * inv;
    if (a > b) std::swap(a, b);
    t0 = std::max(t0, a);
    t1 = std::min(t1, b);
    if (t0 > t1) return std::nullopt;
  }
  std::optional<SolidHit> best;
  uint32_t bit = 1;
  for (const Capsule& c : hand.capsules) {
    bool selected = (parts & bit) != 0;
    bit <<= 1;
    if (!selected) continue;
    if (ray_misses_sphere(origin, direction, (c.a + c.b) * 0.5, 0.5 * cv::norm(c.b - c.a) + c.radius)) continue;
    double t = ray_capsule(origin, direction, c);
    if (t > 0 && t < max_distance && (!best || t < best->distance)) {
      cv::Vec3d p = origin + t * direction;
      best = SolidHit{t, capsule_normal(p, c), c.color};
    }
  }
  for (const Ellipsoid& e : hand.ellipsoids) {
    bool selected = (parts & bit) != 0;
    bit <<= 1;
    if (!selected) continue;
    // In the ellipsoid's unit-sphere frame.
    cv::Vec3d o = e.axes_from_table * (origin - e.center), d = e.axes_from_table * direction;
    cv::Vec3d os(o[0] / e.radii[0], o[1] / e.radii[1], o[2] / e.radii[2]);
    cv::Vec3d ds(d[0] / e.radii[0], d[1] / e.radii[1], d[2] / e.radii[2]);
    double a = ds.dot(ds), b = os.dot(ds), c = os.dot(os) - 1.0;
    double h = b * b - a * c;
    if (h < 0) continue;
    double t = (-b - std::sqrt(h)) / a;
    if (t > 0 && t < max_distance && (!best || t < best->distance)) {
      cv::Vec3d ps = os + t * ds;
      cv::Vec3d n_local(ps[0] / e.radii[0], ps[1] / e.radii[1], ps[2] / e.radii[2]);
      cv::Vec3d n = e.axes_from_table.t() * n_local;
      best = SolidHit{t, n / cv::norm(n), e.color};
    }
  }
  return best;
}

float shadow_factor(const HandShape& hand, const cv::Vec3d& point) {
  const cv::Rect2d& b = hand.shadow_bounds;
  if (point[0] < b.x || point[1] < b.y || point[0] > b.x + b.width || point[1] > b.y + b.height) return 1.0f;
  double light = 1.0;
  auto occlude = [&](double distance_outside, double height_above) {
    if (height_above <= 0) return;
    double penumbra = penumbra_at(height_above);
    double s = smoothstep(-penumbra, penumbra, distance_outside);
    light = std::min(light, 0.45 + 0.55 * s);
  };
  for (const Capsule& c : hand.capsules) {
    double d = segment_distance_2d(point[0], point[1], c.a, c.b) - c.radius;
    occlude(d, std::min(c.a[2], c.b[2]) - c.radius - point[2]);
  }
  for (const Ellipsoid& e : hand.ellipsoids) {
    cv::Vec3d q = e.axes_from_table * (point - e.center);
    double r = std::sqrt(q[0] * q[0] / (e.radii[0] * e.radii[0]) + q[1] * q[1] / (e.radii[1] * e.radii[1]));
    double d = (r - 1.0) * std::min(e.radii[0], e.radii[1]);
    occlude(d, e.center[2] - e.radii[2] - point[2]);
  }
  return static_cast<float>(light);
}

cv::Vec3f shade_solid(const SolidHit& hit) {
  const cv::Vec3d light = cv::normalize(cv::Vec3d(0.25, -0.35, 1.0));
  double diffuse = std::max(0.0, hit.normal.dot(light));
  // Wrap-around light and a little rim darkening give the solids some roundness.
  double wrap = 0.5 * (1.0 + hit.normal.dot(light));
  auto k = static_cast<float>(0.18 + 0.55 * diffuse + 0.3 * wrap * wrap);
  return hit.color * std::min(k, 1.05f);
}

}  // namespace diskref::simulator
