#include "vision/disk_tracker.h"

#include <algorithm>
#include <cmath>

#include "engine/geometry/shape.h"

namespace diskref::vision {

namespace {

// Observations claiming less noise than this (mm) are weighted as if they had this much: one
// perfect-looking frame must not outweigh all the others.
constexpr double kMinNoiseMm = 1e-3;

// The weight, in frames, of the corner fit's per-frame noise estimate against the window's own
// scatter: a few frames' scatter is itself noisy, many frames' scatter is the better figure.
constexpr double kPriorNoiseFrames = 3.0;

}  // namespace

void DiskTracker::StillWindow::add(const DiskObservation& o, double t) {
  const geom::Vec2 p = o.table_from_disk.position;
  if (count == 0) {
    origin = p;
    first_t = t;
  }
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
  sum_bias2 += o.bias_sigma_mm * o.bias_sigma_mm;
}

geom::Pose DiskTracker::StillWindow::mean() const {
  const double norm = std::hypot(sum_wcos, sum_wsin);
  geom::Rot rotation = norm > 0 ? geom::Rot{sum_wcos / norm, sum_wsin / norm} : geom::Rot{};
  return {origin + geom::Vec2{sum_wx / sum_w, sum_wy / sum_w}, rotation};
}

// What changes from frame to frame (sensor noise, compression) averages down over the window. Its
// size per frame is the window's own scatter, pooled with the frames' corner-fit estimate (which
// is all there is for one frame); the mean's share is that over the effective number of frames.
double DiskTracker::StillWindow::mean_random_sigma() const {
  const double model2 = count / sum_w;          // harmonic mean of the frames' variances
  const double n_eff = sum_w * sum_w / sum_w2;  // effective number of frames under the weights
  double scatter2 = 0;
  if (count >= 2 && n_eff > 1) {
    const double mx = sum_wx / sum_w, my = sum_wy / sum_w;
    const double correction = n_eff / (n_eff - 1);
    const double var_x = std::max(0.0, sum_wxx / sum_w - mx * mx) * correction;
    const double var_y = std::max(0.0, sum_wyy / sum_w - my * my) * correction;
    scatter2 = (var_x + var_y) / 2;
  }
  const double scatter_dof = std::max(0.0, n_eff - 1);
  const double per_frame2 = (kPriorNoiseFrames * model2 + scatter_dof * scatter2) / (kPriorNoiseFrames + scatter_dof);
  return std::sqrt(per_frame2 / std::max(n_eff, 1.0));
}

double DiskTracker::StillWindow::bias_sigma() const {
  return count ? std::sqrt(sum_bias2 / count) : 0.0;
}

DiskTracker::DiskTracker(model::DiskRegistry registry, DiskTrackerOptions options)
    : registry_(std::move(registry)), options_(options) {
  memory_.resize(registry_.disks().size());
  estimates_.resize(registry_.disks().size());
}

bool DiskTracker::is_motion(const DiskMemory& memory, const DiskObservation& o) const {
  const geom::Pose mean = memory.window.mean();
  const double mean_noise = memory.window.mean_random_sigma();
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

bool DiskTracker::is_landing(std::size_t disk) const {
  const DiskMemory& m = memory_[disk];
  if (!m.last_rest || m.window.count < options_.min_rest_frames) return false;
  if (m.window_face != m.last_rest->face) return true;
  const double flip = geom::flip_length(registry_.disks()[disk].shape);
  return geom::distance(m.window.mean().position, m.last_rest->pose.position) >= 0.5 * flip;
}

model::Landing DiskTracker::landing_of(std::size_t disk) const {
  const DiskMemory& m = memory_[disk];
  const geom::Pose pose = m.window.mean();
  model::Landing l;
  l.name = registry_.disks()[disk].name;
  l.x = pose.position.x;
  l.y = pose.position.y;
  l.heading = pose.heading_deg();
  l.face = m.window_face;
  l.sigma_mm = m.reported_sigma_mm;
  l.t = m.window.first_t;
  return l;
}

void DiskTracker::report_if_landing(std::size_t disk, std::vector<model::Landing>& landings) {
  DiskMemory& m = memory_[disk];
  if (m.landing_reported || !is_landing(disk)) return;
  landings.push_back(landing_of(disk));
  m.landing_reported = true;
}

void DiskTracker::end_rest(std::size_t disk, std::vector<model::Landing>& landings) {
  DiskMemory& m = memory_[disk];
  report_if_landing(disk, landings);
  if (m.window.count >= options_.min_rest_frames) m.last_rest = Rest{m.window.mean(), m.window_face};
  m.window = {};
  m.landing_reported = false;
}

model::TrackFrame DiskTracker::update(long long frame, double t, std::span<const DiskObservation> observations,
                                      std::span<const std::size_t> unchanged, std::span<const std::size_t> lifted) {
  std::vector<const DiskObservation*> seen(memory_.size(), nullptr);
  for (const auto& o : observations)
    if (o.disk_index < seen.size() && !seen[o.disk_index]) seen[o.disk_index] = &o;
  std::vector<bool> same(memory_.size(), false);
  for (std::size_t i : unchanged)
    if (i < same.size()) same[i] = true;
  std::vector<bool> tilted(memory_.size(), false);
  for (std::size_t i : lifted)
    if (i < tilted.size()) tilted[i] = true;

  model::TrackFrame out;
  out.frame = frame;
  out.t = t;
  last_t_ = t;
  for (std::size_t i = 0; i < memory_.size(); ++i) {
    DiskMemory& m = memory_[i];
    DiskEstimate& e = estimates_[i];
    const model::DiskSpec& spec = registry_.disks()[i];

    if (const DiskObservation* o = seen[i]) {
      const bool first_sight = !e.ever_seen || e.state == model::TrackState::lost;
      const bool flipped = e.ever_seen && o->face != e.face;
      if (first_sight || flipped || is_motion(m, *o)) {
        // A disk first seen has given no sign of moving; a flip or a jump is motion.
        if (!first_sight) m.last_motion_t = t, m.motion_from_t = e.last_seen_t;
        if (e.ever_seen && t > e.last_seen_t && t - e.last_seen_t < 0.5)
          e.velocity_mm_s = (o->table_from_disk.position - e.last_observed.position) / (t - e.last_seen_t);
        else
          e.velocity_mm_s = {};
        if (first_sight) {
          // Put down (or back) by hand: where it lay before says nothing about this place.
          m.window = {};
          m.landing_reported = false;
          m.last_rest.reset();
        } else {
          end_rest(i, out.landings);
        }
      } else {
        e.velocity_mm_s = {};
      }
      m.window.add(*o, t);
      m.window_face = o->face;
      e.ever_seen = true;
      e.state = model::TrackState::visible;
      e.face = o->face;
      e.last_observed = o->table_from_disk;
      e.last_seen_t = t;
      m.reported = m.window.mean();
      const double random = m.window.mean_random_sigma();
      const double bias = m.window.bias_sigma();
      m.reported_sigma_mm =
          std::sqrt(random * random + bias * bias + o->calibration_sigma_mm * o->calibration_sigma_mm);
    } else if (same[i] && e.state == model::TrackState::visible && m.motion == model::Motion::settled) {
      // Seen again, the same picture: visible where it was, nothing new to average.
      e.last_seen_t = t;
    } else if (e.ever_seen) {
      if (tilted[i]) {
        // Turning over, or lifted: its rest is over, wherever it lands.
        m.last_motion_t = t, m.motion_from_t = t;
        end_rest(i, out.landings);
      } else if (e.state == model::TrackState::visible) {
        // Gone from view: if it lay still after landing, that landing is all there will be.
        report_if_landing(i, out.landings);
      }
      e.state = t - e.last_seen_t > options_.lost_after_s ? model::TrackState::lost : model::TrackState::stale;
      e.velocity_mm_s = {};
    }
    if (!e.ever_seen) continue;
    m.motion = t - m.last_motion_t < options_.settle_time_s ? model::Motion::moving : model::Motion::settled;
    e.motion = m.motion;

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
    out.disks.push_back(std::move(track));
  }
  return out;
}

std::vector<model::Landing> DiskTracker::settle() {
  std::vector<model::Landing> landings;
  for (std::size_t i = 0; i < memory_.size(); ++i)
    if (estimates_[i].ever_seen && estimates_[i].state != model::TrackState::lost) report_if_landing(i, landings);
  return landings;
}

void DiskTracker::shift_poses(std::span<const geom::Vec2> shifts) {
  for (std::size_t i = 0; i < memory_.size() && i < shifts.size(); ++i) {
    DiskMemory& m = memory_[i];
    m.window.origin = m.window.origin + shifts[i];
    if (m.last_rest) m.last_rest->pose.position = m.last_rest->pose.position + shifts[i];
    estimates_[i].last_observed.position = estimates_[i].last_observed.position + shifts[i];
  }
}

bool DiskTracker::any_moving() const {
  return std::any_of(memory_.begin(), memory_.end(),
                     [&](const DiskMemory& m) { return last_t_ - m.last_motion_t < options_.settle_time_s; });
}

bool DiskTracker::moved_now(double picture_changed_t) const {
  return std::any_of(memory_.begin(), memory_.end(), [&](const DiskMemory& m) {
    return m.last_motion_t == last_t_ && m.motion_from_t >= picture_changed_t;
  });
}

}  // namespace diskref::vision
