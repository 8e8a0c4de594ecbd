// `diskref render` end to end: the files it writes, and its message for a bad scenario.

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/videoio.hpp>

#include "calibration/camera_model.h"
#include "engine/model/track_frame.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

namespace fs = std::filesystem;

struct CommandResult {
  int status = -1;
  std::string output;  // stdout and stderr
};

CommandResult run(const std::string& args) {
  std::string command = std::string(DISKREF_BINARY_DIR) + "/diskref " + args + " 2>&1";
  CommandResult r;
  FILE* pipe = popen(command.c_str(), "r");
  char buffer[4096];
  while (std::fgets(buffer, sizeof buffer, pipe)) r.output += buffer;
  int status = pclose(pipe);
  r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  return r;
}

fs::path temp_dir(const std::string& name) {
  fs::path dir = fs::temp_directory_path() / ("diskref-render-test-" + name + "-" + std::to_string(::getpid()));
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

TEST(RenderCommand, WritesVideoTruthAndTheTableDisksAndCameraFiles) {
  fs::path dir = temp_dir("ok");
  nlohmann::json doc = testing::small_table_scenario(true, true);
  doc["camera"]["resolution"] = {640, 360};
  std::ofstream(dir / "scenario.json") << doc.dump(2);
  CommandResult r = run("render " + (dir / "scenario.json").string() + " --out " + (dir / "out").string() +
                        " --frames 4 --snapshot 2 --quiet");
  ASSERT_EQ(r.status, 0) << r.output;
  EXPECT_NE(r.output.find("rendered 4 frames (640x360)"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("frames/s"), std::string::npos);

  cv::VideoCapture video((dir / "out" / "video.mp4").string(), cv::CAP_FFMPEG);
  ASSERT_TRUE(video.isOpened());
  int frames = 0;
  cv::Mat f;
  while (video.read(f)) ++frames;
  EXPECT_EQ(frames, 4);
  EXPECT_TRUE(fs::exists(dir / "out" / "frame_000002.png"));
  auto truth = model::load_track_jsonl(dir / "out" / "truth.jsonl");
  ASSERT_EQ(truth.size(), 4u);
  EXPECT_EQ(truth[3].frame, 3);
  EXPECT_NEAR(truth[3].t, 0.3, 1e-9);
  calib::CameraModel camera = calib::load_camera_model(dir / "out" / "camera.json");
  EXPECT_EQ(camera.image_size, cv::Size(640, 360));
  EXPECT_EQ(camera.dist_coeffs[0], -0.25);
  EXPECT_NO_THROW(model::load_table(dir / "out" / "table.json"));
  EXPECT_EQ(model::load_disk_registry(dir / "out" / "disks.json").disks().size(), 5u);
  fs::remove_all(dir);
}

TEST(RenderCommand, ABadScenarioIsNamedWithItsPlaceAndProblem) {
  fs::path dir = temp_dir("bad");
  nlohmann::json doc = testing::small_table_scenario(false, false);
  doc["events"] = {{{"t", 0.5}, {"flip", {{"disk", "voyager"}}}}};
  std::ofstream(dir / "scenario.json") << doc.dump(2);
  CommandResult r = run("render " + (dir / "scenario.json").string() + " --out " + (dir / "out").string());
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.output.find("scenario.json: events[0].flip.disk: no disk named \"voyager\""), std::string::npos)
      << r.output;
  EXPECT_FALSE(fs::exists(dir / "out" / "video.mp4"));
  fs::remove_all(dir);
}

}  // namespace
}  // namespace diskref::simulator
