#include "vision/track_evaluation.h"

#include <cmath>
#include <unordered_map>

#include <fmt/format.h>

#include "engine/geometry/vec2.h"

namespace diskref::vision {
namespace {

void add_pose_error(KindFigures& k, double position_mm, double heading_deg) {
  ++k.pose_samples;
  k.position_sum2 += position_mm * position_mm;
  k.heading_sum2 += heading_deg * heading_deg;
  k.position_max = std::max(k.position_max, position_mm);
  k.heading_max = std::max(k.heading_max, std::fabs(heading_deg));
}

bool has_pose(const model::DiskTrack& d) { return d.x && d.y && d.heading; }

}  // namespace

double KindFigures::position_rms_mm() const { return pose_samples ? std::sqrt(position_sum2 / static_cast<double>(pose_samples)) : 0.0; }
double KindFigures::heading_rms_deg() const { return pose_samples ? std::sqrt(heading_sum2 / static_cast<double>(pose_samples)) : 0.0; }

double TrackEvaluation::fraction_within_1_sigma() const {
  return ratio(within_1_sigma, sigma_axis_samples);
}
double TrackEvaluation::fraction_within_2_sigma() const {
  return ratio(within_2_sigma, sigma_axis_samples);
}

TrackEvaluation evaluate_tracks(const std::vector<model::TrackFrame>& output, const std::vector<model::TrackFrame>& truth,
                                const EvaluationOptions& options) {
  TrackEvaluation e;
  std::unordered_map<long long, const model::TrackFrame*> by_frame;
  for (const auto& f : output) by_frame[f.frame] = &f;
  // The output's previous frame per disk, for "a stale disk never moves".
  std::unordered_map<std::string, model::DiskTrack> previous_output;
  double sigma_sum = 0;

  for (const auto& t : truth) {
    auto it = by_frame.find(t.frame);
    if (it == by_frame.end()) {
      ++e.frames_missing;
      for (const auto& d : t.disks)
        if (d.state == model::TrackState::visible) {
          ++e.by_kind[d.kind].truth_visible;
          ++e.all.truth_visible;
        }
      continue;
    }
    const model::TrackFrame& o = *it->second;
    ++e.frames_compared;
    std::unordered_map<std::string, const model::DiskTrack*> out_disks, truth_disks;
    for (const auto& d : o.disks) out_disks[d.name] = &d;
    for (const auto& d : t.disks) truth_disks[d.name] = &d;

    for (const auto& td : t.disks) {
      auto found = out_disks.find(td.name);
      const model::DiskTrack* od = found == out_disks.end() ? nullptr : found->second;
      if (td.state == model::TrackState::stale) {
        ++e.truth_stale;
        if (od && od->state == model::TrackState::stale) ++e.stale_agreed;
      }
      if (td.state != model::TrackState::visible) continue;
      KindFigures& kind = e.by_kind[td.kind];
      ++kind.truth_visible;
      ++e.all.truth_visible;
      if (!od || od->state != model::TrackState::visible || !has_pose(*od) || !has_pose(td)) continue;
      ++kind.found_visible;
      ++e.all.found_visible;
      if (od->face != td.face) ++e.face_errors;
      const geom::Vec2 out_p{*od->x, *od->y}, true_p{*td.x, *td.y};
      const double distance = geom::distance(out_p, true_p);
      if (distance > options.identity_gate_mm) {
        ++e.misplaced;
        for (const auto& other : t.disks)
          if (other.name != td.name && has_pose(other) &&
              geom::distance(out_p, {*other.x, *other.y}) <= options.identity_gate_mm)
            ++e.identity_errors;
        continue;
      }
      const double heading = geom::angle_difference_deg(*od->heading, *td.heading);
      add_pose_error(kind, distance, heading);
      add_pose_error(e.all, distance, heading);
      if (od->sigma_mm > 0) {
        for (double axis_error : {*od->x - *td.x, *od->y - *td.y}) {
          ++e.sigma_axis_samples;
          if (std::fabs(axis_error) <= od->sigma_mm) ++e.within_1_sigma;
          if (std::fabs(axis_error) <= 2 * od->sigma_mm) ++e.within_2_sigma;
        }
        sigma_sum += od->sigma_mm;
      }
      if (od->motion && td.motion) {
        ++e.motion_samples;
        if (*od->motion == *td.motion) ++e.motion_agreed;
      }
    }
    for (const auto& od : o.disks) {
      auto truth_it = truth_disks.find(od.name);
      if (od.state == model::TrackState::visible &&
          (truth_it == truth_disks.end() || truth_it->second->state != model::TrackState::visible))
        ++e.false_visible;
      if (od.state == model::TrackState::stale) {
        auto prev = previous_output.find(od.name);
        if (prev != previous_output.end() && prev->second.state != model::TrackState::lost && has_pose(prev->second) &&
            has_pose(od) &&
            (*prev->second.x != *od.x || *prev->second.y != *od.y || *prev->second.heading != *od.heading))
          ++e.stale_moved;
      }
      previous_output[od.name] = od;
    }
    if (o.settled && t.settled) {
      ++e.settled_samples;
      if (*o.settled == *t.settled) ++e.settled_agreed;
    }
  }
  e.mean_sigma_mm = e.sigma_axis_samples ? sigma_sum / (static_cast<double>(e.sigma_axis_samples) / 2.0) : 0.0;
  return e;
}

std::string format_evaluation(const TrackEvaluation& e) {
  std::string out =
      fmt::format("frames compared {} (missing from the output: {})\n", e.frames_compared, e.frames_missing);
  for (const auto& [kind, k] : e.by_kind) {
    out += fmt::format("{:<11} visible in {:>6.2f} % of {} truth-visible frames; position RMS {:.3f} mm (max {:.2f}), "
                       "heading RMS {:.3f} deg (max {:.2f})\n",
                       to_string(kind), 100.0 * k.recall(), k.truth_visible, k.position_rms_mm(), k.position_max,
                       k.heading_rms_deg(), k.heading_max);
  }
  out += fmt::format("identity errors {}, misplaced {}, face errors {}, visible when not {}\n", e.identity_errors,
                     e.misplaced, e.face_errors, e.false_visible);
  out += fmt::format("covered (truth stale) {}: output stale in {}; stale poses that moved: {}\n", e.truth_stale,
                     e.stale_agreed, e.stale_moved);
  out += fmt::format("sigma: mean {:.3f} mm; per-axis |error| within 1 sigma {:.1f} %, within 2 sigma {:.1f} % "
                     "(Gaussian: 68.3, 95.4)\n",
                     e.mean_sigma_mm, 100.0 * e.fraction_within_1_sigma(), 100.0 * e.fraction_within_2_sigma());
  if (e.motion_samples || e.settled_samples) {
    out += fmt::format("motion agrees in {:.1f} % of {}; table settled agrees in {:.1f} % of {}\n",
                       100.0 * ratio(e.motion_agreed, e.motion_samples), e.motion_samples,
                       100.0 * ratio(e.settled_agreed, e.settled_samples), e.settled_samples);
  }
  return out;
}

}  // namespace diskref::vision
