// Small questions to the books (books.h): where a disk rests at a settle, its uncertainty, its
// pose in the books, the ship to act.
#include "referee/books.h"

namespace diskref::referee {

std::optional<Rest> rest_of(const std::string& name, const model::TrackFrame& frame) {
  for (const model::DiskTrack& d : frame.disks)
    if (d.name == name)
      if (const std::optional<geom::Pose> pose = model::pose_of(d)) return Rest{*pose, d.face, d.sigma_mm, frame.t};
  return std::nullopt;
}

double Books::sigma_of(const std::string& name) const {
  const model::DiskTrack* d = model::find_track(last_settled, name);
  return d != nullptr ? d->sigma_mm : 0;
}

double Books::sigma_of_previous(const std::string& name) const {
  const model::DiskTrack* d = model::find_track(previous_settled, name);
  return d != nullptr ? d->sigma_mm : sigma_of(name);
}

std::optional<geom::Pose> Books::books_pose(const std::string& name) const {
  for (const rules::ShipState& s : state.ships)
    if (s.id == name && !s.destroyed) return s.pose;
  for (const rules::Torpedo& t : state.torpedoes)
    if (t.id == name) return t.pose;
  for (const rules::Terrain& t : state.terrain)
    if (t.id == name && t.in_play) return t.pose;
  return std::nullopt;
}

std::string Books::ship_to_act() const {
  if (state.step != rules::Step::execute || state.phase.stage != rules::PhaseStage::ships) return "";
  if (state.phase.acting) return *state.phase.acting;
  if (state.phase.to_act.empty()) return "";
  return state.phase.to_act[static_cast<std::size_t>(state.phase.option)];
}

}  // namespace diskref::referee
