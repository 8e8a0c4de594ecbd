#include "simulator/track_evaluation.h"

#include <algorithm>
#include <cmath>
#include <optional>
#include <unordered_map>

#include <fmt/format.h>

#include "engine/geometry/vec2.h"

namespace diskref::simulator {
namespace {

void add_pose_error(KindFigures& k, double position_mm, double heading_deg) {
  ++k.pose_samples;
  k.position_sum2 += position_mm * position_mm;
  k.heading_sum2 += heading_deg * heading_deg;
  k.position_max = std::max(k.position_max, position_mm);
  k.heading_max = std::max(k.heading_max, std::fabs(heading_deg));
}

bool has_pose(const model::DiskTrack& d) {
  return d.x && d.y && d.heading;
}

SettleFigures evaluate_settles(const std::unordered_map<long long, const model::TrackFrame*>& output,
                               const std::vector<model::TrackFrame>& truth) {
  SettleFigures s;
  auto output_settled = [&](const model::TrackFrame& t) {
    auto it = output.find(t.frame);
    return it != output.end() && it->second->settled.value_or(false);
  };
  bool waiting = false;      // a true settle the output has not reached yet...
  double waiting_since = 0;  // ...since then
  bool truth_was_settled = false;
  for (const model::TrackFrame& t : truth) {
    const bool truth_settled = t.settled.value_or(false);
    const bool out_settled = output_settled(t);
    if (out_settled && !truth_settled) ++s.false_settled;
    if (truth_settled) {
      ++s.truth_settled;
      if (out_settled) ++s.agreed_settled;
      if (!truth_was_settled) {
        waiting = true;
        waiting_since = t.t;
      }
      if (waiting && out_settled) {
        s.latencies_s.push_back(t.t - waiting_since);
        waiting = false;
      }
    } else if (waiting) {
      ++s.missed;
      waiting = false;
    }
    truth_was_settled = truth_settled;
  }
  if (waiting) ++s.missed;
  return s;
}

LandingFigures evaluate_landings(const std::vector<model::TrackFrame>& output,
                                 const std::vector<model::TrackFrame>& truth, const EvaluationOptions& options) {
  LandingFigures f;
  std::vector<const model::Landing*> found;
  for (const auto& frame : output)
    for (const auto& l : frame.landings) found.push_back(&l);
  std::vector<bool> used(found.size(), false);
  for (const auto& frame : truth)
    for (const auto& l : frame.landings) {
      ++f.truth;
      const bool seen = l.tag_visible.value_or(true);
      if (seen) ++f.truth_seen;
      std::optional<std::size_t> best;
      for (std::size_t k = 0; k < found.size(); ++k) {
        if (used[k] || found[k]->name != l.name || std::fabs(found[k]->t - l.t) > options.landing_match_s) continue;
        if (!best || std::fabs(found[k]->t - l.t) < std::fabs(found[*best]->t - l.t)) best = k;
      }
      if (!best) continue;
      used[*best] = true;
      if (!seen) continue;  // found though the truth says its tag was never in view: not counted either way
      const model::Landing& o = *found[*best];
      ++f.found;
      if (o.face != l.face) ++f.face_errors;
      const double d = geom::distance(geom::Vec2{o.x, o.y}, geom::Vec2{l.x, l.y});
      f.position_sum2 += d * d;
      f.position_max_mm = std::max(f.position_max_mm, d);
      if (std::fabs(o.x - l.x) <= 2 * o.sigma_mm && std::fabs(o.y - l.y) <= 2 * o.sigma_mm) ++f.within_2_sigma;
    }
  for (bool u : used) f.extra += u ? 0 : 1;
  return f;
}

}  // namespace

double KindFigures::position_rms_mm() const {
  return pose_samples ? std::sqrt(position_sum2 / static_cast<double>(pose_samples)) : 0.0;
}
double KindFigures::heading_rms_deg() const {
  return pose_samples ? std::sqrt(heading_sum2 / static_cast<double>(pose_samples)) : 0.0;
}

double SettleFigures::median_latency_s() const {
  if (latencies_s.empty()) return 0;
  std::vector<double> sorted = latencies_s;
  std::sort(sorted.begin(), sorted.end());
  const std::size_t n = sorted.size();
  return n % 2 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
}

double SettleFigures::max_latency_s() const {
  return latencies_s.empty() ? 0 : *std::max_element(latencies_s.begin(), latencies_s.end());
}

double LandingFigures::position_rms_mm() const {
  return found ? std::sqrt(position_sum2 / static_cast<double>(found)) : 0.0;
}

double TrackEvaluation::axis_fraction_within_1_sigma(int axis) const {
  return ratio(axis_within_1_sigma[static_cast<std::size_t>(axis)], sigma_axis_samples / 2);
}
double TrackEvaluation::axis_fraction_within_2_sigma(int axis) const {
  return ratio(axis_within_2_sigma[static_cast<std::size_t>(axis)], sigma_axis_samples / 2);
}

double TrackEvaluation::rest_axis_fraction_within_1_sigma(int axis) const {
  return ratio(rest_axis_within_1_sigma[static_cast<std::size_t>(axis)], rests);
}
double TrackEvaluation::rest_axis_fraction_within_2_sigma(int axis) const {
  return ratio(rest_axis_within_2_sigma[static_cast<std::size_t>(axis)], rests);
}

double TrackEvaluation::fraction_within_1_sigma() const {
  return ratio(within_1_sigma, sigma_axis_samples);
}
double TrackEvaluation::fraction_within_2_sigma() const {
  return ratio(within_2_sigma, sigma_axis_samples);
}

TrackEvaluation evaluate_tracks(const std::vector<model::TrackFrame>& output,
                                const std::vector<model::TrackFrame>& truth, const EvaluationOptions& options) {
  TrackEvaluation e;
  std::unordered_map<long long, const model::TrackFrame*> by_frame;
  for (const auto& f : output) by_frame[f.frame] = &f;
  // The output's previous frame per disk, for "a stale disk never moves".
  std::unordered_map<std::string, model::DiskTrack> previous_output;
  double sigma_sum = 0;
  // Each disk's current rest: where the truth has it, and its output's errors and sigmas summed.
  struct Rest {
    geom::Vec2 at{};
    double heading = 0;
    long long frames = 0;
    double error_x = 0, error_y = 0, sigma = 0;
  };
  std::unordered_map<std::string, Rest> rests;
  auto close_rest = [&e](const Rest& r) {
    if (r.frames < TrackEvaluation::kMinRestFrames) return;
    ++e.rests;
    const double n = static_cast<double>(r.frames), sigma = r.sigma / n;
    const double errors[2] = {r.error_x / n, r.error_y / n};
    for (std::size_t axis = 0; axis < 2; ++axis) {
      if (std::fabs(errors[axis]) <= sigma) ++e.rest_axis_within_1_sigma[axis];
      if (std::fabs(errors[axis]) <= 2 * sigma) ++e.rest_axis_within_2_sigma[axis];
    }
  };

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
        const double axis_errors[2] = {*od->x - *td.x, *od->y - *td.y};
        for (std::size_t axis = 0; axis < 2; ++axis) {
          const double axis_error = std::fabs(axis_errors[axis]);
          ++e.sigma_axis_samples;
          if (axis_error <= od->sigma_mm) {
            ++e.within_1_sigma;
            ++e.axis_within_1_sigma[axis];
          }
          if (axis_error <= 2 * od->sigma_mm) {
            ++e.within_2_sigma;
            ++e.axis_within_2_sigma[axis];
          }
        }
        sigma_sum += od->sigma_mm;
        // The rest it lies in (a moving disk is in none).
        const bool still = !td.motion || *td.motion == model::Motion::settled;
        auto [rest, fresh] = rests.try_emplace(td.name);
        if (!fresh &&
            (!still || geom::distance(rest->second.at, true_p) > 1e-6 || rest->second.heading != *td.heading)) {
          close_rest(rest->second);
          rest->second = {};
          fresh = true;
        }
        if (still) {
          if (fresh) {
            rest->second.at = true_p;
            rest->second.heading = *td.heading;
          }
          ++rest->second.frames;
          rest->second.error_x += axis_errors[0];
          rest->second.error_y += axis_errors[1];
          rest->second.sigma += od->sigma_mm;
        }
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
  for (const auto& [name, rest] : rests) close_rest(rest);
  e.mean_sigma_mm = e.sigma_axis_samples ? sigma_sum / (static_cast<double>(e.sigma_axis_samples) / 2.0) : 0.0;
  e.settles = evaluate_settles(by_frame, truth);
  e.landings = evaluate_landings(output, truth, options);
  return e;
}

namespace {

void accumulate_kind(KindFigures& into, const KindFigures& more) {
  into.truth_visible += more.truth_visible;
  into.found_visible += more.found_visible;
  into.pose_samples += more.pose_samples;
  into.position_sum2 += more.position_sum2;
  into.heading_sum2 += more.heading_sum2;
  into.position_max = std::max(into.position_max, more.position_max);
  into.heading_max = std::max(into.heading_max, more.heading_max);
}

}  // namespace

void accumulate(TrackEvaluation& into, const TrackEvaluation& more) {
  const long long samples = into.sigma_axis_samples + more.sigma_axis_samples;
  if (samples > 0)
    into.mean_sigma_mm = (into.mean_sigma_mm * static_cast<double>(into.sigma_axis_samples) +
                          more.mean_sigma_mm * static_cast<double>(more.sigma_axis_samples)) /
                         static_cast<double>(samples);
  into.frames_compared += more.frames_compared;
  into.frames_missing += more.frames_missing;
  for (const auto& [kind, k] : more.by_kind) accumulate_kind(into.by_kind[kind], k);
  accumulate_kind(into.all, more.all);
  into.identity_errors += more.identity_errors;
  into.misplaced += more.misplaced;
  into.face_errors += more.face_errors;
  into.false_visible += more.false_visible;
  into.truth_stale += more.truth_stale;
  into.stale_agreed += more.stale_agreed;
  into.stale_moved += more.stale_moved;
  into.sigma_axis_samples = samples;
  into.within_1_sigma += more.within_1_sigma;
  into.within_2_sigma += more.within_2_sigma;
  for (std::size_t axis = 0; axis < 2; ++axis) {
    into.axis_within_1_sigma[axis] += more.axis_within_1_sigma[axis];
    into.axis_within_2_sigma[axis] += more.axis_within_2_sigma[axis];
    into.rest_axis_within_1_sigma[axis] += more.rest_axis_within_1_sigma[axis];
    into.rest_axis_within_2_sigma[axis] += more.rest_axis_within_2_sigma[axis];
  }
  into.rests += more.rests;
  into.motion_samples += more.motion_samples;
  into.motion_agreed += more.motion_agreed;
  into.settled_samples += more.settled_samples;
  into.settled_agreed += more.settled_agreed;
  SettleFigures& s = into.settles;
  s.false_settled += more.settles.false_settled;
  s.truth_settled += more.settles.truth_settled;
  s.agreed_settled += more.settles.agreed_settled;
  s.latencies_s.insert(s.latencies_s.end(), more.settles.latencies_s.begin(), more.settles.latencies_s.end());
  s.missed += more.settles.missed;
  LandingFigures& l = into.landings;
  l.truth += more.landings.truth;
  l.truth_seen += more.landings.truth_seen;
  l.found += more.landings.found;
  l.extra += more.landings.extra;
  l.face_errors += more.landings.face_errors;
  l.within_2_sigma += more.landings.within_2_sigma;
  l.position_max_mm = std::max(l.position_max_mm, more.landings.position_max_mm);
  l.position_sum2 += more.landings.position_sum2;
}

std::string format_evaluation(const TrackEvaluation& e) {
  std::string out =
      fmt::format("frames compared {} (missing from the output: {})\n", e.frames_compared, e.frames_missing);
  for (const auto& [kind, k] : e.by_kind) {
    out += fmt::format(
        "{:<11} visible in {:>6.2f} % of {} truth-visible frames; position RMS {:.3f} mm (max {:.2f}), "
        "heading RMS {:.3f} deg (max {:.2f})\n",
        to_string(kind), 100.0 * k.recall(), k.truth_visible, k.position_rms_mm(), k.position_max, k.heading_rms_deg(),
        k.heading_max);
  }
  out += fmt::format("identity errors {}, misplaced {}, face errors {}, visible when not {}\n", e.identity_errors,
                     e.misplaced, e.face_errors, e.false_visible);
  out += fmt::format("covered (truth stale) {}: output stale in {}; stale poses that moved: {}\n", e.truth_stale,
                     e.stale_agreed, e.stale_moved);
  out += fmt::format(
      "sigma: mean {:.3f} mm; per-axis |error| within 1 sigma {:.1f} %, within 2 sigma {:.1f} % "
      "(Gaussian: 68.3, 95.4)\n",
      e.mean_sigma_mm, 100.0 * e.fraction_within_1_sigma(), 100.0 * e.fraction_within_2_sigma());
  out += fmt::format(
      "sigma per axis: x within 1 sigma {:.1f} %, 2 sigma {:.1f} %; y within 1 sigma {:.1f} %, 2 sigma "
      "{:.1f} %\n",
      100.0 * e.axis_fraction_within_1_sigma(0), 100.0 * e.axis_fraction_within_2_sigma(0),
      100.0 * e.axis_fraction_within_1_sigma(1), 100.0 * e.axis_fraction_within_2_sigma(1));
  out += fmt::format(
      "sigma per rest ({} rests of {} frames or more, each its mean error over its mean sigma): x within 1 "
      "sigma {:.1f} %, 2 sigma {:.1f} %; y within 1 sigma {:.1f} %, 2 sigma {:.1f} %\n",
      e.rests, TrackEvaluation::kMinRestFrames, 100.0 * e.rest_axis_fraction_within_1_sigma(0),
      100.0 * e.rest_axis_fraction_within_2_sigma(0), 100.0 * e.rest_axis_fraction_within_1_sigma(1),
      100.0 * e.rest_axis_fraction_within_2_sigma(1));
  out += fmt::format(
      "settles: false-settled frames {}; {} true settles reached, {} missed; latency median {:.0f} ms, "
      "max {:.0f} ms\n",
      e.settles.false_settled, e.settles.latencies_s.size(), e.settles.missed, 1000 * e.settles.median_latency_s(),
      1000 * e.settles.max_latency_s());
  out += fmt::format(
      "landings: {} true ({} with the tag in view), found {}, extra {}, face errors {}; pose error RMS "
      "{:.3f} mm, max {:.3f} mm; within 2 sigma {}\n",
      e.landings.truth, e.landings.truth_seen, e.landings.found, e.landings.extra, e.landings.face_errors,
      e.landings.position_rms_mm(), e.landings.position_max_mm, e.landings.within_2_sigma);
  if (e.motion_samples || e.settled_samples) {
    out += fmt::format("motion agrees in {:.1f} % of {}; table settled agrees in {:.1f} % of {}\n",
                       100.0 * ratio(e.motion_agreed, e.motion_samples), e.motion_samples,
                       100.0 * ratio(e.settled_agreed, e.settled_samples), e.settled_samples);
  }
  return out;
}

}  // namespace diskref::simulator
