#include "referee/settle_watch.h"

#include <algorithm>
#include <cmath>

#include "engine/geometry/pose.h"

namespace diskref::referee {

DiskMotion& SettleWatch::motion_of(const std::string& name, double t) {
  auto it = std::find_if(motions_.begin(), motions_.end(), [&](const DiskMotion& m) { return m.name == name; });
  if (it != motions_.end()) return *it;
  motions_.push_back({name, t, {}});
  return motions_.back();
}

bool SettleWatch::counters_changed(const model::TrackFrame& frame) const {
  for (const model::DiskTrack& d : frame.disks) {
    if (d.kind != model::DiskKind::counter || !model::pose_of(d)) continue;
    auto it = std::find_if(counters_at_settle_.begin(), counters_at_settle_.end(),
                           [&](const auto& c) { return c.first == d.name; });
    if (it == counters_at_settle_.end()) return true;  // not on the table then
    const CounterPlace& c = it->second;
    // Beyond what a still counter's measurement wanders.
    if (std::hypot(*d.x - c.x, *d.y - c.y) > 0.5 ||
        std::fabs(geom::angle_difference_deg(*d.heading, c.heading)) > 1.0 || d.face != c.face)
      return true;
  }
  return false;
}

void SettleWatch::remember_counters(const model::TrackFrame& frame) {
  counters_at_settle_.clear();
  for (const model::DiskTrack& d : frame.disks)
    if (d.kind == model::DiskKind::counter && model::pose_of(d))
      counters_at_settle_.push_back({d.name, {*d.x, *d.y, *d.heading, d.face}});
}

void SettleWatch::interrupt() {
  if (settled_) {
    unsettled_since_ = last_t_;
    still_until_ = last_t_;  // inputs were applied up to the last frame before the gap
  }
  settled_ = false;
}

std::optional<TableSettle> SettleWatch::feed(const model::TrackFrame& frame) {
  const double previous_t = last_t_;
  last_t_ = frame.t;
  // A frame that does not say is taken as not settled: the referee never reads a move from a table
  // it cannot vouch for.
  const bool settled = frame.settled.value_or(false);
  if (!settled) {
    if (settled_) {
      unsettled_since_ = frame.t;
      still_until_ = previous_t;
    }
    settled_ = false;
    for (const model::DiskTrack& d : frame.disks)
      if (d.motion == model::Motion::moving) motion_of(d.name, frame.t);
  }
  // Landings are reported once, whatever the frame's state.
  for (const model::Landing& l : frame.landings) motion_of(l.name, l.t).landings.push_back(l);
  if (!settled && seen_settle_ && options_.counter_still_s > 0 && frame.still_s &&
      *frame.still_s >= options_.counter_still_s - 1e-9) {
    const bool hand = std::any_of(frame.foreign.begin(), frame.foreign.end(), [&](const model::ForeignBox& b) {
      return b.width() > options_.max_foreign_mm || b.height() > options_.max_foreign_mm;
    });
    if (!hand && counters_changed(frame)) {
      TableSettle s;
      s.kind = TableSettle::Kind::counters;
      s.t = frame.t;
      s.frame = frame.frame;
      s.unsettled_since = unsettled_since_;
      s.still_until = still_until_;
      s.snapshot = frame;
      remember_counters(frame);
      return s;
    }
  }
  if (!settled || settled_) return std::nullopt;

  settled_ = true;
  settled_since_ = frame.t;
  TableSettle s;
  s.t = frame.t;
  s.frame = frame.frame;
  s.first = !seen_settle_;
  s.unsettled_since = seen_settle_ ? unsettled_since_ : frame.t;
  s.still_until = seen_settle_ ? still_until_ : frame.t;
  s.snapshot = frame;
  s.moved = std::move(motions_);
  motions_.clear();
  seen_settle_ = true;
  remember_counters(frame);
  return s;
}

}  // namespace diskref::referee
