#include "vision/disk_tracker.h"

#include <algorithm>
#include <cmath>

namespace diskref::vision {

namespace {

// Observations claiming less noise than this (mm) are weighted as if they had this much: one
// perfect-looking frame must not outweigh all the others.
constexpr double kMinNoiseMm = 1e-3;

}  // namespace

void DiskTracker::StillWindow::add(const DiskObservation& o) {
  const geom::Vec2 p = o.table_from_disk.position;
  if (count == 0) origin = p;
  const double sigma = std::max(o.noise_sigma_mm, kMinNoiseMm);
  const double w = 1.0 / (sigma * sigma);
  const geom::Vec2 d = p - origin;
  ++count;
  sum_w += w;
  sum_w2 += w * w;
  sum_wx += w * d.x;
  sum_wy += w * d.y;
  sum_wxx += w * d.x * d.x;
  sum_wyy += w * d.y * d.y;
  // Headings are averaged as unit vectors: no wrap-around at 0/360.
  sum_wcos += w * o.table_from_disk.rotation.c;
  sum_wsin += w * o.table_from_disk.rotation.s;
}

geom::Pose DiskTracker::StillWindow::mean() const {
  const double norm = std::hypot(sum_wcos, sum_wsin);
  geom::Rot rotation = norm > 0 ? geom::Rot{sum_wcos / norm, sum_wsin / norm} : geom::Rot{};
  return {origin + geom::Vec2{sum_wx / sum_w, sum_wy / sum_w}, rotation};
}

// The error of a mean of n frames has two parts: what changes from frame to frame (sensor noise,
// compression), which averaging divides down, and what stays (the pixel grid under a still tag,
// lens and pose errors), which it does not. The window's own spread `s2` measures the first; the
// per-frame noise estimate (harmonic mean of the frames' variances) bounds the sum; the rest is
// taken as fixed.
double DiskTracker::StillWindow::mean_noise_sigma() const {
  const double n = count;
  const double per_frame2 = n / sum_w;
  if (count < 2) return std::sqrt(per_frame2);
  const double n_eff = sum_w * sum_w / sum_w2;  // effective number of frames under the weights
  const double mx = sum_wx / sum_w, my = sum_wy / sum_w;
  const double correction = n_eff > 1 ? n_eff / (n_eff - 1) : 1.0;
  const double var_x = std::max(0.0, sum_wxx / sum_w - mx * mx) * correction;
  const double var_y = std::max(0.0, sum_wyy / sum_w - my * my) * correction;
  const double s2 = (var_x + var_y) / 2;
  return std::sqrt(std::max(per_frame2 - s2, 0.0) + s2 / n_eff);
}

DiskTracker::DiskTracker(model::DiskRegistry registry, DiskTrackerOptions options)
    : registry_(std::move(registry)), options_(options) {
  memory_.resize(registry_.disks().size());
  estimates_.resize(registry_.disks().size());
}

bool DiskTracker::is_motion(const DiskMemory& memory, const DiskObservation& o) const {
  const geom::Pose mean = memory.window.mean();
  const double mean_noise = memory.window.mean_noise_sigma();
  const double noise_mm = std::hypot(o.noise_sigma_mm, mean_noise);
  const double floor_mm = options_.still_floor_px / o.pixels_per_mm;
  // Per axis noise -> distance in the plane: the sqrt(2) of a 2-D offset.
  const double tolerance_mm = std::max(options_.still_sigmas * noise_mm * std::sqrt(2.0), floor_mm);
  if (geom::distance(mean.position, o.table_from_disk.position) > tolerance_mm) return true;

  // The same for the heading; the floor is a corner of the tag moving still_floor_px.
  const double corner_radius_mm = std::max(o.tag_size_mm, 1e-3) / std::sqrt(2.0);
  const double floor_deg = geom::rad_to_deg(floor_mm / corner_radius_mm);
  const double tolerance_deg = std::max(options_.still_sigmas * o.heading_noise_deg * std::sqrt(2.0), floor_deg);
  return std::fabs(geom::angle_difference_deg(mean.heading_deg(), o.table_from_disk.heading_deg())) > tolerance_deg;
}

model::TrackFrame DiskTracker::update(long long frame, double t, std::span<const DiskObservation> observations,
                               bool table_quiet, std::span<const std::size_t> unchanged) {
  std::vector<const DiskObservation*> seen(memory_.size(), nullptr);
  for (const auto& o : observations)
    if (o.disk_index < seen.size() && !seen[o.disk_index]) seen[o.disk_index] = &o;
  std::vector<bool> same(memory_.size(), false);
  for (std::size_t i : unchanged)
    if (i < same.size()) same[i] = true;

  model::TrackFrame out;
  out.frame = frame;
  out.t = t;
  if (!table_quiet) last_table_change_t_ = t;
  bool all_settled = t - last_table_change_t_ >= options_.settle_time_s;
  for (std::size_t i = 0; i < memory_.size(); ++i) {
    DiskMemory& m = memory_[i];
    DiskEstimate& e = estimates_[i];
    const model::DiskSpec& spec = registry_.disks()[i];

    if (const DiskObservation* o = seen[i]) {
      const bool first_sight = !e.ever_seen || e.state == model::TrackState::lost;
      const bool flipped = e.ever_seen && o->face != e.face;
      if (first_sight || flipped || is_motion(m, *o)) {
        // A disk first seen has given no sign of moving; a flip or a jump is motion.
        if (!first_sight) m.last_motion_t = t;
        if (e.ever_seen && t > e.last_seen_t && t - e.last_seen_t < 0.5)
          e.velocity_mm_s = (o->table_from_disk.position - e.last_observed.position) / (t - e.last_seen_t);
        else
          e.velocity_mm_s = {};
        m.window = {};
      } else {
        e.velocity_mm_s = {};
      }
      m.window.add(*o);
      e.ever_seen = true;
      e.state = model::TrackState::visible;
      e.face = o->face;
      e.last_observed = o->table_from_disk;
      e.last_seen_t = t;
      m.reported = m.window.mean();
      const double noise = m.window.mean_noise_sigma();
      m.reported_sigma_mm = std::hypot(noise, o->calibration_sigma_mm);
      m.motion = t - m.last_motion_t < options_.settle_time_s ? model::Motion::moving : model::Motion::settled;
      e.motion = m.motion;
    } else if (same[i] && e.state == model::TrackState::visible && m.motion == model::Motion::settled) {
      // Seen again, the same picture: visible where it was, nothing new to average.
      e.last_seen_t = t;
    } else if (e.ever_seen) {
      e.state = t - e.last_seen_t > options_.lost_after_s ? model::TrackState::lost : model::TrackState::stale;
      e.velocity_mm_s = {};
    }
    if (!e.ever_seen) continue;

    model::DiskTrack track;
    track.name = spec.name;
    track.kind = spec.kind;
    track.face = e.face;
    track.state = e.state;
    track.sigma_mm = m.reported_sigma_mm;
    if (e.state != model::TrackState::lost) {
      track.x = m.reported.position.x;
      track.y = m.reported.position.y;
      track.heading = m.reported.heading_deg();
      track.motion = m.motion;
    }
    if (e.state == model::TrackState::stale) track.age_s = t - e.last_seen_t;
    if (e.state == model::TrackState::visible && m.motion == model::Motion::moving) all_settled = false;
    out.disks.push_back(std::move(track));
  }
  out.settled = all_settled;
  return out;
}

}  // namespace diskref::vision
