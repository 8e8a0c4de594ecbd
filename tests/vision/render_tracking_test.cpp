// The tracker on rendered table sessions with exact ground truth (simulator/truth.h): recall, position
// and heading errors, identity, covered disks, and the honesty of sigma_mm, compared frame by frame
// through the same evaluation the bench and `diskref track --truth` use.
#include <filesystem>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "render_scenarios.h"
#include "simulator/track_evaluation.h"
#include "vision/frame_source.h"
#include "vision/tracker.h"

namespace diskref::vision {
namespace {

using simulator::evaluate_tracks;
using simulator::format_evaluation;
using simulator::KindFigures;
using simulator::TrackEvaluation;

namespace fs = std::filesystem;

using test::rendered_session;

TrackEvaluation track_session(const fs::path& dir, bool with_lens, TrackerStats* stats = nullptr) {
  std::optional<calib::CameraModel> lens;
  if (with_lens) lens = calib::load_camera_model(dir / "camera.json");
  Tracker tracker(model::load_table(dir / "table.json"), model::load_disk_registry(dir / "disks.json"), lens);
  auto source = open_video_file(dir / "video.mp4");
  std::vector<model::TrackFrame> output;
  while (auto frame = source->next()) output.push_back(tracker.process(frame->image, frame->index, frame->t).track);
  if (stats) *stats = tracker.stats();
  const TrackEvaluation e = evaluate_tracks(output, model::load_track_jsonl(dir / "truth.jsonl"));
  std::printf("%s", format_evaluation(e).c_str());
  return e;
}

void expect_must_show_figures(const TrackEvaluation& e, double max_rms_mm, double max_rms_deg) {
  EXPECT_EQ(e.frames_missing, 0);
  ASSERT_TRUE(e.by_kind.count(model::DiskKind::ship) && e.by_kind.count(model::DiskKind::torpedo));
  const KindFigures& ships = e.by_kind.at(model::DiskKind::ship);
  const KindFigures& torpedoes = e.by_kind.at(model::DiskKind::torpedo);
  EXPECT_GE(ships.recall(), 0.995);
  EXPECT_GE(torpedoes.recall(), 0.97);
  EXPECT_LE(e.all.position_rms_mm(), max_rms_mm);
  EXPECT_LE(e.all.heading_rms_deg(), max_rms_deg);
  EXPECT_EQ(e.identity_errors, 0);
  EXPECT_EQ(e.misplaced, 0);
  EXPECT_EQ(e.face_errors, 0);
  // The hand over "defiant" and the flips: covered disks are stale, and stale poses never move.
  EXPECT_GT(e.truth_stale, 10);
  EXPECT_GE(e.stale_agreed, 0.9 * static_cast<double>(e.truth_stale));
  EXPECT_EQ(e.stale_moved, 0);
}

TEST(TrackerOnRenders, DistortingLensTiltedCameraFlipsHandAndPlacementWithTheLensModel) {
  TrackerStats stats;
  const TrackEvaluation e = track_session(rendered_session(true), true, &stats);
  expect_must_show_figures(e, 0.5, 0.5);
  // sigma behaves like a 1-sigma figure: neither far too small nor far too large.
  EXPECT_GT(e.fraction_within_1_sigma(), 0.5);
  EXPECT_GT(e.fraction_within_2_sigma(), 0.85);
  EXPECT_LT(e.fraction_within_1_sigma(), 0.97);
  EXPECT_EQ(stats.rejected[static_cast<std::size_t>(RejectReason::unknown_id)], 0);
}

TEST(TrackerOnRenders, WithoutALensModelTheMarkersAloneGiveTheTable) {
  // An undistorting lens: without --calib the pinhole estimated from the markers is right.
  const TrackEvaluation e = track_session(rendered_session(false), false);
  expect_must_show_figures(e, 0.5, 0.5);
  EXPECT_GT(e.fraction_within_2_sigma(), 0.85);
}

TEST(TrackerOnRenders, WithoutALensModelADistortingLensCostsAccuracyButSigmaSaysSo) {
  // Spec §5: no lens correction without --calib. The error is the lens's, and sigma_mm must not
  // pretend otherwise.
  const TrackEvaluation e = track_session(rendered_session(true), false);
  EXPECT_GE(e.by_kind.at(model::DiskKind::ship).recall(), 0.995);
  EXPECT_EQ(e.identity_errors, 0);
  EXPECT_GT(e.fraction_within_2_sigma(), 0.85);
}

}  // namespace
}  // namespace diskref::vision
