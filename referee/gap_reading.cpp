// The table read again after a camera gap (gap_reading.h, camera_gaps.h, spec §9 "Camera gaps"): the gap said in
// the log, and the disks the camera found elsewhere than the last settle before it had them.
#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "referee/gap_reading.h"

namespace diskref::referee {
namespace {

// Where the camera found the disk after the gap: its first sighting lying still (camera_gaps.h),
// else where the settle has it, seen. Nothing when it was not seen at all.
std::optional<Rest> found_after_gap(const AfterGap& gap, const TableSettle& settle, const std::string& name) {
  const model::DiskTrack* track = nullptr;
  double t = settle.t;
  for (const FoundDisk& f : gap.found)
    if (f.track.name == name) track = &f.track, t = f.t;
  if (track == nullptr) {
    track = model::find_track(settle.snapshot, name);
    if (track == nullptr || track->state != model::TrackState::visible) return std::nullopt;
  }
  const std::optional<geom::Pose> pose = model::pose_of(*track);
  if (!pose) return std::nullopt;
  return Rest{*pose, track->face, track->sigma_mm, t};
}

std::string unseen_text(const GapSpan& gap, const std::vector<UnseenMove>& unseen) {
  std::string disks;
  for (const UnseenMove& u : unseen) {
    disks += fmt::format("{}{} {:.1f} mm (turned {:.1f} degrees{})", disks.empty() ? "" : "; ", u.disk, u.distance_mm,
                         std::fabs(u.turned_deg), u.found.face != u.before.face ? ", the other face up" : "");
  }
  return fmt::format(
      "moved while the camera was away ({:.2f} s to {:.2f} s): {}: the books take where {} found; "
      "nothing is read as a move or a flip",
      gap.from, gap.to, disks, unseen.size() == 1 ? "it was" : "they were");
}

}  // namespace

void GapReader::say_camera_gap(const GapSpan& gap) {
  Warning w;
  w.kind = "camera_gap";
  w.text = fmt::format(
      "no frame for {:.2f} s ({:.2f} s to {:.2f} s): what happened on the table meanwhile "
      "was not seen; the table is read again once it settles",
      gap.to - gap.from, gap.from, gap.to);
  rulings_.warn(gap.to, std::move(w)).gap = gap;
}

std::vector<std::string> GapReader::in_question_after_gap(const TableSettle& settle, double from) const {
  std::vector<std::string> out;
  // Seen moving before the camera went away: the stretch goes on across the gap.
  for (const DiskMotion& m : settle.moved)
    if (m.first_motion_t <= from) out.push_back(m.name);
  for (const TableReader::HeldMotion& h : held_motions_) out.push_back(h.disk);
  if (pending_) {
    if (const auto* move = pending_as<PendingMove>(pending_)) out.push_back(move->ship);
    if (const auto* heading = pending_as<PendingHeading>(pending_)) out.push_back(heading->ship);
    if (const auto* runs = pending_as<PendingTorpedoRuns>(pending_))
      for (const auto& [id, run] : runs->runs) out.push_back(id);
    if (const auto* action = pending_as<PendingAction>(pending_)) {
      if (!action->placing.empty()) out.push_back(action->placing);
      for (const std::string& id : action->runs_read) out.push_back(id);
    }
  } else if (books_.state.step == rules::Step::execute && books_.state.phase.stage == rules::PhaseStage::torpedoes) {
    // The torpedoes' runs are due (read_table begins them at this settle).
    for (const rules::Torpedo& t : books_.state.torpedoes) out.push_back(t.id);
  }
  return out;
}

void GapReader::read_after_gap(const TableSettle& settle) {
  const AfterGap& gap = *settle.after_gap;
  const std::vector<std::string> in_question = in_question_after_gap(settle, gap.span.from);
  std::vector<UnseenMove> unseen;
  auto check = [&](const std::string& name) {
    if (std::find(in_question.begin(), in_question.end(), name) != in_question.end()) return;
    // The last settle before the gap (books_.previous_settled: on_settle has moved on to this one).
    const std::optional<Rest> before = rest_of(name, books_.previous_settled);
    const std::optional<Rest> found = found_after_gap(gap, settle, name);
    if (!before || !found) return;
    const double d = geom::distance(before->pose.position, found->pose.position);
    const double turn = geom::angle_difference_deg(found->pose.heading_deg(), before->pose.heading_deg());
    if (d > std::max(options_.moved_mm, 3 * std::hypot(before->sigma_mm, found->sigma_mm)) ||
        std::fabs(turn) > options_.turned_deg || found->face != before->face)
      unseen.push_back({name, *before, *found, d, turn});
  };
  for (const rules::ShipState& s : books_.state.ships)
    if (!s.destroyed) check(s.id);
  for (const rules::Terrain& t : books_.state.terrain)
    if (t.in_play) check(t.id);
  for (const rules::Torpedo& t : books_.state.torpedoes) check(t.id);
  if (unseen.empty()) return;

  Warning w;
  w.kind = "moved_unseen";
  w.disk = unseen.size() == 1 ? unseen.front().disk : "";
  for (const UnseenMove& u : unseen) w.distance_mm = std::max(w.distance_mm, u.distance_mm);
  w.text = unseen_text(gap.span, unseen);
  Entry& e = rulings_.warn(settle.t, std::move(w));
  e.gap = gap.span;
  e.unseen = unseen;
  for (const UnseenMove& u : unseen) {
    rules::Action a;
    a.body = rules::Displaced{u.disk, u.found.pose};
    Observed o;
    o.disk = u.disk;
    o.start = u.before;
    o.end = u.found;
    rulings_.commit(a, settle.t, o, {});
    // Found there: a move from now on starts there, on the face it was found on; the rest it was
    // found in is no landing (read_table, landings_of).
    for (model::DiskTrack& d : books_.previous_settled.disks)
      if (d.name == u.disk) {
        d.x = u.found.pose.position.x;
        d.y = u.found.pose.position.y;
        d.heading = u.found.pose.heading_deg();
        d.face = u.found.face;
        d.sigma_mm = u.found.sigma_mm;
      }
    landings_.found_after_gap(books_.settle_index, u.disk, u.found.t);
  }
}

}  // namespace diskref::referee
