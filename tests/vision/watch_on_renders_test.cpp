// The table watched through many cameras, lenses and light (simulator/session_variety.h): the
// same moments of play — three flips, a hand held still, a torpedo flipped once, a placement, the
// template laid and lifted — rendered with their exact truth and tracked as `diskref track` does.
// What the referee relies on is checked on every variant: the table is never called settled while
// the truth says it is not, every settle is reached soon after the truth's, every landing whose tag
// was in view is reported where it was, and sigma means what it says over all the renders.
//
// The renders are made once and kept in the build tree (DISKREF_WATCH_RENDERS, as the bench's
// --renders keeps them): a render of the family takes minutes on two cores, and it changes only
// when the simulator or the family does (a kept render is checked against its scenario). All the
// tests here share them: the executable runs as one CTest test.
//
// The goals of issue 13 not reached are pinned where they stand, not loosened into passing: sigma
// errs on the safe side (2 sigma covers 99 % of x and 98 % of y over the family, more than the
// Gaussian 95.4 %), which the lower bound checks; without a lens model a strongly distorting lens
// puts landings millimetres off, which their sigma says.

#include <filesystem>
#include <map>
#include <string>

#include <gtest/gtest.h>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "simulator/session_variety.h"
#include "vision/frame_source.h"
#include "vision/track_evaluation.h"
#include "vision/tracker.h"

namespace diskref::vision {
namespace {

namespace fs = std::filesystem;

// Each variant rendered and tracked, evaluated against its truth.
bool lens_known(const std::string& name) {
  for (const simulator::SessionVariant& v : simulator::standard_variants())
    if (v.name == name) return v.lens_known;
  return false;
}

const std::map<std::string, TrackEvaluation>& evaluations() {
  static const std::map<std::string, TrackEvaluation> all = [] {
    const fs::path root = DISKREF_WATCH_RENDERS;
    std::map<std::string, TrackEvaluation> out;
    for (const simulator::SessionVariant& variant : simulator::standard_variants()) {
      const fs::path dir = simulator::render_variant(variant, root);
      std::optional<calib::CameraModel> lens;
      if (variant.lens_known) lens = calib::load_camera_model(dir / "camera.json");
      Tracker tracker(model::load_table(dir / "table.json"), model::load_disk_registry(dir / "disks.json"), lens);
      std::vector<model::TrackFrame> output;
      auto source = open_video_file(dir / "video.mp4");
      while (auto frame = source->next()) output.push_back(tracker.process(frame->image, frame->index, frame->t).track);
      out[variant.name] = evaluate_tracks(output, model::load_track_jsonl(dir / "truth.jsonl"));
    }
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

TEST(WatchOnRenders, EveryLandingWhoseTagWasSeenIsReportedWhereItWas) {
  for (const auto& [name, e] : evaluations()) {
    // Three flips of a ship and one of a torpedo, at least.
    EXPECT_GE(e.landings.truth, 4) << name;
    EXPECT_EQ(e.landings.found, e.landings.truth_seen) << name;
    EXPECT_EQ(e.landings.extra, 0) << name;
    EXPECT_EQ(e.landings.face_errors, 0) << name;
    EXPECT_EQ(e.landings.within_2_sigma, e.landings.found) << name;
    if (lens_known(name)) {
      EXPECT_LE(e.landings.position_max_mm, 0.5) << name;
    }
  }
}

// Per render the samples are few and correlated (a still disk's error hardly changes from frame
// to frame), so coverage is judged over all of them, as a referee meets them: across tables. Too
// small a sigma is the dangerous side (a call made inside the noise): 2 sigma must cover at
// least 93 % of each axis.
TEST(WatchOnRenders, TwoSigmaCoversAtLeastNinetyThreePercentPerAxisOverAllRenders) {
  TrackEvaluation pooled;
  for (const auto& [name, e] : evaluations()) accumulate(pooled, e);
  ASSERT_GT(pooled.sigma_axis_samples, 10000);
  for (int axis = 0; axis < 2; ++axis) EXPECT_GE(pooled.axis_fraction_within_2_sigma(axis), 0.93) << "axis " << axis;
}

}  // namespace
}  // namespace diskref::vision
