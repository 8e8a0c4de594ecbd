// The table watched through many cameras, lenses and light (simulator/session_variety.h): the
// same moments of play — three flips, a hand held still, a torpedo flipped once, a placement, the
// template laid and lifted — rendered with their exact truth and tracked as `diskref track` does.
// What the referee relies on is checked on every variant: the table is never called settled while
// the truth says it is not, every settle is reached soon after the truth's, every landing whose tag
// was in view is reported where it was, and sigma means what it says over all the renders.
//
// The renders are made once and kept in the build tree (DISKREF_WATCH_RENDERS, as the bench's
// --renders keeps them): a render of the family takes minutes on two cores, and it changes only
// when the simulator or the family does (a kept render is checked against its scenario and the
// renderer that made it, simulator/session.h kRendererVersion). All the
// tests here share them: the executable runs as one CTest test.
//
// sigma is checked from both sides. Too small is the dangerous side (a call made inside the
// noise): 2 sigma must cover at least 93 % of each axis, tracked as `diskref track` runs. Too
// large hides calls that could be made; it is judged on what the renders contain — the tracker
// told what is true of them (their cards are exactly as thick as the registry says: no thickness
// lift) and the lens known (without a lens model sigma is a floor from leaving markers out, on
// the safe side by construction), at 1 sigma (below). Without a lens model a strongly distorting
// lens puts landings millimetres off, which their sigma says.

#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "simulator/session_variety.h"
#include "simulator/track_evaluation.h"
#include "vision/frame_source.h"
#include "vision/tracker.h"

namespace diskref::vision {
namespace {

using simulator::accumulate;
using simulator::evaluate_tracks;
using simulator::TrackEvaluation;

namespace fs = std::filesystem;

// Each variant rendered and tracked, evaluated against its truth.
bool lens_known(const std::string& name) {
  for (const simulator::SessionVariant& v : simulator::standard_variants())
    if (v.name == name) return v.lens_known;
  return false;
}

// The variant tracked with `options`, against its truth.
TrackEvaluation track_variant(const simulator::SessionVariant& variant, const TrackerOptions& options) {
  const fs::path dir = simulator::render_variant(variant, DISKREF_WATCH_RENDERS);
  std::optional<calib::CameraModel> lens;
  if (variant.lens_known) lens = calib::load_camera_model(dir / "camera.json");
  Tracker tracker(model::load_table(dir / "table.json"), model::load_disk_registry(dir / "disks.json"), lens, options);
  std::vector<model::TrackFrame> output;
  auto source = open_video_file(dir / "video.mp4");
  while (auto frame = source->next()) output.push_back(tracker.process(frame->image, frame->index, frame->t).track);
  return evaluate_tracks(output, model::load_track_jsonl(dir / "truth.jsonl"));
}

// Every variant as `diskref track` runs it.
const std::map<std::string, TrackEvaluation>& evaluations() {
  static const std::map<std::string, TrackEvaluation> all = [] {
    std::map<std::string, TrackEvaluation> out;
    for (const simulator::SessionVariant& variant : simulator::standard_variants())
      out[variant.name] = track_variant(variant, {});
    return out;
  }();
  return all;
}

TEST(WatchOnRenders, TheTableIsNeverCalledSettledWhileTheTruthIsNot) {
  for (const auto& [name, e] : evaluations()) {
    EXPECT_GT(e.settles.truth_settled, 0) << name;
    EXPECT_EQ(e.settles.false_settled, 0) << name;
  }
}

TEST(WatchOnRenders, EverySettleIsReachedWithin300Milliseconds) {
  for (const auto& [name, e] : evaluations()) {
    EXPECT_GE(e.settles.latencies_s.size(), 4u) << name << ": the session settles after each of its five moments";
    EXPECT_EQ(e.settles.missed, 0) << name;
    EXPECT_LE(e.settles.max_latency_s(), 0.3 + 1e-9) << name;
  }
}

// Every landing is found where it was; its sigma is a 1-sigma figure like any other, so over all
// the renders at least 90 % of the landings lie within 2 sigma (a render's table pose errs once
// for all its landings: one render may hold several outside).
TEST(WatchOnRenders, EveryLandingWhoseTagWasSeenIsReportedWhereItWas) {
  long long found = 0, within = 0;
  for (const auto& [name, e] : evaluations()) {
    // Three flips of a ship and one of a torpedo, at least.
    EXPECT_GE(e.landings.truth, 4) << name;
    EXPECT_EQ(e.landings.found, e.landings.truth_seen) << name;
    EXPECT_EQ(e.landings.extra, 0) << name;
    EXPECT_EQ(e.landings.face_errors, 0) << name;
    if (lens_known(name)) {
      EXPECT_LE(e.landings.position_max_mm, 0.5) << name;
    }
    found += e.landings.found;
    within += e.landings.within_2_sigma;
  }
  EXPECT_GE(static_cast<double>(within), 0.9 * static_cast<double>(found))
      << within << " of " << found << " within 2 sigma";
}

// Per render the samples are few and correlated (a still disk's error hardly changes from frame
// to frame: the detector's bias for it is one draw), so coverage is judged over all of them, as a
// referee meets them: across tables.
TEST(WatchOnRenders, TwoSigmaCoversAtLeastNinetyThreePercentPerAxisOverAllRenders) {
  TrackEvaluation pooled;
  for (const auto& [name, e] : evaluations()) accumulate(pooled, e);
  ASSERT_GT(pooled.sigma_axis_samples, 10000);
  for (int axis = 0; axis < 2; ++axis) EXPECT_GE(pooled.axis_fraction_within_2_sigma(axis), 0.93) << "axis " << axis;
}

// Too wide is judged where it shows steadily: at 1 sigma. Two sigma is the tail of a few draws
// (a render's table pose errs once for all its disks and frames, each rest's detector bias is one
// draw: some ten pose draws and a hundred rest draws in the family), so the share within 2 sigma
// of a right sigma moves between renders by more than the 93-97 % a referee needs, while within 1
// sigma a sigma one and a half times wider than now would cover more than 90 % (now 77 % of x and
// 82 % of y, against a Gaussian's 68 %: the detector's biases are heavy-tailed, so a sigma that
// covers 95 % of them at 2 sigma covers more than 68 % at 1).
TEST(WatchOnRenders, SigmaIsNotFarWiderThanTheErrorsOverWhatTheRendersContain) {
  TrackerOptions exact_cards;
  exact_cards.thickness_sigma_mm = 0;  // rendered cards are exactly their registry thickness
  TrackEvaluation pooled;
  for (const simulator::SessionVariant& variant : simulator::standard_variants())
    if (variant.lens_known) accumulate(pooled, track_variant(variant, exact_cards));
  ASSERT_GT(pooled.sigma_axis_samples, 8000);
  for (int axis = 0; axis < 2; ++axis) {
    const double two = pooled.axis_fraction_within_2_sigma(axis), one = pooled.axis_fraction_within_1_sigma(axis);
    std::printf("axis %d: 1 sigma covers %.1f %%, 2 sigma %.1f %%; per rest (%lld): %.1f %%, %.1f %%\n", axis,
                100 * one, 100 * two, pooled.rests, 100 * pooled.rest_axis_fraction_within_1_sigma(axis),
                100 * pooled.rest_axis_fraction_within_2_sigma(axis));
    EXPECT_GE(two, 0.93) << "axis " << axis;
    EXPECT_LE(one, 0.90) << "axis " << axis;
  }
}

}  // namespace
}  // namespace diskref::vision
