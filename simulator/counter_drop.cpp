#include "simulator/counter_drop.h"

#include <algorithm>
#include <cmath>
#include <numbers>

#include <opencv2/calib3d.hpp>

#include "engine/geometry/distance.h"
#include "engine/random/splitmix64.h"
#include "simulator/scene.h"

namespace diskref::simulator {
namespace {

constexpr double kPi = std::numbers::pi;
constexpr double kGravityMmS2 = 9810;
constexpr double kKeyStepS = 0.005;

// A rotation whose columns are the body's x, y, z axes in the table frame: z the face normal, x the
// heading laid into the face's plane.
cv::Matx33d with_normal(const cv::Vec3d& normal, double heading_deg) {
  const cv::Vec3d n = cv::normalize(normal);
  const double a = heading_deg * kPi / 180;
  cv::Vec3d x(std::cos(a), std::sin(a), 0);
  x -= x.dot(n) * n;
  if (cv::norm(x) < 1e-9) x = cv::Vec3d(0, 0, 1) - n[2] * n;  // the heading along the normal
  x = cv::normalize(x);
  const cv::Vec3d y = n.cross(x);
  return {x[0], y[0], n[0], x[1], y[1], n[1], x[2], y[2], n[2]};
}

// How far below the body's origin its lowest point lies (the lowest rim point of either face).
double lowest_below_origin(const cv::Matx33d& r, double radius, double thickness) {
  const double spread = radius * std::hypot(r(2, 0), r(2, 1));
  return std::max(spread, spread - thickness * r(2, 2));
}

}  // namespace

const char* to_string(CounterRestKind kind) {
  switch (kind) {
    case CounterRestKind::flat:
      return "flat";
    case CounterRestKind::on_disk:
      return "on a disk";
    case CounterRestKind::leaning:
      return "leaning";
    case CounterRestKind::edge:
      return "on its edge";
  }
  return "?";
}

std::optional<CounterRest> counter_rest(const DroppedCounter& drop, const model::DiskSpec& counter,
                                        const std::optional<CounterSupport>& support, std::string& problem) {
  const double r = geom::bounding_radius(counter.shape);
  const double thick = counter.thickness_mm;
  // The face that ends up is the body's top face (the scene draws `top_face` there), so every rest
  // has the body's +z pointing up and away from what it lies on.
  CounterRest rest;
  if (drop.rest == DroppedCounter::Rest::edge) {
    // On its rim: the face normal horizontal, along the heading; its middle plane through (x, y).
    const double a = drop.heading * kPi / 180;
    const cv::Vec3d n(std::cos(a), std::sin(a), 0);
    rest.pose.rotation = with_normal(n, 90.0 + drop.heading);
    rest.pose.translation = cv::Vec3d(drop.x, drop.y, r) - (thick / 2) * n;
    rest.kind = CounterRestKind::edge;
    rest.level = false;
    return rest;
  }
  if (!support) {
    rest.pose.rotation = rotation_about_z(drop.heading);
    rest.pose.translation = cv::Vec3d(drop.x, drop.y, 0);
    rest.kind = CounterRestKind::flat;
    return rest;
  }
  const geom::PlacedShape base{support->shape, geom::Pose::from_degrees(support->x, support->y, support->heading)};
  const double top = support->z + support->thickness_mm;
  if (geom::contains(base, {drop.x, drop.y})) {
    rest.pose.rotation = rotation_about_z(drop.heading);
    rest.pose.translation = cv::Vec3d(drop.x, drop.y, top);
    rest.kind = CounterRestKind::on_disk;
    return rest;
  }
  const geom::PlacedShape self{geom::Circle{2 * r}, geom::Pose::from_degrees(drop.x, drop.y, 0)};
  const geom::DistanceOutput d = geom::signed_distance(self, base);
  if (d.distance >= 0) {
    problem = "does not touch the disk it is to rest on";
    return std::nullopt;
  }
  // Leaning: its far side on the table at p0, its near side on the support's top edge, which lies
  // (r + s) from p0 across, s the distance from its centre to the support's outline.
  const cv::Vec3d u(d.normal.x, d.normal.y, 0);
  const double s = r + d.distance;
  const double tilt = std::atan2(top, r + s);
  const cv::Vec3d up_normal = std::cos(tilt) * cv::Vec3d(0, 0, 1) - std::sin(tilt) * u;
  const cv::Vec3d p0 = cv::Vec3d(drop.x, drop.y, 0) - r * u;
  const cv::Vec3d along = std::cos(tilt) * u + std::sin(tilt) * cv::Vec3d(0, 0, 1);
  const cv::Vec3d bottom_centre = p0 + r * along;
  rest.pose.rotation = with_normal(up_normal, drop.heading);
  rest.pose.translation = bottom_centre;
  rest.kind = CounterRestKind::leaning;
  rest.level = false;
  return rest;
}

std::vector<RigidKey> tumble(const RigidPose& rest, const model::DiskSpec& counter, const cv::Vec3d& release, double t0,
                             double settle_s, std::uint64_t seed) {
  random::SplitMix64 rng(seed * 0x9E3779B97F4A7C15ull + 7);
  const double r = geom::bounding_radius(counter.shape);
  const double thick = counter.thickness_mm;
  // Falling: from the release, spinning about a random axis.
  cv::Vec3d axis(rng.normal(), rng.normal(), rng.normal());
  axis = cv::normalize(axis + cv::Vec3d(1e-6, 0, 0));
  const double spin = rng.uniform(12, 28);  // rad/s
  cv::Matx33d start;
  cv::Rodrigues(cv::Vec3d(rng.uniform(-kPi, kPi), rng.uniform(-kPi, kPi), rng.uniform(-kPi, kPi)) * 0.5, start);
  const double fall_s = std::sqrt(2 * std::max(release[2], 1.0) / kGravityMmS2);
  // It hits the table a little off its resting place, bounces and slides there.
  const double off_angle = rng.uniform(0, 2 * kPi), off_mm = rng.uniform(6, 22);
  const cv::Vec3d landing = rest.translation + off_mm * cv::Vec3d(std::cos(off_angle), std::sin(off_angle), 0);
  const double bounce_mm = rng.uniform(3, 12);
  // After the fall: a bounce that rights it (up to a quarter of a second), then a slide that
  // friction stops (constant deceleration: fast, then still at once, as counters do).
  const double bounce_s = rng.uniform(0.12, 0.25);
  const double slide_s = std::clamp(settle_s - bounce_s, 0.06, rng.uniform(0.08, 0.2));
  const double bounce_share = rng.uniform(0.3, 0.6);  // of the way to its rest covered in the bounce

  auto spun = [&](double t) {
    cv::Matx33d turn;
    cv::Rodrigues(axis * (spin * (t - t0)), turn);
    return turn * start;
  };
  const cv::Matx33d at_landing = spun(t0 + fall_s);
  std::vector<RigidKey> keys;
  const double t_land = t0 + fall_s, t_slide = t_land + bounce_s, t_end = t_slide + slide_s;
  const cv::Vec3d slide_from = landing + bounce_share * (rest.translation - landing);
  for (double t = t0;; t += kKeyStepS) {
    const bool last = t >= t_end;
    if (last) t = t_end;
    RigidKey k;
    k.t = t;
    if (last) {
      k.pose = rest;
    } else if (t < t_land) {
      const double s = (t - t0) / fall_s;
      k.pose.rotation = spun(t);
      k.pose.translation = release + s * (landing - release);
      k.pose.translation[2] = release[2] - 0.5 * kGravityMmS2 * (t - t0) * (t - t0);
    } else if (t < t_slide) {
      const double s = (t - t_land) / bounce_s;
      k.pose.rotation = slerp(at_landing, rest.rotation, 1 - (1 - s) * (1 - s));
      k.pose.translation = landing + s * (slide_from - landing);
      k.pose.translation[2] += bounce_mm * std::sin(kPi * s);
    } else {
      const double s = (t - t_slide) / slide_s;
      k.pose.rotation = rest.rotation;
      k.pose.translation = slide_from + (1 - (1 - s) * (1 - s)) * (rest.translation - slide_from);
    }
    if (!last) {
      // Never through the table.
      const double low = lowest_below_origin(k.pose.rotation, r, thick);
      k.pose.translation[2] = std::max(k.pose.translation[2], low);
    }
    keys.push_back(k);
    if (last) break;
  }
  return keys;
}

cv::Matx33d slerp(const cv::Matx33d& a, const cv::Matx33d& b, double s) {
  cv::Vec3d w;
  cv::Rodrigues(a.t() * b, w);
  cv::Matx33d step;
  cv::Rodrigues(w * s, step);
  return a * step;
}

RigidPose pose_between(const std::vector<RigidKey>& keys, double t) {
  if (keys.empty()) return {};
  if (t <= keys.front().t) return keys.front().pose;
  if (t >= keys.back().t) return keys.back().pose;
  auto it = std::upper_bound(keys.begin(), keys.end(), t, [](double v, const RigidKey& k) { return v < k.t; });
  const RigidKey& b = *it;
  const RigidKey& a = *(it - 1);
  const double s = (t - a.t) / std::max(b.t - a.t, 1e-12);
  RigidPose p;
  p.rotation = slerp(a.pose.rotation, b.pose.rotation, s);
  p.translation = a.pose.translation + s * (b.pose.translation - a.pose.translation);
  return p;
}

}  // namespace diskref::simulator
