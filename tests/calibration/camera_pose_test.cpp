// The table plane from the corner markers: a camera with a known pose sees the markers
// (cv::projectPoints plus corner noise); the estimated pose must map every point of the play area
// back onto the table within 0.5 mm, on the table and at a disk's height, with and without the
// lens model, with a marker hidden; and it must say what it did.
#include "calibration/camera_pose.h"

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "calibration/pinhole_from_plane.h"
#include "engine/io/input_error.h"
#include "table_scene.h"

namespace diskref::calib {
namespace {

using testing::max_play_area_error_mm;

// Per coordinate: a mean corner error of about 0.06 px, a little worse than apriltag's 0.05 px
// measured on a sharp synthetic 1080p table.
constexpr double kCornerNoisePx = 0.05;

bool any_note_contains(const CameraPoseEstimate& e, const std::string& text) {
  for (const auto& n : e.notes)
    if (n.find(text) != std::string::npos) return true;
  return false;
}

TEST(CameraPose, WithTheLensEveryPlayAreaPointWithinHalfAMillimetre) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  auto estimate =
      estimate_camera_pose(table, scene.markers(table, kCornerNoisePx, 1), scene.camera, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose) << estimate.problem;
  const CameraPose& pose = *estimate.pose;
  EXPECT_TRUE(pose.lens_calibrated);
  EXPECT_LT(max_play_area_error_mm(scene, pose, table, 0.0), 0.5);
  EXPECT_LT(max_play_area_error_mm(scene, pose, table, 2.0), 0.5);  // a disk's tag, 2 mm up
  EXPECT_LT(cv::norm(pose.camera_center_table() - scene.truth.camera_center_table()), 10.0);
  // Quality: the fit is the corner noise; the distances between marker centres check out.
  EXPECT_LT(pose.reprojection_rms_px, 2 * kCornerNoisePx);
  EXPECT_LT(pose.reprojection_rms_mm, 0.3);
  EXPECT_EQ(pose.markers_used, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_TRUE(pose.markers_missing.empty());
  ASSERT_EQ(pose.distance_checks.size(), 6u);
  for (const auto& c : pose.distance_checks) EXPECT_NEAR(c.measured_mm, c.expected_mm, 0.5);
  ASSERT_EQ(pose.marker_residuals.size(), 4u);
}

TEST(CameraPose, WithoutTheLensEveryPlayAreaPointWithinHalfAMillimetre) {
  // No --calib: a lens without noticeable distortion, its focal length unknown.
  model::TableSpec table = model::default_table();
  for (auto scene : {testing::oblique_scene(false), testing::overhead_scene(false)}) {
    auto estimate =
        estimate_camera_pose(table, scene.markers(table, kCornerNoisePx, 2), std::nullopt, scene.camera.image_size);
    ASSERT_TRUE(estimate.pose) << estimate.problem;
    EXPECT_FALSE(estimate.pose->lens_calibrated);
    EXPECT_TRUE(any_note_contains(estimate, "no lens calibration"));
    EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 0.0), 0.5);
    // The height of a disk's tag is corrected through the estimated pinhole.
    EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 2.0), 0.5);
  }
}

// The corners of several frames of a still camera combined, as `diskref table` and the table
// monitor combine them.
std::vector<MarkerObservation> combined_frames(const testing::TableScene& scene, const model::TableSpec& table,
                                               int frames, uint64_t seed) {
  std::vector<std::vector<MarkerObservation>> all;
  for (int f = 0; f < frames; ++f)
    all.push_back(scene.markers(table, kCornerNoisePx, seed * 1000 + static_cast<uint64_t>(f)));
  return median_observations(all);
}

TEST(CameraPose, WorksWithAnyOneMarkerHiddenAndSaysWhich) {
  // With a marker hidden the far corner of the play area is extrapolated from three small squares,
  // so the corners' noise counts several times more than with four: from one frame it is up to
  // ~0.7 mm there; the 30 frames `diskref table` combines bring it within 0.5 mm.
  model::TableSpec table = model::default_table();
  for (auto scene : {testing::oblique_scene(true), testing::overhead_scene(true)})
    for (int hidden = 0; hidden < 4; ++hidden) {
      auto markers = combined_frames(scene, table, 30, 3 + static_cast<uint64_t>(hidden));
      markers.erase(markers.begin() + hidden);
      auto estimate = estimate_camera_pose(table, markers, scene.camera, scene.camera.image_size);
      ASSERT_TRUE(estimate.pose) << estimate.problem;
      EXPECT_EQ(estimate.pose->markers_missing, std::vector<int>{hidden});
      EXPECT_TRUE(any_note_contains(estimate, "corner marker " + std::to_string(hidden) + " hidden"));
      EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 0.0), 0.5) << "hidden " << hidden;
      EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 2.0), 0.5) << "hidden " << hidden;
      EXPECT_EQ(estimate.pose->distance_checks.size(), 3u);
    }
}

