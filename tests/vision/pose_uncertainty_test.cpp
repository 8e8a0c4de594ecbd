// The table pose's share of sigma: from the markers' bias and noise through the pose to each
// place of the table; smaller between the markers than beyond them; the thickness lift's lever.
#include "vision/pose_uncertainty.h"

#include <cmath>

#include <gtest/gtest.h>

#include "vision_test_support.h"

namespace diskref::vision {
namespace {

model::TableSpec table_600() {
  model::TableSpec t;
  t.play_area_mm = {600, 600};
  const geom::Vec2 centres[4] = {{-25, -25}, {625, -25}, {625, 625}, {-25, 625}};
  for (int i = 0; i < 4; ++i) t.corner_markers[static_cast<std::size_t>(i)] = {i, centres[i], 30};
  return t;
}

// The markers exactly where the camera sees them.
std::vector<calib::MarkerObservation> seen_markers(const model::TableSpec& table, const calib::CameraPose& pose) {
  std::vector<calib::MarkerObservation> out;
  for (const auto& m : table.corner_markers) {
    calib::MarkerObservation o;
    o.id = m.id;
    const auto corners = m.corners_mm();
    for (std::size_t k = 0; k < 4; ++k)
      o.corners_px[k] = calib::image_from_table(pose, {corners[k].x, corners[k].y, 0.0});
    out.push_back(o);
  }
  return out;
}

TEST(PoseUncertainty, SmallestBetweenTheMarkersAndGrowingWithTheirBias) {
  const model::TableSpec table = table_600();
  const calib::CameraPose pose = test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 1000, 15);
  const auto markers = seen_markers(table, pose);
  PoseUncertaintyOptions options;
  const PoseUncertainty u(table, pose, markers, pose.camera, pose.camera.image_size, options);
  const double middle = u.sigma_mm({300, 300}, 2.0);
  EXPECT_GT(middle, 0.0);
  EXPECT_LT(middle, u.sigma_mm({-40, -40}, 2.0)) << "beyond a corner of the markers";
  // Roughly a marker's bias over the square root of the markers, in mm (about 0.77 mm a pixel
  // here; the markers lie obliquely to this camera's grid, so their bias is about the still one).
  const double bias_px = still_bias_px(markers[0].corners_px, options.detector);
  EXPECT_GT(middle, 0.2 * bias_px * 0.77);
  EXPECT_LT(middle, 1.5 * bias_px * 0.77);
  options.detector.still_bias_px *= 2;
  options.detector.grid_locked_bias_px *= 2;
  const PoseUncertainty twice(table, pose, markers, pose.camera, pose.camera.image_size, options);
  EXPECT_GT(twice.sigma_mm({300, 300}, 2.0), 1.5 * middle);
  EXPECT_EQ(u.model_floor_mm(), 0.0) << "a calibrated lens: no model error to floor it";
}

// Markers whose edges lie along the pixel grid keep more of the detector's still bias
// (tag_measurement.h): a camera square to the table knows its pose less well than the same camera
// turned 30 degrees about its axis.
TEST(PoseUncertainty, MarkersAlongThePixelGridCarryMoreBias) {
  const model::TableSpec table = table_600();
  const calib::CameraPose square = test::camera_above({1920, 1080}, 1300, {300, 300}, 1000, 0);
  calib::CameraPose turned = square;
  const double a = geom::deg_to_rad(30);
  turned.rotation = cv::Matx33d(std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1) * square.rotation;
  turned.translation =
      cv::Matx33d(std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a), 0, 0, 0, 1) * square.translation;
  const PoseUncertainty along(table, square, seen_markers(table, square), square.camera, square.camera.image_size);
  const PoseUncertainty oblique(table, turned, seen_markers(table, turned), turned.camera, turned.camera.image_size);
  EXPECT_GT(along.sigma_mm({300, 300}, 2.0), 2.0 * oblique.sigma_mm({300, 300}, 2.0));
}

TEST(PoseUncertainty, TheLiftsLeverIsTheDistanceFromBelowTheCameraOverItsHeight) {
  const model::TableSpec table = table_600();
  const calib::CameraPose pose = test::camera_above({1920, 1080}, 1300, {300, 300}, 1000, 0);
  const PoseUncertainty u(table, pose, seen_markers(table, pose), pose.camera, pose.camera.image_size);
  EXPECT_NEAR(u.lift_per_mm({300, 300}, 2.0), 0.0, 1e-9);
  EXPECT_NEAR(u.lift_per_mm({600, 700}, 2.0), 500.0 / 998.0, 1e-6);
}

