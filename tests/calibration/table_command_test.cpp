// `diskref table` end to end on sessions made by `diskref render`: the pose it writes against the
// camera's true pose, a hand over a corner marker, and the bad inputs, each with its message and
// exit status.
#include <fstream>

#include <fmt/format.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_pose.h"
#include "command_runner.h"
#include "engine/io/json_cursor.h"

namespace diskref::calib {
namespace {

using testing::CommandRun;

// A 720p webcam with barrel distortion, tilted 20 degrees, over the spec's table; a hand comes
// over corner marker 0 at 0.4 s and stays.
nlohmann::json scenario() {
  return {
      {"duration_s", 1.0},
      {"fps", 10},
      {"seed", 31},
      {"camera",
       {{"resolution", {1280, 720}},
        {"horizontal_fov_deg", 74},
        {"dist_coeffs", {-0.12, 0.05, 0.0005, -0.0004, -0.01}},
        {"pose", {{"height_mm", 1400}, {"tilt_deg", 20}, {"yaw_deg", 90}}}}},
      {"table", model::table_to_json(model::default_table())},
      {"disks", {{"disks", nlohmann::json::array()}}},
      {"events", {{{"t", 0.4}, {"hand", {{"at_mm", {-45, -45}}, {"enter_s", 0.2}, {"hold_s", 5}, {"height_mm", 30}}}}}},
      {"effects", {{"noise_sigma", 2.0}, {"blur_sigma_px", 0.5}, {"supersample", 3}, {"shutter", 0}}}};
}

// The true pose of the rendered camera (camera.json of `diskref render`).
CameraPose true_pose(const std::string& camera_file) {
  nlohmann::json doc = io::read_json_file(camera_file);
  doc["lens_calibrated"] = true;  // the table pose file's one field camera.json lacks
  return parse_camera_pose(io::JsonCursor(doc, camera_file));
}

double max_play_area_error_mm(const CameraPose& truth, const CameraPose& estimate) {
  double worst = 0;
  for (double x = 0; x <= 914.4 + 1e-9; x += 914.4 / 30)
    for (double y = 0; y <= 914.4 + 1e-9; y += 914.4 / 30) {
      auto mapped = table_from_image(estimate, image_from_table(truth, {x, y, 2.0}), 2.0);
      if (!mapped) return 1e9;
      worst = std::max(worst, std::hypot(mapped->x - x, mapped->y - y));
    }
  return worst;
}

class TableCommand : public testing::CommandTest {
 protected:
  // The scenario's first frames are rendered once for all the tests (by `diskref render`, as a
  // user would), with frame 8 (the hand over marker 0) also as a PNG.
  static std::filesystem::path session_dir() {
    return std::filesystem::temp_directory_path() / ("diskref-table-session-" + std::to_string(::getpid()));
  }
  static void SetUpTestSuite() {
    std::filesystem::create_directories(session_dir());
    std::ofstream(session_dir() / "scenario.json") << scenario().dump(2);
    std::string command = (std::filesystem::path(DISKREF_BINARY_DIR) / "diskref").string() + " render " +
                          (session_dir() / "scenario.json").string() + " --out " + session_dir().string() +
                          " --frames 9 --snapshot 8 --quiet";
    rendered_ = std::system(command.c_str()) == 0;
  }
  static void TearDownTestSuite() { std::filesystem::remove_all(session_dir()); }
  void SetUp() override {
    CommandTest::SetUp();
    ASSERT_TRUE(rendered_) << "diskref render failed";
  }
  std::string session(const std::string& name) const { return (session_dir() / name).string(); }

