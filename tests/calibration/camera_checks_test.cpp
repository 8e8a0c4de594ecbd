// A camera file that can exist, a camera file that fits the video, a table pose that fits the
// table: each problem named in the file that has it, not blamed on the table later.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "engine/io/input_error.h"
#include "engine/model/table_spec.h"

namespace diskref::calib {
namespace {

using ::testing::HasSubstr;

// The duel sample's camera: 1920x1080, f = 1185.5 px (78 degrees across).
nlohmann::json duel_camera() {
  return nlohmann::json::parse(R"({
    "image_size": [1920, 1080],
    "camera_matrix": [[1185.5, 0, 959.5], [0, 1185.5, 539.5], [0, 0, 1]],
    "dist_coeffs": [-0.06, 0.02, 0.0004, -0.0003, 0.0]})");
}

std::string camera_error(const nlohmann::json& doc) {
  try {
    parse_camera_model(io::JsonCursor(doc, "camera.json"));
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(CameraChecks, ACameraThatCanExistIsTaken) {
  EXPECT_EQ(camera_error(duel_camera()), "(no error)");
}

TEST(CameraChecks, AbsurdFocalLengthsPrincipalPointsAndDistortionAreRefused) {
  nlohmann::json tele = duel_camera();
  tele["camera_matrix"][0][0] = 1e9;
  EXPECT_THAT(camera_error(tele), HasSubstr("camera.json: camera_matrix: fx = 1e+09 px means a field of view of"));
  nlohmann::json fisheye = duel_camera();
  fisheye["camera_matrix"][1][1] = 10.0;
  EXPECT_THAT(camera_error(fisheye), HasSubstr("fy = 10 px"));
  nlohmann::json off = duel_camera();
  off["camera_matrix"][0][2] = 5000.0;
  EXPECT_THAT(camera_error(off), HasSubstr("the principal point (5000, 539.5) lies outside the 1920x1080 image"));
  nlohmann::json warped = duel_camera();
  warped["dist_coeffs"][0] = 1e6;
  EXPECT_THAT(camera_error(warped), HasSubstr("dist_coeffs: k1 = 1e+06 is beyond any lens"));
  nlohmann::json huge = duel_camera();
  huge["image_size"] = {99999, 1080};
  EXPECT_THAT(camera_error(huge), HasSubstr("image_size[0]: must be an integer between 16 and 16384 (got 99999)"));
}

TEST(CameraChecks, EveryOpenCVDistortionModelIsTakenAndOthersAreNamed) {
  const std::vector<double> full{-0.2,  0.05,  0.001,   -0.001, 0.01,   0.02, -0.01,
                                 0.003, 0.001, -0.0005, 0.0007, 0.0002, 0.01, -0.02};
  for (std::size_t count : kDistortionCounts) {
    nlohmann::json doc = duel_camera();
    doc["dist_coeffs"] = std::vector<double>(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(count));
    const CameraModel camera = parse_camera_model(io::JsonCursor(doc, "camera.json"));
    EXPECT_EQ(camera.dist_coeffs.size(), count);
    EXPECT_EQ(camera.dist_mat().cols, static_cast<int>(count));
    // Written and read back unchanged.
    EXPECT_EQ(parse_camera_model(io::JsonCursor(camera_model_to_json(camera), "again.json")).dist_coeffs,
              camera.dist_coeffs);
  }
  for (std::size_t count : {0u, 3u, 6u, 7u, 9u, 13u, 15u}) {
    nlohmann::json doc = duel_camera();
    doc["dist_coeffs"] = std::vector<double>(count, 0.0);
    EXPECT_THAT(camera_error(doc), HasSubstr("camera.json: dist_coeffs: must hold 4, 5, 8, 12 or 14 numbers")) << count;
  }
  nlohmann::json tilted = duel_camera();
  tilted["dist_coeffs"] = std::vector<double>(14, 0.0);
  tilted["dist_coeffs"][12] = 2.0;
  EXPECT_THAT(camera_error(tilted), HasSubstr("dist_coeffs: tx = 2 is beyond any lens"));
  nlohmann::json prism = duel_camera();
  prism["dist_coeffs"] = std::vector<double>(12, 0.0);
  prism["dist_coeffs"][9] = 5.0;
  EXPECT_THAT(camera_error(prism), HasSubstr("dist_coeffs: s2 = 5 is beyond any lens"));
}

TEST(CameraChecks, TheUncertaintyGridIsReadCheckedAndInterpolated) {
  nlohmann::json doc = duel_camera();
  doc["uncertainty"] = {{"grid", {2, 2}}, {"sigma_px", {0.1, 0.3, 0.5, 0.7}}};
  const CameraModel camera = parse_camera_model(io::JsonCursor(doc, "camera.json"));
  ASSERT_TRUE(camera.uncertainty);
  EXPECT_NEAR(camera.uncertainty->at({0, 0}, camera.image_size), 0.1, 1e-12);
  EXPECT_NEAR(camera.uncertainty->at({1919, 1079}, camera.image_size), 0.7, 1e-12);
  EXPECT_NEAR(camera.uncertainty->at({959.5, 539.5}, camera.image_size), 0.4, 1e-12);
  EXPECT_NEAR(camera.uncertainty->at({-50, 5000}, camera.image_size), 0.5, 1e-12);  // clamped to the image
  // A scaled camera's uncertainty is in its own pixels.
  EXPECT_NEAR(scaled(camera, {960, 540}).uncertainty->at({0, 0}, {960, 540}), 0.05, 1e-12);
  EXPECT_EQ(camera_model_to_json(camera)["uncertainty"], doc["uncertainty"]);
  nlohmann::json short_list = doc;
  short_list["uncertainty"]["sigma_px"] = {0.1, 0.2};
  EXPECT_THAT(camera_error(short_list), HasSubstr("camera.json: uncertainty.sigma_px: "));
  nlohmann::json negative = doc;
  negative["uncertainty"]["sigma_px"][2] = -1.0;
  EXPECT_THAT(camera_error(negative), HasSubstr("camera.json: uncertainty: sigma_px holds -1"));
  nlohmann::json one_node = doc;
  one_node["uncertainty"]["grid"] = {1, 4};
  EXPECT_THAT(camera_error(one_node), HasSubstr("uncertainty.grid: must be two whole numbers 2..256"));
  nlohmann::json typo = doc;
  typo["uncertainty"]["sigmas"] = 1;
  EXPECT_THAT(camera_error(typo), HasSubstr("sigmas"));
}

TEST(CameraChecks, ACameraFileFitsVideosOfItsAspectOnly) {
  const CameraModel camera = parse_camera_model(io::JsonCursor(duel_camera(), "camera.json"));
  EXPECT_EQ(camera_fits_image_problem(camera, cv::Size(1920, 1080)), "");
  EXPECT_EQ(camera_fits_image_problem(camera, cv::Size(1280, 720)), "");  // scaled
  EXPECT_THAT(camera_fits_image_problem(camera, cv::Size(1280, 1024)), HasSubstr("another camera mode"));
  try {
    check_camera_fits_image(camera, cv::Size(640, 480), "camera.json", "the video");
    ADD_FAILURE() << "a 4:3 video was taken";
  } catch (const io::InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("camera.json: image_size: is 1920x1080 (aspect 1.778), but the video is 640x480 "
                                    "(aspect 1.333)"));
  }
}

TEST(CameraChecks, ATablePoseMustSeeTheTable) {
  CameraPose pose;
  pose.camera = parse_camera_model(io::JsonCursor(duel_camera(), "camera.json"));
  // Looking straight down from 1.2 m over the middle of the default table.
  const model::TableSpec table = model::default_table();
  pose.rotation = cv::Matx33d(1, 0, 0, 0, -1, 0, 0, 0, -1);
  const cv::Vec3d centre(table.play_area_mm.x / 2, table.play_area_mm.y / 2, 1200);
  pose.translation = -(pose.rotation * centre);
  EXPECT_EQ(camera_pose_fits_table_problem(pose, table), "");
  // The same camera 30 m off to the side.
  CameraPose far = pose;
  far.translation = -(far.rotation * cv::Vec3d(30000, 0, 1200));
  EXPECT_THAT(camera_pose_fits_table_problem(far, table), HasSubstr("puts the camera 29 m from the play area"));
  // Beside the table, looking level and away from it.
  CameraPose away = pose;
  away.rotation = cv::Matx33d(-1, 0, 0, 0, 0, -1, 0, -1, 0);
  away.translation = -(away.rotation * cv::Vec3d(457, -3000, 100));
  EXPECT_THAT(camera_pose_fits_table_problem(away, table), HasSubstr("no part of its"));
  EXPECT_THROW(check_camera_pose_fits_table(far, table, "pose.json"), io::InputError);
}

}  // namespace
}  // namespace diskref::calib
