#include "simulator/truth.h"

#include <cmath>

#include "engine/geometry/shape.h"

#include "print/tag_bitmaps.h"
#include "simulator/lens_rays.h"

namespace diskref::simulator {

cv::Point3d top_face_point(const DiskInstant& disk, double thickness, double x, double y) {
  cv::Vec3d p = disk.rotation * cv::Vec3d(x, y, thickness) + disk.translation;
  return {p[0], p[1], p[2]};
}

GroundTruth::GroundTruth(const SceneModel& model, const CameraRig& rig, double lost_after_s, double settle_window_s)
    : model_(model),
      rig_(rig),
      lost_after_s_(lost_after_s),
      settle_window_s_(settle_window_s),
      memory_(model.disks.size()) {}

namespace {

// Spacing of the play-area points whose line of sight is tested (mm): finer than a finger.
constexpr double kCoverSampleMm = 4.0;

// Where the table-plane (z = 0) shadow, seen from `eye`, of the box [lo, hi] falls; everywhere
// when some of the box is not below the eye.
cv::Rect2d shadow_from_eye(const cv::Vec3d& eye, const cv::Vec3d& lo, const cv::Vec3d& hi) {
  double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
  for (int k = 0; k < 8; ++k) {
    const cv::Vec3d c((k & 1) ? hi[0] : lo[0], (k & 2) ? hi[1] : lo[1], (k & 4) ? hi[2] : lo[2]);
    const double below = eye[2] - c[2];
    if (below <= 1e-6) return {-1e9, -1e9, 2e9, 2e9};
    const double s = eye[2] / below;  // eye + s (c - eye) lies on the table
    const double x = eye[0] + s * (c[0] - eye[0]), y = eye[1] + s * (c[1] - eye[1]);
    x0 = std::min(x0, x);
    y0 = std::min(y0, y);
    x1 = std::max(x1, x);
    y1 = std::max(y1, y);
  }
  return {x0, y0, x1 - x0, y1 - y0};
}

}  // namespace

bool GroundTruth::play_area_disturbed(const SceneInstant& instant, const SceneInstant* previous) const {
  Candidates what;
  what.board = instant.board.has_value();
  const cv::Vec3d eye = rig_.center_table();
  const geom::Vec2 area = model_.surface->table().play_area_mm;
  const cv::Rect2d play(0, 0, area.x, area.y);
  cv::Rect2d region;  // the part of the play area they can cover
  auto include = [&](const cv::Rect2d& shadow) { region = region.area() > 0 ? (region | shadow) : shadow; };
  for (std::size_t i = 0; i < instant.disks.size(); ++i) {
    const DiskInstant& d = instant.disks[i];
    bool in_motion = d.moving || !d.resting;
    if (previous) {
      in_motion = true;  // unless it lay in the same place a frame ago
      for (const DiskInstant& before : previous->disks)
        if (before.disk == d.disk && cv::norm(before.translation - d.translation) < 1e-9 &&
            cv::norm(before.rotation - d.rotation) < 1e-12)
          in_motion = false;
    }
    if (!in_motion) continue;
    what.disks.push_back(static_cast<int>(i));
    const double r =
        geom::bounding_radius(model_.disks[d.disk].spec().shape) + model_.disks[d.disk].spec().thickness_mm;
    include(shadow_from_eye(eye, d.translation - cv::Vec3d(r, r, r), d.translation + cv::Vec3d(r, r, r)));
  }
  for (std::size_t i = 0; i < instant.hands.size(); ++i) {
    what.hands.push_back(static_cast<int>(i));
    include(shadow_from_eye(eye, instant.hands[i].shape.min_corner, instant.hands[i].shape.max_corner));
  }
  if (what.disks.empty() && what.hands.empty() && !what.board) return false;
  if (what.board) region = play;  // a board is large and tilted: look everywhere
  region &= play;
  if (region.area() <= 0) return false;
  for (double y = region.y; y <= region.y + region.height; y += kCoverSampleMm)
    for (double x = region.x; x <= region.x + region.width; x += kCoverSampleMm) {
      const cv::Vec3d to_point = cv::Vec3d(x, y, 0) - eye;
      const double distance = cv::norm(to_point);
      if (cast_objects(model_, instant, eye, to_point / distance, distance - 1e-3, &what, false)) return true;
    }
  return false;
}

std::vector<cv::Point3d> GroundTruth::tag_corners(const DiskInstant& disk) const {
  const print::DiskAppearance& look = model_.disks[disk.disk];
  const model::TagSpec* tag = look.tag(disk.top_face);
  if (!tag) return {};
  // Tag frame -> disk-local: the tag's +x is the heading turned by -offset.
  double o = -tag->heading_offset_deg * std::numbers::pi / 180;
  double c = std::cos(o), s = std::sin(o), h = tag->size_mm / 2;
  std::vector<cv::Point3d> out;
  // apriltag's order: bottom-left, bottom-right, top-right, top-left of the upright bitmap (its
  // own frame has y down the bitmap); our tag frame has y up the bitmap.
  for (auto [tx, ty] : {std::pair{-h, -h}, std::pair{h, -h}, std::pair{h, h}, std::pair{-h, h}})
    out.push_back(top_face_point(disk, look.spec().thickness_mm, c * tx - s * ty, s * tx + c * ty));
  return out;
}

bool GroundTruth::tag_visible(const SceneInstant& instant, const DiskInstant& disk) const {
  if (!disk.resting) return false;
  const print::DiskAppearance& look = model_.disks[disk.disk];
  const model::TagSpec* tag = look.tag(disk.top_face);
  if (!tag) return false;
  double o = -tag->heading_offset_deg * std::numbers::pi / 180;
  double c = std::cos(o), s = std::sin(o);
  double cell = tag->size_mm / print::kTagBorderCells;
  cv::Vec3d eye = rig_.center_table();
  const cv::Size size = rig_.camera.image_size;
  // Every cell corner and centre of the printed tag must be in view and uncovered.
  for (int i = 0; i <= 2 * print::kTagCells; ++i) {
    for (int j = 0; j <= 2 * print::kTagCells; ++j) {
      double tx = (i / 2.0 - print::kTagCells / 2.0) * cell, ty = (j / 2.0 - print::kTagCells / 2.0) * cell;
      cv::Point3d p = top_face_point(disk, look.spec().thickness_mm, c * tx - s * ty, s * tx + c * ty);
      cv::Vec3d q = rig_.rotation * cv::Vec3d(p.x, p.y, p.z) + rig_.translation;
      if (q[2] <= 0) return false;
      cv::Vec2d ray(q[0] / q[2], q[1] / q[2]);
      cv::Point2d px = pixel_from_ray(rig_.camera, ray);
      // Wholly in view: at least one pixel inside the image's edge.
      if (px.x < 0.5 || px.y < 0.5 || px.x > size.width - 1.5 || px.y > size.height - 1.5) return false;
      auto back = ray_from_pixel(rig_.camera, px);  // a lens model can fold far outside its field
      if (!back || cv::norm(*back - ray) > 1e-6) return false;
      cv::Vec3d to_point = cv::Vec3d(p.x, p.y, p.z) - eye;
      double distance = cv::norm(to_point);
      if (cast_objects(model_, instant, eye, to_point / distance, distance - 1e-3, nullptr, false,
                       static_cast<int>(disk.disk)))
        return false;
    }
  }
  return true;
}

model::TrackFrame GroundTruth::next(long long frame, double t, const SceneInstant& instant) {
  model::TrackFrame out;
  out.frame = frame;
  out.t = t;
  if (!last_disturbed_t_ || play_area_disturbed(instant, previous_ ? &*previous_ : nullptr)) last_disturbed_t_ = t;
  previous_ = instant;
  std::vector<const DiskInstant*> present(memory_.size(), nullptr);
  for (const DiskInstant& d : instant.disks) present[d.disk] = &d;
  for (std::size_t i = 0; i < memory_.size(); ++i) {
    Memory& m = memory_[i];
    const DiskInstant* d = present[i];
    if (d && tag_visible(instant, *d)) {
      m.seen = true;
      m.last_seen_t = t;
      m.x = d->translation[0];
      m.y = d->translation[1];
      m.heading = geom::wrap_degrees(std::atan2(d->rotation(1, 0), d->rotation(0, 0)) * 180 / std::numbers::pi);
      m.face = d->top_face;
      model::DiskTrack track;
      track.name = model_.disks[i].spec().name;
      track.kind = model_.disks[i].spec().kind;
      track.x = m.x;
      track.y = m.y;
      track.heading = m.heading;
      track.face = m.face;
      track.state = model::TrackState::visible;
      track.motion = d->moving ? model::Motion::moving : model::Motion::settled;
      out.disks.push_back(track);
      continue;
    }
    if (!m.seen) continue;
    model::DiskTrack track;
    track.name = model_.disks[i].spec().name;
    track.kind = model_.disks[i].spec().kind;
    track.face = m.face;
    double age = t - m.last_seen_t;
    if (age >= lost_after_s_) {
      track.state = model::TrackState::lost;
    } else {
      track.state = model::TrackState::stale;
      track.x = m.x;
      track.y = m.y;
      track.heading = m.heading;
      track.age_s = age;
      track.motion = (d && d->moving) ? model::Motion::moving : model::Motion::settled;
    }
    out.disks.push_back(track);
  }
  out.settled = t - *last_disturbed_t_ >= settle_window_s_ - 1e-9;
  // Still: the same rule without the window (a perfect tracker explains every disk, so nothing is
  // foreign, and a hand over the play area always disturbs it).
  out.still_s = t - *last_disturbed_t_;
  return out;
}

}  // namespace diskref::simulator
