// A camera file that can exist, a camera file that fits the video, a table pose that fits the
// table: each problem named in the file that has it, not blamed on the table later.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

TEST(CameraChecks, ACameraThatCanExistIsTaken) { EXPECT_EQ(camera_error(duel_camera()), "(no error)"); }

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
