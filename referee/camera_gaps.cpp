#include "referee/camera_gaps.h"

#include <algorithm>
#include <cmath>

#include "engine/geometry/pose.h"

namespace diskref::referee {
namespace {

// Whether the disk is seen now where the table had it at the last settle (within what a still
// disk's measurement wanders, and on the same face).
bool seen_where_it_lay(const model::DiskTrack& now, const model::TrackFrame& last_settled, const GapWatchOptions& o) {
  const model::DiskTrack* then = model::find_track(last_settled, now.name);
  if (then == nullptr) return false;
  const std::optional<geom::Pose> a = model::pose_of(*then);
  const std::optional<geom::Pose> b = model::pose_of(now);
  if (!a || !b || then->face != now.face) return false;
  const double d = geom::distance(a->position, b->position);
  const double turn = std::fabs(geom::angle_difference_deg(a->heading_deg(), b->heading_deg()));
  return d <= std::max(o.moved_mm, 3 * std::hypot(then->sigma_mm, now.sigma_mm)) && turn <= o.turned_deg;
}

}  // namespace

std::optional<GapSpan> GapWatch::feed(const model::TrackFrame& frame, const model::TrackFrame& last_settled) {
  std::optional<GapSpan> gap;
  if (last_t_ && frame.t - *last_t_ > options_.gap_s) {
    gap = GapSpan{*last_t_, frame.t};
    // Gaps one after another before the table settles are read again together; what was found
    // between them may have moved in the later one.
    if (open_)
      open_->span.to = frame.t;
    else
      open_ = AfterGap{*gap, {}};
    open_->found.clear();
  }
  last_t_ = frame.t;
  if (!open_) return gap;
  for (const model::DiskTrack& d : frame.disks) {
    if (d.state != model::TrackState::visible || !model::pose_of(d)) continue;
    if (std::any_of(open_->found.begin(), open_->found.end(),
                    [&](const FoundDisk& f) { return f.track.name == d.name; }))
      continue;
    // Moving and elsewhere: on its way somewhere (a hand carrying it, or a jump the camera did not
    // see): found once it lies still.
    const bool still = d.motion.value_or(model::Motion::settled) == model::Motion::settled;
    if (still || seen_where_it_lay(d, last_settled, options_)) open_->found.push_back({d, frame.t});
  }
  return gap;
}

std::optional<AfterGap> GapWatch::settled() {
  std::optional<AfterGap> out = std::move(open_);
  open_.reset();
  return out;
}

std::optional<GapSpan> GapWatch::open() const {
  if (!open_) return std::nullopt;
  return open_->span;
}

}  // namespace diskref::referee
