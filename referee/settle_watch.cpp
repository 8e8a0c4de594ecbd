#include "referee/settle_watch.h"

#include <algorithm>

namespace diskref::referee {

DiskMotion& SettleWatch::motion_of(const std::string& name, double t) {
  auto it = std::find_if(motions_.begin(), motions_.end(), [&](const DiskMotion& m) { return m.name == name; });
  if (it != motions_.end()) return *it;
  motions_.push_back({name, t, {}});
  return motions_.back();
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
  return s;
}

}  // namespace diskref::referee