// The lens's own share (issue 37): the camera file's projection uncertainty where the point is
// seen, in millimetres there; none without a grid.
TEST(PoseUncertainty, TheLensShareIsItsProjectionUncertaintyInMillimetresThere) {
  const model::TableSpec table = table_600();
  calib::CameraPose pose = test::camera_above({1920, 1080}, 1300, {300, 300}, 1000, 0);
  const PoseUncertainty without(table, pose, seen_markers(table, pose), pose.camera, pose.camera.image_size);
  EXPECT_EQ(without.lens_sigma_mm({300, 300}, 2.0), 0.0);
  // 0.2 px on the left of the picture, 0.6 px on the right.
  pose.camera.uncertainty = calib::UncertaintyGrid{2, 2, {0.2, 0.6, 0.2, 0.6}};
  const PoseUncertainty u(table, pose, seen_markers(table, pose), pose.camera, pose.camera.image_size);
  // Straight below the camera: 998 mm away at 1300 px focal length.
  const cv::Point2d middle = calib::image_from_table(pose, {300, 300, 2.0});
  const double expected = pose.camera.uncertainty->at(middle, pose.camera.image_size) * 998.0 / 1300.0;
  EXPECT_NEAR(u.lens_sigma_mm({300, 300}, 2.0), expected, 0.01 * expected);
  // Larger where the picture's right side sees the table.
  const cv::Point2d a = calib::image_from_table(pose, {0, 300, 2.0}),
                    b = calib::image_from_table(pose, {600, 300, 2.0});
  const geom::Vec2 right = a.x > b.x ? geom::Vec2{0, 300} : geom::Vec2{600, 300};
  const geom::Vec2 left = a.x > b.x ? geom::Vec2{600, 300} : geom::Vec2{0, 300};
  EXPECT_GT(u.lens_sigma_mm(right, 2.0), 1.5 * u.lens_sigma_mm(left, 2.0));
}

TEST(PoseUncertainty, WithoutALensModelTheMarkersLeftOutSetAFloor) {
  const model::TableSpec table = table_600();
  // A barrel lens that the pinhole estimated from the markers does not know.
  const calib::CameraPose lens = test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 1000, 15, -0.2);
  const auto markers = seen_markers(table, lens);
  const calib::CameraPoseEstimate estimate =
      calib::estimate_camera_pose(table, markers, std::nullopt, lens.camera.image_size);
  ASSERT_TRUE(estimate.pose);
  const PoseUncertainty u(table, *estimate.pose, markers, std::nullopt, lens.camera.image_size);
  EXPECT_GT(u.model_floor_mm(), 0.05);
  EXPECT_GE(u.sigma_mm({300, 300}, 2.0), u.model_floor_mm());
}

// The markers' noise in one frame, measured from successive frames (a frame delivered twice
// skipped), and what it leaves in the pose fitted to a median of a few frames: a dim, noisy
// picture's pose is known less well than the floor says.
TEST(PoseUncertainty, NoisierMarkersInFewerFramesMakeAnUncertainerPose) {
  const model::TableSpec table = table_600();
  const calib::CameraPose pose = test::camera_looking_at({1920, 1080}, 1300, {300, 300}, 1000, 15);
  const auto exact = seen_markers(table, pose);
  cv::RNG rng(7);
  std::vector<std::vector<calib::MarkerObservation>> frames;
  for (int f = 0; f < 200; ++f) {
    auto markers = exact;
    for (auto& m : markers)
      for (auto& c : m.corners_px) c += cv::Point2d(rng.gaussian(0.2), rng.gaussian(0.2));
    frames.push_back(markers);
    if (f % 10 == 0) frames.push_back(markers);  // delivered twice
  }
  EXPECT_NEAR(frame_corner_noise_px(frames), 0.2, 0.01);
  EXPECT_EQ(frame_corner_noise_px({exact}), 0.0);

  PoseUncertaintyOptions options;
  const double floor =
      PoseUncertainty(table, pose, exact, pose.camera, pose.camera.image_size, options).sigma_mm({300, 300}, 2.0);
  options.frame_corner_noise_px = 0.2;
  options.median_frames = 5;
  const double five =
      PoseUncertainty(table, pose, exact, pose.camera, pose.camera.image_size, options).sigma_mm({300, 300}, 2.0);
  options.median_frames = 1e6;  // so many frames that only the floor is left
  const double many =
      PoseUncertainty(table, pose, exact, pose.camera, pose.camera.image_size, options).sigma_mm({300, 300}, 2.0);
  EXPECT_GT(five, 1.2 * floor);
  EXPECT_DOUBLE_EQ(many, floor);
}

}  // namespace
}  // namespace diskref::vision
