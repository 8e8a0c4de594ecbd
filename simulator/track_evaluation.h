#pragma once
// Comparing a tracker's output with ground truth (truth.jsonl from the renderer: what a perfect
// tracker would write), frame by frame. One place for this, used by the tests, `diskref track
// --truth`, and the bench (docs/design/tracker.md).
//
// Frames are matched by `frame`; disks by name. For every truth disk that is `visible`:
//   - recall: the output has it `visible` in that frame (by kind);
//   - position and heading errors (when both are visible and it is where it should be);
//   - identity: the output's disk lies nearer another disk's true place than its own gate;
//   - sigma: each axis' error over the output's sigma_mm, to check it behaves as a 1-sigma figure
//     (a Gaussian puts 68.3 % within 1 sigma and 95.4 % within 2).
// And for disks the truth calls `stale` (covered): whether the output calls them stale too, and
// whether a stale output pose ever moves.
//
// The table's settles (spec §9; both sides apply the same rule, simulator/truth.h): a frame the
// output calls settled while the truth does not is a false settle (the dangerous error: a verdict
// taken mid-move). Each true settle — a truth frame settled after one that was not, or the first
// — has a latency: from it to the first output frame settled at or after it, while the truth stays
// settled; a settle the output never reaches in that time is missed.
//
// Landings (the `landings` extension): each truth landing whose tag was seen is matched with the
// output's landing of the same disk nearest in time (within `landing_match_s`, each used once);
// for those found, the distance between the poses. Output landings matched to none are extra.

#include <array>
#include <map>
#include <string>
#include <vector>

#include "engine/model/track_frame.h"

namespace diskref::simulator {

struct EvaluationOptions {
  // An output pose further than this from its disk's true place is not that disk's measurement
  // (a wrong identity, or a wild detection), mm.
  double identity_gate_mm = 15.0;
  // An output landing belongs to a true one of its disk within this time of it (s); a flip
  // takes longer than this, so landings of one disk are further apart.
  double landing_match_s = 0.25;
};

// a / b as a double (0 when b is 0).
inline double ratio(long long a, long long b) {
  return b ? static_cast<double>(a) / static_cast<double>(b) : 0.0;
}

struct KindFigures {
  long long truth_visible = 0;  // (frame, disk) pairs the truth says are visible
  long long found_visible = 0;  // ... that the output has visible too
  long long pose_samples = 0;   // ... and within the identity gate (errors below are over these)
  double position_sum2 = 0;     // mm^2 (distance)
  double heading_sum2 = 0;      // deg^2
  double position_max = 0;
  double heading_max = 0;
  double recall() const { return truth_visible ? ratio(found_visible, truth_visible) : 1.0; }
  double position_rms_mm() const;
  double heading_rms_deg() const;
};

struct SettleFigures {
  long long false_settled = 0;      // frames settled in the output, not in the truth
  long long truth_settled = 0;      // frames settled in the truth
  long long agreed_settled = 0;     // ... and in the output
  std::vector<double> latencies_s;  // one per true settle the output reached
  long long missed = 0;             // true settles the output never reached before the truth unsettled
  double median_latency_s() const;
  double max_latency_s() const;
};

struct LandingFigures {
  long long truth = 0;           // true landings
  long long truth_seen = 0;      // ... whose tag was visible while the disk lay there
  long long found = 0;           // ... of those, matched by an output landing
  long long extra = 0;           // output landings matched to no true one
  long long face_errors = 0;     // found with the wrong face
  long long within_2_sigma = 0;  // found within 2 sigma (both axes)
  double position_max_mm = 0;    // over the found
  double position_sum2 = 0;
  double position_rms_mm() const;
};

struct TrackEvaluation {
  long long frames_compared = 0;
  long long frames_missing = 0;  // truth frames with no output frame
  std::map<model::DiskKind, KindFigures> by_kind;
  KindFigures all;
  long long identity_errors = 0;  // output visible, but at another disk's place
  long long misplaced = 0;        // output visible, beyond the gate from its own true place
  long long face_errors = 0;
  long long false_visible = 0;  // output visible where the truth says it is not (stale/lost/absent)
  long long truth_stale = 0;    // (frame, disk) pairs the truth says are stale
  long long stale_agreed = 0;   // ... and the output too
  long long stale_moved = 0;    // output stale with a pose different from its previous frame's
  // Sigma check over visible pose samples, per axis.
  long long sigma_axis_samples = 0;
  long long within_1_sigma = 0;
  long long within_2_sigma = 0;
  std::array<long long, 2> axis_within_1_sigma{};  // x, y (each over sigma_axis_samples / 2)
  std::array<long long, 2> axis_within_2_sigma{};
  double mean_sigma_mm = 0;
  // The same per rest — a disk lying still in one place (the truth's pose unchanged) for at least
  // kMinRestFrames frames — its mean error over its mean sigma, per axis. A still disk's error
  // hardly changes from frame to frame (the detector's bias for it and the table pose's are one
  // draw each), so the frames weigh a long rest many times over; a rest counts once here.
  static constexpr long long kMinRestFrames = 10;
  long long rests = 0;
  std::array<long long, 2> rest_axis_within_1_sigma{};
  std::array<long long, 2> rest_axis_within_2_sigma{};
  // Extensions, when both sides give them.
  long long motion_samples = 0, motion_agreed = 0;
  long long settled_samples = 0, settled_agreed = 0;
  SettleFigures settles;
  LandingFigures landings;

  double fraction_within_1_sigma() const;
  double fraction_within_2_sigma() const;
  // Per axis (0 = x, 1 = y).
  double axis_fraction_within_1_sigma(int axis) const;
  double axis_fraction_within_2_sigma(int axis) const;
  double rest_axis_fraction_within_1_sigma(int axis) const;
  double rest_axis_fraction_within_2_sigma(int axis) const;
};

TrackEvaluation evaluate_tracks(const std::vector<model::TrackFrame>& output,
                                const std::vector<model::TrackFrame>& truth, const EvaluationOptions& options = {});

// Adds `more`'s counts to `into` (figures over several videos: coverage, landings, settles pooled).
// mean_sigma_mm becomes the mean weighted by samples; maxima the larger.
void accumulate(TrackEvaluation& into, const TrackEvaluation& more);

// A few lines for people: recall per kind, RMS errors, identity, stale, sigma, motion.
std::string format_evaluation(const TrackEvaluation& evaluation);

}  // namespace diskref::simulator
