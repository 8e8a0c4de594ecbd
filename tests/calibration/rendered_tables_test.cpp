// The table plane on rendered tables (simulator/session.h) with a known camera pose: the corner
// markers found by the AprilTag detector, the pose estimated from them, and every point of the play
// area mapped back onto the table, on it and at a disk tag's height, within 0.5 mm: with and
// without the lens model, and with the lens and each marker hidden in turn. (Without the lens and
// with a marker hidden it cannot be: see below.)
#include <cstdio>
#include <cstdlib>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "calibration/camera_pose.h"
#include "engine/io/json_cursor.h"
#include "simulator/session.h"
#include "vision/apriltag_detector.h"

namespace diskref::calib {
namespace {

// A 1080p webcam on a boom at the table's near edge, tilted 20 degrees from straight down, over
// the spec's table; sensor noise, slight defocus, vignetting, uneven light. `distorted`: a
// noticeable barrel distortion (else none, for the no-lens case).
simulator::Scenario table_scenario(bool distorted) {
  nlohmann::json camera = {{"resolution", {1920, 1080}},
                           {"horizontal_fov_deg", 74},
                           {"pose", {{"height_mm", 1400}, {"tilt_deg", 20}, {"yaw_deg", 90}}}};
  if (distorted) camera["dist_coeffs"] = {-0.11, 0.05, 0.0006, -0.0004, -0.01};
  nlohmann::json doc = {{"duration_s", 0.3},
                        {"fps", 10},
                        {"seed", distorted ? 21 : 22},
                        {"camera", camera},
                        {"table", model::table_to_json(model::default_table())},
                        {"disks", {{"disks", nlohmann::json::array()}}},
                        {"surface", {{"mat", "starfield"}, {"table", "wood"}}},
                        {"effects",
                         {{"noise_sigma", 2.0},
                          {"blur_sigma_px", 0.5},
                          {"vignetting", 0.25},
                          {"light_gradient", 0.2},
                          {"supersample", 3},
                          {"shutter", 0}}}};
  return simulator::parse_scenario(io::JsonCursor(doc, "rendered-table.json"), ".");
}

struct RenderedTable {
  CameraPose truth;
  std::vector<std::vector<MarkerObservation>> frames;  // corner markers found in each frame
};

RenderedTable render_table(bool distorted, int frames) {
  simulator::Scenario scenario = table_scenario(distorted);
  RenderedTable out;
  out.truth.camera = scenario.rig.camera;
  out.truth.rotation = scenario.rig.rotation;
  out.truth.translation = scenario.rig.translation;
  simulator::SessionRenderer session(scenario);
  vision::DetectorOptions options;
  options.quad_decimate = 1.0;  // as diskref table
  vision::AprilTagDetector detector(options);
  for (int f = 0; f < frames; ++f) {
    cv::Mat gray;
    cv::cvtColor(session.frame(f), gray, cv::COLOR_BGR2GRAY);
    if (f == 0 && std::getenv("DISKREF_SAVE_FRAMES"))
      cv::imwrite(std::string("/tmp/rendered_table_") + (distorted ? "d" : "u") + ".png", gray);
    std::vector<MarkerObservation> markers;
    for (const auto& tag : detector.detect(gray))
      if (tag.id >= 0 && tag.id <= 3) markers.push_back({tag.id, tag.corners});
    out.frames.push_back(markers);
  }
  return out;
}

// The largest distance (mm) between points of a grid over the play area (at `height_mm`) and where
// the estimated pose maps their true image positions.
double max_play_area_error_mm(const CameraPose& truth, const CameraPose& estimate, double height_mm) {
  model::TableSpec table = model::default_table();
  double worst = 0;
  for (double x = 0; x <= table.play_area_mm.x + 1e-9; x += table.play_area_mm.x / 40)
    for (double y = 0; y <= table.play_area_mm.y + 1e-9; y += table.play_area_mm.y / 40) {
      auto mapped = table_from_image(estimate, image_from_table(truth, {x, y, height_mm}), height_mm);
      if (!mapped) return 1e9;
      worst = std::max(worst, std::hypot(mapped->x - x, mapped->y - y));
    }
  return worst;
}

void expect_play_area_within_half_a_millimetre(const RenderedTable& rendered, bool with_lens) {
  std::optional<CameraModel> lens;
  if (with_lens) lens = rendered.truth.camera;
  model::TableSpec table = model::default_table();
  cv::Size size = rendered.truth.camera.image_size;
  auto all = median_observations(rendered.frames);
  ASSERT_EQ(all.size(), 4u);
  for (int hidden = -1; hidden < 4; ++hidden) {
    auto markers = all;
    if (hidden >= 0) markers.erase(markers.begin() + hidden);
    CameraPoseEstimate estimate = estimate_camera_pose(table, markers, lens, size);
    ASSERT_TRUE(estimate.pose) << estimate.problem;
    double on_table = max_play_area_error_mm(rendered.truth, *estimate.pose, 0.0);
    double tag_height = max_play_area_error_mm(rendered.truth, *estimate.pose, 2.0);
    std::printf("%s lens, %s: fit %.3f px / %.3f mm; play area within %.3f mm (%.3f mm at 2 mm up)\n",
                with_lens ? "with" : "without",
                hidden < 0 ? "all markers" : ("marker " + std::to_string(hidden) + " hidden").c_str(),
                estimate.pose->reprojection_rms_px, estimate.pose->reprojection_rms_mm, on_table, tag_height);
    if (with_lens || hidden < 0) {
      EXPECT_LT(on_table, 0.5) << "hidden " << hidden;
      EXPECT_LT(tag_height, 0.5) << "hidden " << hidden;
    } else {
      // No lens and three markers: the focal length rests on the markers' own foreshortening, and
      // the far corner is off by up to ~2 mm (measured: 0.13-1.86 mm); the notes say so.
      EXPECT_LT(on_table, 3.0) << "hidden " << hidden;
      bool warned = false;
      for (const auto& note : estimate.notes)
        warned = warned || note.find("focal length is uncertain") != std::string::npos;
      EXPECT_TRUE(warned);
    }
    for (const auto& c : estimate.pose->distance_checks) EXPECT_NEAR(c.measured_mm, c.expected_mm, 0.5);
  }
}

TEST(RenderedTables, WithTheLensEveryPlayAreaPointWithinHalfAMillimetre) {
  expect_play_area_within_half_a_millimetre(render_table(true, 3), true);
}

TEST(RenderedTables, WithoutTheLensEveryPlayAreaPointWithinHalfAMillimetre) {
  expect_play_area_within_half_a_millimetre(render_table(false, 3), false);
}

}  // namespace
}  // namespace diskref::calib