TEST(CameraPose, WithoutTheLensAHiddenMarkerIsWarnedAbout) {
  // Three small squares fix a pinhole only up to its focal length; on rendered tables, whose
  // corners carry the detector's small systematic errors, the far corner is then off by up to
  // ~2 mm (rendered_tables_test.cpp). The estimate still works, and says so.
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(false);
  auto markers = scene.markers(table, kCornerNoisePx, 12);
  markers.erase(markers.begin() + 2);
  auto estimate = estimate_camera_pose(table, markers, std::nullopt, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose) << estimate.problem;
  EXPECT_TRUE(any_note_contains(estimate, "focal length is uncertain"));
  EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 0.0), 3.0);
  // With all four it says nothing of the kind.
  auto all =
      estimate_camera_pose(table, scene.markers(table, kCornerNoisePx, 12), std::nullopt, scene.camera.image_size);
  EXPECT_FALSE(any_note_contains(all, "focal length is uncertain"));
}

TEST(CameraPose, OneMarkerIsNotEnough) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  auto markers = scene.markers(table, 0.0, 1);
  markers.resize(1);
  auto estimate = estimate_camera_pose(table, markers, scene.camera, scene.camera.image_size);
  EXPECT_FALSE(estimate.pose);
  EXPECT_NE(estimate.problem.find("only 1 corner marker"), std::string::npos) << estimate.problem;
}

TEST(CameraPose, AMarkerOutOfPlaceIsLeftOutAndNamed) {
  // Marker 2 was knocked 12 mm from where the table file says it is.
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  model::TableSpec real = table;
  real.corner_markers[2].center_mm = real.corner_markers[2].center_mm + geom::Vec2{12, -5};
  auto estimate =
      estimate_camera_pose(table, scene.markers(real, kCornerNoisePx, 4), scene.camera, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose) << estimate.problem;
  EXPECT_TRUE(any_note_contains(estimate, "corner marker 2 disagrees")) << estimate.notes.size();
  EXPECT_EQ(estimate.pose->markers_used, (std::vector<int>{0, 1, 3}));
  EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 0.0), 0.5);
}

TEST(CameraPose, AWrongTableFileShowsInTheDistanceChecks) {
  // The table file's markers 1 and 2 are 6 mm off in x from where they really lie (a skewed
  // layout; a uniformly scaled one would fit a pose as well and cannot be seen).
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  model::TableSpec real = table;
  real.corner_markers[1].center_mm.x += 6;
  real.corner_markers[2].center_mm.x -= 6;
  auto estimate = estimate_camera_pose(table, scene.markers(real, 0.0, 5), scene.camera, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose);
  double worst = 0;
  for (const auto& c : estimate.pose->distance_checks) worst = std::max(worst, std::abs(c.measured_mm - c.expected_mm));
  EXPECT_GT(worst, 4.0);
  double worst_residual = 0;
  for (const auto& r : estimate.pose->marker_residuals) worst_residual = std::max(worst_residual, r.rms_mm);
  EXPECT_GT(worst_residual, 2.0);
  EXPECT_EQ(estimate.pose->marker_residuals.size(), 4u);
}

TEST(CameraPose, AMirroredTableFileIsRefused) {
  // Markers 1 and 3 swapped: seen from above they would go round clockwise.
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  model::TableSpec mirrored = table;
  std::swap(mirrored.corner_markers[1].center_mm, mirrored.corner_markers[3].center_mm);
  auto estimate = estimate_camera_pose(mirrored, scene.markers(table, 0.0, 6), scene.camera, scene.camera.image_size);
  EXPECT_FALSE(estimate.pose);
  EXPECT_NE(estimate.problem.find("mirrored"), std::string::npos) << estimate.problem;
}

