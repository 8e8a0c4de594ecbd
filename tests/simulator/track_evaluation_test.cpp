// The evaluation's figures for the referee on hand-made frames: false settles, settle latency and
// missed settles, landings found (and not), sigma's coverage per axis, and pooling videos.

#include "simulator/track_evaluation.h"

#include <gtest/gtest.h>

namespace diskref::simulator {
namespace {

using model::DiskTrack;
using model::Landing;
using model::TrackFrame;

// Frames at 10 fps of one still ship, settled as `settled` says ('1' or '0' per frame), the
// output's position off by `dx`, `dy` with sigma `sigma`.
std::vector<TrackFrame> frames(const std::string& settled, double dx = 0, double dy = 0, double sigma = 0.1) {
  std::vector<TrackFrame> out;
  for (std::size_t i = 0; i < settled.size(); ++i) {
    TrackFrame f;
    f.frame = static_cast<long long>(i);
    f.t = 0.1 * static_cast<double>(i);
    DiskTrack d;
    d.name = "enterprise";
    d.x = 100 + dx;
    d.y = 200 + dy;
    d.heading = 0;
    d.sigma_mm = sigma;
    f.disks.push_back(d);
    f.settled = settled[i] == '1';
    out.push_back(f);
  }
  return out;
}

TEST(TrackEvaluation, ASettledOutputFrameTheTruthCallsUnsettledIsAFalseSettle) {
  const TrackEvaluation e = evaluate_tracks(frames("0110011"), frames("0000011"));
  EXPECT_EQ(e.settles.false_settled, 2);
  EXPECT_EQ(e.settles.truth_settled, 2);
  EXPECT_EQ(e.settles.agreed_settled, 2);
}

TEST(TrackEvaluation, SettleLatencyIsFromTheTruthsSettleToTheOutputsAndAnUnreachedSettleIsMissed) {
  //                       truth settles at frames 1 and 6; the output reaches the first at 3, never the second
  const TrackEvaluation e = evaluate_tracks(frames("000111000000"), frames("011110111000"));
  ASSERT_EQ(e.settles.latencies_s.size(), 1u);
  EXPECT_NEAR(e.settles.latencies_s[0], 0.2, 1e-9);
  EXPECT_EQ(e.settles.missed, 1);
  EXPECT_NEAR(e.settles.max_latency_s(), 0.2, 1e-9);
}

TEST(TrackEvaluation, LandingsAreMatchedByDiskAndTimeAndTheirErrorMeasured) {
  std::vector<TrackFrame> truth = frames("0000000000"), output = frames("0000000000");
  truth[2].landings.push_back({"enterprise", 100, 200, 0, model::Face::down, 0, 0.2, true});
  truth[5].landings.push_back({"enterprise", 150, 200, 0, model::Face::up, 0, 0.5, true});
  truth[8].landings.push_back({"enterprise", 200, 200, 0, model::Face::down, 0, 0.8, false});  // never in view
  output[3].landings.push_back({"enterprise", 100.3, 200.4, 0, model::Face::down, 0.3, 0.25, std::nullopt});
  output[9].landings.push_back({"defiant", 10, 10, 0, model::Face::up, 0.1, 0.9, std::nullopt});  // no such landing
  const LandingFigures l = evaluate_tracks(output, truth).landings;
  EXPECT_EQ(l.truth, 3);
  EXPECT_EQ(l.truth_seen, 2);
  EXPECT_EQ(l.found, 1);
  EXPECT_EQ(l.extra, 1);
  EXPECT_EQ(l.face_errors, 0);
  EXPECT_NEAR(l.position_max_mm, 0.5, 1e-9);
  EXPECT_EQ(l.within_2_sigma, 1);
}

TEST(TrackEvaluation, CoverageIsCountedPerAxis) {
  // x off by 0.15 (within 2 sigma, not 1), y off by 0.05 (within 1).
  const TrackEvaluation e = evaluate_tracks(frames("0000", 0.15, 0.05, 0.1), frames("0000"));
  EXPECT_DOUBLE_EQ(e.axis_fraction_within_1_sigma(0), 0.0);
  EXPECT_DOUBLE_EQ(e.axis_fraction_within_2_sigma(0), 1.0);
  EXPECT_DOUBLE_EQ(e.axis_fraction_within_1_sigma(1), 1.0);
  EXPECT_DOUBLE_EQ(e.fraction_within_1_sigma(), 0.5);
}

TEST(TrackEvaluation, PooledVideosAddTheirCountsAndKeepTheLargerMaxima) {
  TrackEvaluation pooled;
  accumulate(pooled, evaluate_tracks(frames("0011", 0.15, 0.05, 0.1), frames("0111")));
  accumulate(pooled, evaluate_tracks(frames("1100", 0.05, 0.05, 0.3), frames("0000")));
  EXPECT_EQ(pooled.frames_compared, 8);
  EXPECT_EQ(pooled.settles.false_settled, 2);
  EXPECT_EQ(pooled.settles.latencies_s.size(), 1u);
  EXPECT_EQ(pooled.sigma_axis_samples, 16);
  EXPECT_DOUBLE_EQ(pooled.axis_fraction_within_1_sigma(0), 0.5);
  EXPECT_DOUBLE_EQ(pooled.axis_fraction_within_1_sigma(1), 1.0);
  EXPECT_NEAR(pooled.mean_sigma_mm, 0.2, 1e-12);
  EXPECT_NEAR(pooled.all.position_max, std::hypot(0.15, 0.05), 1e-12);
}

}  // namespace
}  // namespace diskref::simulator
