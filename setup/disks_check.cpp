#include "setup/disks_check.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include <fmt/format.h>

#include "calibration/camera_plan_view.h"
#include "engine/geometry/vec2.h"
#include "engine/model/camera_plan.h"

namespace diskref::setup {
namespace {

double mean(const std::vector<double>& v) {
  return std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
}

double spread(const std::vector<double>& v) {
  if (v.size() < 2) return 0;
  const double m = mean(v);
  double s = 0;
  for (double x : v) s += (x - m) * (x - m);
  return std::sqrt(s / static_cast<double>(v.size() - 1));
}

// Whether the faces' disagreement stands out: beyond kFaceTurnedDeg, and clearly beyond the flips'
// own scatter.
bool stands_out(const std::vector<double>& d) {
  if (d.empty()) return false;
  const double m = mean(d);
  return std::fabs(m) > kFaceTurnedDeg && std::fabs(m) > 2 * spread(d) / std::sqrt(static_cast<double>(d.size()));
}

const model::TagSpec* tag_on(const model::DiskSpec& disk, model::Face face) {
  for (const model::TagSpec& t : disk.tags)
    if (t.face == face) return &t;
  return nullptr;
}

}  // namespace

DisksCheck::DisksCheck(model::TableSpec table, model::DiskRegistry registry, std::optional<calib::CameraModel> lens)
    : table_(table), registry_(registry), tracker_(std::move(table), std::move(registry), std::move(lens)) {
  for (const model::DiskSpec& d : registry_.disks()) {
    DiskSeen s;
    s.name = d.name;
    s.kind = d.kind;
    s.has_down_tag = tag_on(d, model::Face::down) != nullptr;
    disks_.push_back(s);
  }
  last_rest_.resize(disks_.size());
}

const vision::TrackerResult& DisksCheck::add_frame(const cv::Mat& image, long long index, double t) {
  last_ = tracker_.process(image, index, t);
  for (DiskSeen& s : disks_) s.now.reset();
  for (const model::DiskTrack& track : last_.track.disks) {
    auto i = registry_.index_of(track.name);
    if (!i) continue;
    DiskSeen& s = disks_[*i];
    if (track.state != model::TrackState::lost) s.now = track;
    if (track.state == model::TrackState::visible) (track.face == model::Face::up ? s.seen_up : s.seen_down) = true;
  }
  // A tag read at another size than the registry's: the sheet's scale, or a tag of another kit.
  for (const vision::DetectionRecord& d : last_.detections)
    if (d.rejected == vision::RejectReason::wrong_size && d.disk_index) {
      ++disks_[*d.disk_index].wrong_size;
      disks_[*d.disk_index].wrong_size_mm = d.fitted_size_mm;
    }
  // Each tag's pixels per cell where its disk lies now, through the table pose.
  if (last_.table_pose) {
    const model::CameraView view = calib::camera_view(*last_.table_pose);
    for (std::size_t i = 0; i < disks_.size(); ++i) {
      const auto& now = disks_[i].now;
      if (!now || !now->x || !now->y) continue;
      const model::DiskSpec& spec = registry_.disks()[i];
      const model::TagSpec* tag = tag_on(spec, now->face);
      if (tag == nullptr) continue;
      disks_[i].px_per_cell =
          model::px_per_mm_at(view, *now->x, *now->y, spec.thickness_mm) * tag->size_mm / model::kTagCornerCells;
    }
  }
  // Flips: a rest on the other face than the disk's rest before. The heading read is the new face's
  // tag turned by its offset; a flip over the front edge keeps the heading. Landings (the rests
  // between flips, reported once the tracker is sure of them) first, then this frame's still disks.
  for (const model::Landing& l : last_.track.landings)
    if (auto i = registry_.index_of(l.name)) rest(*i, l.face, l.heading);
  for (const model::DiskTrack& track : last_.track.disks)
    if (track.state == model::TrackState::visible && track.motion == model::Motion::settled && track.heading)
      if (auto i = registry_.index_of(track.name)) rest(*i, track.face, *track.heading);
  return last_;
}

void DisksCheck::rest(std::size_t i, model::Face face, double heading) {
  std::optional<Rest>& before = last_rest_[i];
  if (before && before->face != face) {
    // Down face's heading minus up face's.
    const double d = face == model::Face::down ? geom::angle_difference_deg(heading, before->heading)
                                               : geom::angle_difference_deg(before->heading, heading);
    disks_[i].flip_disagreement_deg.push_back(d);
  }
  before = Rest{face, heading};
}

std::vector<Advice> DisksCheck::advice() const {
  std::vector<Advice> problems, fine;
  std::vector<std::string> unseen, one_face;
  const std::optional<model::CameraPlan> plan =
      last_.table_pose ? std::optional(model::plan_camera(calib::camera_view(*last_.table_pose), table_, &registry_))
                       : std::nullopt;
  for (std::size_t i = 0; i < disks_.size(); ++i) {
    const DiskSeen& s = disks_[i];
    const model::DiskSpec& spec = registry_.disks()[i];
    if (s.wrong_size > 0) {
      const model::TagSpec* tag = tag_on(spec, s.seen_down && !s.seen_up ? model::Face::down : model::Face::up);
      const double printed = tag ? s.wrong_size_mm / tag->size_mm : 1.0;
      problems.push_back(problem(
          fmt::format("{}'s tag reads {:.1f} mm, the registry says {:g} mm: it was printed at {:.0f} % of its size",
                      s.name, s.wrong_size_mm, tag ? tag->size_mm : 0.0, 100 * printed),
          "print the kit again at 100 % (no \"fit to page\") and check the 100 mm bar with a ruler; or it is a tag of "
          "another "
          "kit"));
    }
    if (!s.seen()) {
      unseen.push_back(s.name);
      continue;
    }
    if (s.px_per_cell > 0 && s.px_per_cell < model::kMinPixelsPerCell) {
      std::string fix = "bring the camera closer or use one with more pixels";
      if (plan)
        for (const model::PlanProblem& p : model::plan_problems(*plan, table_, &registry_, std::nullopt))
          if (p.problem.find(s.name + " ") != std::string::npos) fix = p.fix;
      problems.push_back(
          problem(fmt::format("{}: its tag reads at only {:.2f} px per cell where it lies (spec §2 needs {:g}): "
                              "it will be lost now and then",
                              s.name, s.px_per_cell, model::kMinPixelsPerCell),
                  fix));
    }
    if (stands_out(s.flip_disagreement_deg)) {
      const model::TagSpec* down = tag_on(spec, model::Face::down);
      const double m = mean(s.flip_disagreement_deg);
      problems.push_back(problem(
          fmt::format("{}'s down face reads {:.1f} degrees {} its up face (over {} flip{})", s.name, std::fabs(m),
                      m > 0 ? "counter-clockwise of" : "clockwise of", s.flip_disagreement_deg.size(),
                      s.flip_disagreement_deg.size() > 1 ? "s" : ""),
          down ? fmt::format(
                     "glue the down face again, its arrow along the up face's, or set tag {}'s heading_offset_deg "
                     "to {:.1f} (the screen's \"correct the offsets\", or diskref setup disks --apply-offsets)",
                     down->id, down->heading_offset_deg - m)
               : std::string("glue the down face again, its arrow along the up face's")));
    } else if (!s.flip_disagreement_deg.empty()) {
      fine.push_back(ok(fmt::format("{}: both faces agree to {:.1f} degrees over {} flip{}", s.name,
                                    std::fabs(mean(s.flip_disagreement_deg)), s.flip_disagreement_deg.size(),
                                    s.flip_disagreement_deg.size() > 1 ? "s" : "")));
    }
    if (s.has_down_tag && !(s.seen_up && s.seen_down))
      one_face.push_back(fmt::format("{} ({})", s.name, s.seen_up ? "up" : "down"));
  }
  if (!one_face.empty()) {
    std::string list;
    for (std::size_t i = 0; i < one_face.size(); ++i)
      list += (i == 0 ? "" : i + 1 == one_face.size() ? " and " : ", ") + one_face[i];
    fine.push_back(
        note("seen on one face only: " + list,
             "flip each over its front edge once: diskref then reads the other face and checks that both agree"));
  }
  if (!unseen.empty()) {
    std::string list;
    for (std::size_t i = 0; i < unseen.size(); ++i)
      list += (i == 0 ? "" : i + 1 == unseen.size() ? " and " : ", ") + unseen[i];
    std::string fix = "lay each on the play area, tag up, where the camera sees it";
    // A disk the camera cannot read anywhere is said so, before anyone hunts for it.
    if (plan)
      for (const model::PlanProblem& p : model::plan_problems(*plan, table_, &registry_, std::nullopt))
        for (const std::string& name : unseen)
          if (p.problem.find(name + " ") != std::string::npos) {
            fix += "; " + name + " cannot be read by this camera: " + p.fix;
            break;
          }
    problems.push_back(problem(fmt::format("not seen yet: {} ({} of {})", list, unseen.size(), disks_.size()), fix));
  }
  if (!last_.table_pose)
    problems.insert(problems.begin(), problem("the table is not found", "put all four corner markers in the picture"));
  const int seen =
      static_cast<int>(std::count_if(disks_.begin(), disks_.end(), [](const DiskSeen& s) { return s.seen(); }));
  fine.insert(fine.begin(), ok(fmt::format("{} of {} disks seen", seen, disks_.size())));
  problems.insert(problems.end(), fine.begin(), fine.end());
  return problems;
}

bool DisksCheck::ready() const {
  for (const DiskSeen& s : disks_)
    if (!s.seen() || s.wrong_size > 0 || (s.px_per_cell > 0 && s.px_per_cell < model::kMinPixelsPerCell)) return false;
  return true;
}

std::map<int, double> DisksCheck::suggested_offsets() const {
  std::map<int, double> out;
  for (std::size_t i = 0; i < disks_.size(); ++i)
    if (stands_out(disks_[i].flip_disagreement_deg))
      if (const model::TagSpec* down = tag_on(registry_.disks()[i], model::Face::down))
        out[down->id] = -mean(disks_[i].flip_disagreement_deg);
  return out;
}

model::DiskRegistry with_offsets(const model::DiskRegistry& registry, const std::map<int, double>& corrections) {
  std::vector<model::DiskSpec> disks = registry.disks();
  for (model::DiskSpec& d : disks)
    for (model::TagSpec& t : d.tags)
      if (auto c = corrections.find(t.id); c != corrections.end())
        t.heading_offset_deg = std::round(10 * (t.heading_offset_deg + c->second)) / 10;
  return model::DiskRegistry(disks);
}

}  // namespace diskref::setup
