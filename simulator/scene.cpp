#include "simulator/scene.h"

#include <cmath>
#include <limits>

namespace diskref::simulator {
namespace {

const cv::Vec3d kLight = cv::normalize(cv::Vec3d(0.25, -0.35, 1.0));

// Brightness of a flat surface with unit normal n relative to one lying flat on the table.
float flat_shading(const cv::Vec3d& n) {
  double flat = 0.55 + 0.45 * kLight[2];
  return static_cast<float>((0.55 + 0.45 * std::max(0.0, n.dot(kLight))) / flat);
}

struct DiskHit {
  double distance;
  enum class Part { top, bottom, side } part;
  double x, y;  // body frame point
};

std::optional<DiskHit> intersect_disk(const print::DiskAppearance& look, const DiskInstant& d, const cv::Vec3d& origin,
                                      const cv::Vec3d& direction, double max_distance) {
  double thickness = look.spec().thickness_mm;
  cv::Vec3d o = d.rotation.t() * (origin - d.translation);
  cv::Vec3d v = d.rotation.t() * direction;
  if (std::fabs(v[2]) < 1e-12) return std::nullopt;
  double s_top = (thickness - o[2]) / v[2], s_bottom = -o[2] / v[2];
  double s_in = std::min(s_top, s_bottom), s_out = std::max(s_top, s_bottom);
  if (s_out <= 0 || s_in >= max_distance) return std::nullopt;
  if (s_in > 0) {
    double x = o[0] + s_in * v[0], y = o[1] + s_in * v[1];
    if (look.contains(x, y)) return DiskHit{s_in, s_in == s_top ? DiskHit::Part::top : DiskHit::Part::bottom, x, y};
  }
  // The ray may still pass through the disk's side within the slab: look for the first inside
  // point along the chord (the side is at most a few pixels tall; a short search suffices).
  double start = std::max(s_in, 0.0);
  constexpr int kSteps = 6;
  for (int i = 1; i <= kSteps; ++i) {
    double s = start + (s_out - start) * i / kSteps;
    double x = o[0] + s * v[0], y = o[1] + s * v[1];
    if (s < max_distance && look.contains(x, y)) return DiskHit{s, DiskHit::Part::side, x, y};
  }
  return std::nullopt;
}

cv::Vec3f disk_color(const print::DiskAppearance& look, const DiskInstant& d, const DiskHit& hit) {
  switch (hit.part) {
    case DiskHit::Part::top:
      return look.face_color(d.top_face, hit.x, hit.y) * flat_shading(d.rotation * cv::Vec3d(0, 0, 1));
    case DiskHit::Part::bottom:
      return look.face_color(model::other_face(d.top_face), -hit.x, hit.y) *
             flat_shading(d.rotation * cv::Vec3d(0, 0, -1));
    case DiskHit::Part::side: {
      cv::Vec3d n = d.rotation * cv::Vec3d(hit.x, hit.y, 0);
      n /= std::max(cv::norm(n), 1e-9);
      return look.rim_color() * flat_shading(n);
    }
  }
  return {};
}

}  // namespace

float hand_shadows(const SceneInstant& instant, const cv::Vec3d& point, const Candidates* candidates) {
  float light = 1.0f;
  auto apply = [&](const HandInstant& h) { light = std::min(light, shadow_factor(h.shape, point)); };
  if (candidates) {
    for (int i : candidates->hands) apply(instant.hands[static_cast<std::size_t>(i)]);
  } else {
    for (const auto& h : instant.hands) apply(h);
  }
  return light;
}

cv::Matx33d rotation_about_z(double heading_deg) {
  const double a = heading_deg * std::numbers::pi / 180, c = std::cos(a), s = std::sin(a);
  return {c, -s, 0, s, c, 0, 0, 0, 1};
}

void set_flat_pose(DiskInstant& disk, double x, double y, double heading_deg, double z) {
  disk.rotation = rotation_about_z(heading_deg);
  disk.translation = cv::Vec3d(x, y, z);
}

std::optional<ObjectHit> cast_objects(const SceneModel& model, const SceneInstant& instant, const cv::Vec3d& origin,
                                      const cv::Vec3d& direction, double max_distance, const Candidates* candidates,
                                      bool shade, int skip_disk) {
  std::optional<ObjectHit> best;
  double limit = max_distance;

  auto try_disk = [&](const DiskInstant& d) {
    if (static_cast<int>(d.disk) == skip_disk) return;
    const print::DiskAppearance& look = model.disks[d.disk];
    auto hit = intersect_disk(look, d, origin, direction, limit);
    if (!hit) return;
    limit = hit->distance;
    best = ObjectHit{ObjectHit::Kind::disk, static_cast<int>(d.disk), hit->distance, {}};
    if (shade) best->color = disk_color(look, d, *hit);
  };
  auto try_hand = [&](const HandInstant& h, uint32_t parts) {
    auto hit = intersect(h.shape, origin, direction, limit, parts);
    if (!hit) return;
    limit = hit->distance;
    best = ObjectHit{ObjectHit::Kind::hand, h.id, hit->distance, {}};
    if (shade) best->color = shade_solid(*hit);
  };
  auto try_board = [&](const BoardInstant& b) {
    cv::Vec3d normal(b.rotation(0, 2), b.rotation(1, 2), b.rotation(2, 2));
    double denom = normal.dot(direction);
    if (std::fabs(denom) < 1e-12) return;
    double s = normal.dot(b.translation - origin) / denom;
    if (s <= 0 || s >= limit) return;
    cv::Vec3d p = b.rotation.t() * (origin + s * direction - b.translation);
    float r = model.boards[b.board].reflectance(p[0], p[1]);
    if (r < 0) return;
    limit = s;
    best = ObjectHit{ObjectHit::Kind::board, static_cast<int>(b.board), s, {}};
    if (shade) {
      // The printed side faces -z (board_pattern.h); its back is plain grey card.
      bool front = denom > 0;
      float k = flat_shading(front ? -normal : normal);
      float v = front ? r : 0.45f;
      best->color = cv::Vec3f(v, v, v) * k;
    }
  };

  if (candidates) {
    for (int i : candidates->disks) try_disk(instant.disks[static_cast<std::size_t>(i)]);
    for (std::size_t k = 0; k < candidates->hands.size(); ++k)
      try_hand(instant.hands[static_cast<std::size_t>(candidates->hands[k])],
               k < candidates->hand_parts.size() ? candidates->hand_parts[k] : kAllHandParts);
    if (candidates->board && instant.board) try_board(*instant.board);
  } else {
    for (const auto& d : instant.disks) try_disk(d);
    for (const auto& h : instant.hands) try_hand(h, kAllHandParts);
    if (instant.board) try_board(*instant.board);
  }
  return best;
}

std::optional<cv::Vec3d> table_hit(const cv::Vec3d& origin, const cv::Vec3d& direction) {
  if (!(direction[2] < 0) || origin[2] <= 0) return std::nullopt;
  return origin + (-origin[2] / direction[2]) * direction;
}

cv::Vec3f surface_color(const SceneModel& model, const cv::Vec3d& origin, const cv::Vec3d& direction) {
  auto p = table_hit(origin, direction);
  if (!p) return {0.05f, 0.05f, 0.05f};  // looking above the horizon: a dark room
  cv::Vec3f color;
  if (model.surface->table_color((*p)[0], (*p)[1], color)) return color;
  double floor_distance = (-model.surface->spec().floor_depth_mm - origin[2]) / direction[2];
  cv::Vec3d q = origin + floor_distance * direction;
  return model.surface->floor_color(q[0], q[1]);
}

}  // namespace diskref::simulator
