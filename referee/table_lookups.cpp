// Small questions the referee asks of a settle and of the books (referee.h): where a disk rests,
// its uncertainty, its pose in the books, the ship to act, the length of a flip.
#include "engine/geometry/shape.h"
#include "referee/referee.h"

namespace diskref::referee {

std::optional<Rest> Referee::rest_of(const std::string& name, const model::TrackFrame& frame) const {
  for (const model::DiskTrack& d : frame.disks)
    if (d.name == name)
      if (const std::optional<geom::Pose> pose = model::pose_of(d)) return Rest{*pose, d.face, d.sigma_mm, frame.t};
  return std::nullopt;
}

double Referee::sigma_of(const std::string& name) const {
  const model::DiskTrack* d = model::find_track(last_settled_, name);
  return d != nullptr ? d->sigma_mm : 0;
}

double Referee::sigma_of_previous(const std::string& name) const {
  const model::DiskTrack* d = model::find_track(previous_settled_, name);
  return d != nullptr ? d->sigma_mm : sigma_of(name);
}

std::optional<geom::Pose> Referee::books_pose(const std::string& name) const {
  for (const rules::ShipState& s : state_.ships)
    if (s.id == name && !s.destroyed) return s.pose;
  for (const rules::Torpedo& t : state_.torpedoes)
    if (t.id == name) return t.pose;
  for (const rules::Terrain& t : state_.terrain)
    if (t.id == name && t.in_play) return t.pose;
  return std::nullopt;
}

std::string Referee::ship_to_act() const {
  if (state_.step != rules::Step::execute || state_.phase.stage != rules::PhaseStage::ships) return "";
  if (state_.phase.acting) return *state_.phase.acting;
  if (state_.phase.to_act.empty()) return "";
  return state_.phase.to_act[static_cast<std::size_t>(state_.phase.option)];
}

double Referee::flip_length(const std::string& name) const {
  if (const model::DiskSpec* d = registry_.find(name)) return geom::flip_length(d->shape);
  for (const rules::ShipState& s : state_.ships)
    if (s.id == name) return geom::flip_length(s.shape);
  for (const rules::Torpedo& t : state_.torpedoes)
    if (t.id == name) return geom::flip_length(t.shape);
  return 0;
}

}  // namespace diskref::referee