TEST(CameraPose, ALensCalibratedAtAnotherResolutionIsScaled) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  CameraModel at_4k = scaled(scene.camera, {3840, 2160});
  auto estimate = estimate_camera_pose(table, scene.markers(table, kCornerNoisePx, 7), at_4k, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose) << estimate.problem;
  EXPECT_TRUE(any_note_contains(estimate, "scaled"));
  EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 0.0), 0.5);

  CameraModel other_aspect = scene.camera;
  other_aspect.image_size = {1440, 1080};
  auto refused = estimate_camera_pose(table, scene.markers(table, 0.0, 7), other_aspect, scene.camera.image_size);
  EXPECT_FALSE(refused.pose);
  EXPECT_NE(refused.problem.find("aspect"), std::string::npos) << refused.problem;
}

TEST(CameraPose, AMarkerIdSeenTwiceIsIgnored) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  auto markers = scene.markers(table, kCornerNoisePx, 8);
  MarkerObservation ghost = markers[0];
  for (auto& c : ghost.corners_px) c.x += 300;
  markers.push_back(ghost);
  auto estimate = estimate_camera_pose(table, markers, scene.camera, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose);
  EXPECT_TRUE(any_note_contains(estimate, "corner marker 0 seen more than once"));
  EXPECT_EQ(estimate.pose->markers_used, (std::vector<int>{1, 2, 3}));
  EXPECT_LT(max_play_area_error_mm(scene, *estimate.pose, table, 0.0), 0.5);
}

TEST(CameraPose, ImageAndTableMapsAreInverse) {
  auto scene = testing::oblique_scene(true);
  for (double h : {0.0, 2.0, 30.0})
    for (cv::Point3d p : {cv::Point3d{0, 0, h}, cv::Point3d{914.4, 914.4, h}, cv::Point3d{100, 800, h}}) {
      auto back = table_from_image(scene.truth, image_from_table(scene.truth, p), h);
      ASSERT_TRUE(back);
      EXPECT_NEAR(back->x, p.x, 1e-6);
      EXPECT_NEAR(back->y, p.y, 1e-6);
    }
  // A ray that never comes down to the plane (a pixel above the horizon of the plane z = 2000 mm).
  EXPECT_FALSE(table_from_image(scene.truth, cv::Point2d(960, 540), 2000.0));
}

TEST(CameraPose, MarkerFitIsTheRmsImageDistanceOfTheCorners) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  auto markers = scene.markers(table, 0.0, 1);
  EXPECT_LT(marker_fit_rms_px(scene.truth, table, markers), 1e-6);
  for (auto& m : markers)
    for (auto& c : m.corners_px) c += cv::Point2d(1.2, -1.6);  // 2 px away
  EXPECT_NEAR(marker_fit_rms_px(scene.truth, table, markers), 2.0, 1e-6);
  markers.push_back({7, {}});  // not a corner marker: ignored
  EXPECT_NEAR(marker_fit_rms_px(scene.truth, table, markers), 2.0, 1e-6);
  EXPECT_EQ(marker_fit_rms_px(scene.truth, table, {}), 0.0);
}

TEST(PinholeFromPlane, FocalLengthFromPerspectiveOrFromThePriorWhenSeenStraightOn) {
  model::TableSpec table = model::default_table();
  std::vector<cv::Point3d> plane;
  for (const auto& m : table.corner_markers)
    for (const auto& c : m.corners_mm()) plane.emplace_back(c.x, c.y, 0.0);
  auto image_of = [&](const testing::TableScene& scene) {
    std::vector<cv::Point2d> image;
    for (const auto& p : plane) image.push_back(scene.project(p));
    return image;
  };
  auto oblique = testing::oblique_scene(false);
  auto fit = fit_pinhole_to_plane(plane, image_of(oblique), oblique.camera.image_size);
  ASSERT_TRUE(fit);
  EXPECT_GT(fit->focal_information_ratio, 3.0);  // the data decide
  // The principal point is assumed at the centre (it is 8 px off here), so not exact.
  EXPECT_NEAR(fit->camera_matrix(0, 0), oblique.camera.fx(), 0.03 * oblique.camera.fx());

  auto overhead = testing::overhead_scene(false);
  auto straight = fit_pinhole_to_plane(plane, image_of(overhead), overhead.camera.image_size);
  ASSERT_TRUE(straight);
  EXPECT_LT(straight->focal_information_ratio, 1.0);  // the prior decides
  EXPECT_NEAR(straight->camera_matrix(0, 0), prior_focal_px(overhead.camera.image_size),
              0.05 * prior_focal_px(overhead.camera.image_size));
}