  static inline bool rendered_ = false;
};

TEST_F(TableCommand, TheVideosFirstFramesGiveTheTruePose) {
  CommandRun r = run("table " + session("video.mp4") + " --table " + session("table.json") + " --calib " +
                     session("camera.json") + " --frames 4 --out " + path("pose.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  std::printf("%s", r.out.c_str());
  CameraPose estimate = load_camera_pose(path("pose.json"));
  CameraPose truth = true_pose(session("camera.json"));
  EXPECT_TRUE(estimate.lens_calibrated);
  EXPECT_EQ(estimate.markers_used, (std::vector<int>{0, 1, 2, 3}));
  EXPECT_LT(cv::norm(estimate.camera_center_table() - truth.camera_center_table()), 5.0);
  EXPECT_LT(max_play_area_error_mm(truth, estimate), 0.5);
  // The report: the fit, the residuals and the distance checks.
  EXPECT_NE(r.out.find("fit to the marker corners"), std::string::npos);
  EXPECT_NE(r.out.find("  0-2  "), std::string::npos);
  EXPECT_NE(r.out.find("wrote " + path("pose.json")), std::string::npos);
  // Each corner marker's reprojection error in the image: the true lens puts each within a pixel.
  EXPECT_NE(r.out.find("marker reprojection errors (px RMS, a check of the lens at the image's edges):"),
            std::string::npos);
  for (int id = 0; id < 4; ++id) {
    const auto at = r.out.find(fmt::format("  marker {} at (", id));
    ASSERT_NE(at, std::string::npos) << id;
    const auto colon = r.out.find("px: ", at);
    EXPECT_LT(std::stod(r.out.substr(colon + 4)), 1.0) << r.out.substr(at, 60);
  }
  EXPECT_EQ(r.out.find("the lens is known to"), std::string::npos);  // no uncertainty in this camera file

  // A camera file with the calibration's uncertainty grid: each marker's error is set against it.
  nlohmann::json camera = io::read_json_file(session("camera.json"));
  camera["uncertainty"] = {{"grid", {2, 2}}, {"sigma_px", {0.25, 0.25, 0.25, 0.25}}};
  std::ofstream(path("camera-u.json")) << camera.dump();
  CommandRun u = run("table " + session("video.mp4") + " --table " + session("table.json") + " --calib " +
                     path("camera-u.json") + " --frames 4 --out " + path("pose-u.json"));
  ASSERT_EQ(u.status, 0) << u.err;
  EXPECT_NE(u.out.find("; the lens is known to 0.25 px there (1 sigma)"), std::string::npos) << u.out;
}

TEST_F(TableCommand, AHandOverAMarkerIsNamedAndThePoseStillHolds) {
  CommandRun r = run("table " + session("frame_000008.png") + " --table " + session("table.json") + " --calib " +
                     session("camera.json") + " --out " + path("pose.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("note: corner marker 0 hidden; pose from markers 1, 2, 3"), std::string::npos) << r.out;
  CameraPose estimate = load_camera_pose(path("pose.json"));
  EXPECT_EQ(estimate.markers_missing, std::vector<int>{0});
  EXPECT_LT(max_play_area_error_mm(true_pose(session("camera.json")), estimate), 0.5);
}

TEST_F(TableCommand, WithoutTheLensItSaysSo) {
  CommandRun r = run("table " + session("video.mp4") + " --table " + session("table.json") + " --frames 4 --out " +
                     path("pose.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("no lens calibration"), std::string::npos) << r.out;
  EXPECT_FALSE(load_camera_pose(path("pose.json")).lens_calibrated);
}

TEST_F(TableCommand, BadInputIsNamed) {
  std::string out = " --out " + path("pose.json");
  CommandRun no_table = run("table " + session("video.mp4") + " --table " + path("nowhere.json") + out);
  EXPECT_EQ(no_table.status, 2);
  EXPECT_NE(no_table.err.find("nowhere.json"), std::string::npos) << no_table.err;

  std::ofstream(path("bad-camera.json")) << R"({"image_size": [1280, 720], "camera_matrix": [[1, 0, 0]]})";
  CommandRun bad_camera = run("table " + session("video.mp4") + " --table " + session("table.json") + " --calib " +
                              path("bad-camera.json") + out);
  EXPECT_EQ(bad_camera.status, 2);
  EXPECT_NE(bad_camera.err.find("bad-camera.json: camera_matrix"), std::string::npos) << bad_camera.err;

  CommandRun no_input = run("table " + path("nowhere.mp4") + " --table " + session("table.json") + out);
  EXPECT_EQ(no_input.status, 2);
  EXPECT_NE(no_input.err.find("nowhere.mp4: does not exist"), std::string::npos) << no_input.err;

  cv::imwrite(path("grey.png"), cv::Mat(720, 1280, CV_8UC1, cv::Scalar(90)));
  CommandRun no_markers = run("table " + path("grey.png") + " --table " + session("table.json") + out);
  EXPECT_EQ(no_markers.status, 1);
  EXPECT_NE(no_markers.err.find("only 0 corner markers visible"), std::string::npos) << no_markers.err;
  EXPECT_FALSE(std::filesystem::exists(path("pose.json")));
}

}  // namespace
}  // namespace diskref::calib