TEST(MedianObservations, OneBadFrameDoesNotMoveTheMarkers) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  std::vector<std::vector<MarkerObservation>> frames;
  for (uint64_t seed = 0; seed < 5; ++seed) frames.push_back(scene.markers(table, kCornerNoisePx, seed));
  for (auto& c : frames[2][1].corners_px) c += cv::Point2d(25, 0);  // one wild detection
  frames[3].erase(frames[3].begin());                               // marker 0 covered once
  auto combined = median_observations(frames);
  ASSERT_EQ(combined.size(), 4u);
  auto exact = scene.markers(table, 0.0, 0);
  for (std::size_t i = 0; i < 4; ++i)
    for (std::size_t k = 0; k < 4; ++k) EXPECT_LT(cv::norm(combined[i].corners_px[k] - exact[i].corners_px[k]), 0.3);
}

class TablePoseFile : public ::testing::Test {
 protected:
  std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() / ("diskref-table-pose-" + std::to_string(::getpid()));
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
};

TEST_F(TablePoseFile, SavesAndLoadsTheSamePose) {
  model::TableSpec table = model::default_table();
  auto scene = testing::oblique_scene(true);
  auto estimate =
      estimate_camera_pose(table, scene.markers(table, kCornerNoisePx, 9), scene.camera, scene.camera.image_size);
  ASSERT_TRUE(estimate.pose);
  save_camera_pose(*estimate.pose, dir_ / "pose.json");
  EXPECT_FALSE(std::filesystem::exists(dir_ / "pose.json.tmp"));
  CameraPose loaded = load_camera_pose(dir_ / "pose.json");
  EXPECT_LT(cv::norm(loaded.rotation - estimate.pose->rotation), 1e-12);
  EXPECT_LT(cv::norm(loaded.translation - estimate.pose->translation), 1e-9);
  EXPECT_EQ(loaded.camera.dist_coeffs, estimate.pose->camera.dist_coeffs);
  EXPECT_EQ(loaded.markers_used, estimate.pose->markers_used);
  EXPECT_EQ(loaded.distance_checks.size(), 6u);
  EXPECT_DOUBLE_EQ(loaded.reprojection_rms_mm, estimate.pose->reprojection_rms_mm);
  // A table pose file is also a camera file (spec §7 members at the top level).
  CameraModel as_camera = load_camera_model(dir_ / "pose.json");
  EXPECT_EQ(as_camera.camera_matrix, estimate.pose->camera.camera_matrix);
}

TEST_F(TablePoseFile, BadFilesAreNamedWithThePlaceAndTheProblem) {
  auto expect_error = [&](const std::string& file, const std::string& path, const std::string& problem) {
    try {
      load_camera_pose(dir_ / file);
      ADD_FAILURE() << file << " was accepted";
    } catch (const io::InputError& e) {
      EXPECT_NE(e.file().find(file), std::string::npos) << e.what();
      EXPECT_EQ(e.path(), path) << e.what();
      EXPECT_NE(e.problem().find(problem), std::string::npos) << e.what();
    }
  };
  expect_error("missing.json", "", "cannot be opened");
  const std::string camera =
      R"("image_size": [1920, 1080], "camera_matrix": [[1400, 0, 960], [0, 1400, 540], [0, 0, 1]],
      "dist_coeffs": [0, 0, 0, 0, 0], "lens_calibrated": true,)";
  write("skew.json", "{" + camera + R"("camera_from_table": {"rotation": [[1, 0.2, 0], [0, -1, 0], [0, 0, -1]],
      "translation_mm": [-457, 457, 1500]}})");
  expect_error("skew.json", "camera_from_table.rotation", "not a rotation");
  write("under.json", "{" + camera + R"("camera_from_table": {"rotation": [[1, 0, 0], [0, 1, 0], [0, 0, 1]],
      "translation_mm": [0, 0, 1500]}})");
  expect_error("under.json", "camera_from_table", "below the table");
  write("typo.json", "{" + camera + R"("camera_from_tabel": {}})");
  expect_error("typo.json", "", "camera_from_tabel");
}

}  // namespace
}  // namespace diskref::calib
