// A first table, end to end, as a new user makes it: nothing but the game file. The real program
// under Xvfb is driven through every step of `diskref ui --setup` by a script of what its buttons
// do (ui/setup_script.h), and checked at each step against the truth of a rendered table:
//   1. play area, camera and kit, with no camera yet: the kit's files are written (and the run
//      stops there; the next run takes the setup up where it stopped);
//   2. a render of a new table made from exactly the kit the setup wrote (its registry, its table
//      file, its calibration board): the board shown to the camera, then the disks on the table,
//      some flipped;
//   3. calibration (the lens found is the render's), the table (the pose found is the render's),
//      every disk seen and named, then "Start the table": the companion screen refereeing the game
//      over the same video, whose recorded tracks match the render's truth.
// Each step's screenshot is written to build/test-output/ui-setup/ (the pictures of
// docs/guide/first-table.md come from there: scripts/setup-screenshots.sh).

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include "tests/ui/screen_run.h"

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"
#include "ui/theme.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-setup";
  fs::create_directories(d);
  return d;
}
fs::path diskref_bin() {
  return fs::path(DISKREF_BINARY_DIR) / "diskref";
}
fs::path game_file() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish" / "game.json";
}

using testing::q;
using testing::read_json;
using testing::run;

void write_lines(const fs::path& file, const std::vector<std::string>& lines) {
  std::ofstream out(file);
  for (const std::string& l : lines) out << l << "\n";
}

std::string screenshot(double t, const std::string& name) {
  return R"({"t": )" + std::to_string(t) + R"(, "do": "screenshot", "file": ")" +
         (out_dir() / (name + ".png")).string() + R"("})";
}

std::string advice_text(const nlohmann::json& shot) {
  std::string all;
  for (const nlohmann::json& a : shot.value("advice", nlohmann::json::array()))
    all += a.at("level").get<std::string>() + ": " + a.at("text").get<std::string>() + " -> " +
           a.at("fix").get<std::string>() + "\n";
  return all;
}

int problems(const nlohmann::json& shot) {
  int n = 0;
  for (const nlohmann::json& a : shot.value("advice", nlohmann::json::array())) n += a.at("level") == "problem";
  return n;
}

// The render of the new table: the kit's own files, a 1080p webcam with a mild barrel 950 mm above a
// 500 mm square, the board held up at 12 poses, then two flips and a turn.
std::string scenario(const fs::path& setup_dir) {
  nlohmann::json s = {
      {"duration_s", 23},
      {"fps", 15},
      {"seed", 11},
      {"camera",
       {{"resolution", {1920, 1080}},
        {"horizontal_fov_deg", 70},
        {"dist_coeffs", {-0.06, 0.02, 0.0, 0.0, 0.0}},
        {"pose", {{"height_mm", 950}, {"tilt_deg", 3}, {"yaw_deg", 90}, {"look_at_mm", {250, 250}}}}}},
      {"table", (setup_dir / "table.json").string()},
      {"disks", (setup_dir / "disks.json").string()},
      {"surface", {{"mat", "cloth"}, {"table", "wood"}}},
      {"start",
       {{{"disk", "enterprise"}, {"x", 110}, {"y", 140}, {"heading", 20}},
        {{"disk", "tderet"}, {"x", 390}, {"y", 360}, {"heading", 210}},
        {{"disk", "torpedo-1"}, {"x", 70}, {"y", 420}, {"heading", 0}},
        {{"disk", "torpedo-2"}, {"x", 150}, {"y", 430}, {"heading", 90}},
        {{"disk", "torpedo-3"}, {"x", 230}, {"y", 440}, {"heading", 180}, {"face", "down"}},
        {{"disk", "torpedo-4"}, {"x", 300}, {"y", 70}, {"heading", 45}},
        {{"disk", "torpedo-5"}, {"x", 370}, {"y", 80}, {"heading", 135}},
        {{"disk", "torpedo-6"}, {"x", 440}, {"y", 90}, {"heading", 270}, {"face", "down"}},
        {{"disk", "range"}, {"x", 250}, {"y", 250}, {"heading", 60}}}},
      {"events",
       {{{"t", 0.5},
         {"board",
          {{"type", "charuco"}, {"cols", 7}, {"rows", 5}, {"square_mm", 30}, {"marker_mm", 22}, {"poses", 12}}}},
        {{"t", 16.5}, {"flip", {{"disk", "enterprise"}, {"count", 2}}}},
        {{"t", 18.0}, {"flip", {{"disk", "torpedo-1"}, {"count", 1}}}},
        {{"t", 19.0}, {"rotate", {{"disk", "tderet"}, {"heading", 150}}}}}},
      {"effects", {{"noise_sigma", 2}, {"blur_sigma_px", 0.5}, {"vignetting", 0.2}, {"light_gradient", 0.15}}}};
  return s.dump(1);
}

calib::CameraPose true_pose(const fs::path& camera_json) {
  nlohmann::json j = io::read_json_file(camera_json);
  j["lens_calibrated"] = true;
  return calib::parse_camera_pose(io::JsonCursor(j, camera_json.string()));
}

TEST(UiSetupScreen, ANewTableFromTheGameFileAloneToTrackingThroughEveryStep) {
  const fs::path dir = out_dir() / "mytable";
  fs::remove_all(dir);
  const std::string xvfb = "xvfb-run -a -s \"-screen 0 1280x800x24\" ";

  // 1. Play area, camera and kit, before there is a camera: then the run stops.
  const fs::path script1 = out_dir() / "script-1.jsonl";
  write_lines(script1, {R"({"t": 0, "do": "set_play_area", "w": 500, "h": 500})", screenshot(0, "1-play-area"),
                        R"({"t": 0, "do": "next"})",
                        R"({"t": 0, "do": "set_camera", "resolution": [1920, 1080], "fov": 70, "height": 950})",
                        screenshot(0, "2-camera"), R"({"t": 0, "do": "next"})", R"({"t": 0, "do": "make_kit"})",
                        screenshot(0, "3-kit"), R"({"t": 0, "do": "next"})", screenshot(0, "4-no-camera"),
                        R"({"t": 0, "do": "quit"})"});
  ASSERT_EQ(run(xvfb + q(diskref_bin()) + " ui --setup " + q(dir) + " --game " + q(game_file()) + " --setup-script " +
                q(script1)),
            0);
  for (const char* f : {"setup.json", "table.json", "disks.json", "kit.pdf"}) ASSERT_TRUE(fs::exists(dir / f)) << f;
  const nlohmann::json play_area = read_json(out_dir() / "1-play-area.json");
  EXPECT_EQ(play_area.at("step"), "play_area");
  EXPECT_EQ(problems(play_area), 0) << advice_text(play_area);
  const nlohmann::json camera = read_json(out_dir() / "2-camera.json");
  EXPECT_EQ(camera.at("step"), "camera");
  EXPECT_EQ(problems(camera), 0) << advice_text(camera);  // this camera sees it all and reads every tag
  const nlohmann::json kit = read_json(out_dir() / "3-kit.json");
  EXPECT_NE(advice_text(kit).find("9 disks (17 tags"), std::string::npos) << advice_text(kit);
  const nlohmann::json no_camera = read_json(out_dir() / "4-no-camera.json");
  EXPECT_EQ(no_camera.at("step"), "calibration");
  EXPECT_NE(advice_text(no_camera).find("--camera 0"), std::string::npos) << advice_text(no_camera);
  // The kit: two ships (two faces), six torpedoes (two faces), the range template; the referee takes it.
  const model::DiskRegistry registry = model::load_disk_registry(dir / "disks.json");
  ASSERT_EQ(registry.disks().size(), 9u);
  EXPECT_EQ(registry.find("enterprise")->tags.size(), 2u);
  EXPECT_EQ(registry.find("torpedo-6")->tags.size(), 2u);
  EXPECT_EQ(registry.find("range")->kind, model::DiskKind::template_);

  // 2. The new table, rendered from the kit the setup wrote.
  const fs::path render = out_dir() / "render";
  std::ofstream(out_dir() / "scenario.json") << scenario(dir);
  ASSERT_EQ(run(q(diskref_bin()) + " render " + q(out_dir() / "scenario.json") + " --out " + q(render) +
                " --quiet > /dev/null"),
            0);

  // 3. Calibration, table, disks, then the table itself: taken up where the first run stopped.
  const fs::path script2 = out_dir() / "script-2.jsonl";
  write_lines(script2, {screenshot(9.0, "5-calibration"), R"({"t": 14.5, "do": "calibrate"})",
                        screenshot(14.55, "6-calibrated"), R"({"t": 14.6, "do": "next"})", screenshot(15.3, "7-table"),
                        R"({"t": 15.4, "do": "next"})", screenshot(20.5, "8-disks"), R"({"t": 20.6, "do": "next"})",
                        screenshot(20.6, "9-ready"), R"({"t": 20.7, "do": "start"})"});
  const fs::path rec = out_dir() / "recorded";
  fs::remove_all(rec);
  ASSERT_EQ(run(xvfb + q(diskref_bin()) + " ui --setup " + q(dir) + " --video " + q(render / "video.mp4") +
                " --setup-script " + q(script2) + " --record " + q(rec) + " --screenshot " +
                q(out_dir() / "10-table.png") + " --views-json " + q(out_dir() / "10-table.json") + " --frames 100000"),
            0);

  // Calibration: a good fit, kept, and the lens is the render's.
  const nlohmann::json calibrating = read_json(out_dir() / "5-calibration.json");
  EXPECT_EQ(calibrating.at("step"), "calibration");
  EXPECT_FALSE(calibrating.at("log").empty()) << "views are judged as they come";
  // Under way, the region known worst so far is drawn over the picture with the words.
  bool board_here = false;
  for (const auto& label : calibrating.at("labels"))
    board_here |= label.get<std::string>().find("show the board here") == 0;
  EXPECT_TRUE(board_here) << calibrating.at("labels").dump();
  const nlohmann::json calibrated = read_json(out_dir() / "6-calibrated.json");
  ASSERT_TRUE(calibrated.contains("rms_px")) << calibrated.dump(1);
  // Judged by its projection uncertainty over the central picture, not by the RMS.
  const std::string judged = advice_text(calibrated);
  EXPECT_TRUE(judged.find("excellent: the lens (") != std::string::npos ||
              judged.find("good: the lens (") != std::string::npos)
      << judged;
  const calib::CameraModel found = calib::load_camera_model(dir / "camera.json");
  const calib::CameraModel lens = calib::load_camera_model(render / "camera.json");
  std::printf("calibration: RMS %.3f px; fx %.2f px (true %.2f, %+.3f %%), cx %+.2f px, cy %+.2f px off\n",
              calibrated.at("rms_px").get<double>(), found.fx(), lens.fx(), 100 * (found.fx() / lens.fx() - 1),
              found.cx() - lens.cx(), found.cy() - lens.cy());
  EXPECT_NEAR(found.fx(), lens.fx(), 0.005 * lens.fx());
  EXPECT_NEAR(found.cx(), lens.cx(), 3.0);
  EXPECT_NEAR(found.cy(), lens.cy(), 3.0);

  // The table: four markers, their distances as the table file says, the camera where it was.
  const nlohmann::json table = read_json(out_dir() / "7-table.json");
  EXPECT_EQ(table.at("step"), "table");
  EXPECT_TRUE(table.at("ready").get<bool>()) << advice_text(table);
  EXPECT_EQ(problems(table), 0) << advice_text(table);
  EXPECT_EQ(table.at("figures").at("corner markers found"), "4 of 4");
  const calib::CameraPose pose = calib::load_camera_pose(dir / "table_pose.json");
  const cv::Vec3d where = pose.camera_center_table(), really = true_pose(render / "camera.json").camera_center_table();
  std::printf("table: camera centre found %.1f mm from the true one; fit %s\n", cv::norm(where - really),
              table.at("figures").at("fit").get<std::string>().c_str());
  EXPECT_LT(cv::norm(where - really), 5.0) << where << " vs " << really;
  // Where the table step drew marker 0, the screenshot is green (the marker found).
  {
    const cv::Mat shot = cv::imread((out_dir() / "7-table.png").string());
    ASSERT_FALSE(shot.empty());
    const nlohmann::json& p = table.at("picture");
    const model::TableSpec spec = model::load_table(dir / "table.json");
    const cv::Point2d px =
        calib::image_from_table(pose, {spec.corner_markers[0].center_mm.x + spec.corner_markers[0].size_mm / 2,
                                       spec.corner_markers[0].center_mm.y, 0});
    const double k = p.at("scale").get<double>();
    const cv::Point at(static_cast<int>(p.at("image_rect")[0].get<double>() + k * (px.x + 0.5)),
                       static_cast<int>(p.at("image_rect")[1].get<double>() + k * (px.y + 0.5)));
    int green = 0;
    for (int y = at.y - 4; y <= at.y + 4; ++y)
      for (int x = at.x - 4; x <= at.x + 4; ++x) {
        const cv::Vec3b c = shot.at<cv::Vec3b>(y, x);
        green += std::abs(c[1] - colors::kVisible.g) < 30 && std::abs(c[2] - colors::kVisible.r) < 40 &&
                 std::abs(c[0] - colors::kVisible.b) < 40;
      }
    EXPECT_GT(green, 3) << "marker 0's outline at " << at;
  }

  // The disks: every one seen and named, the flipped ones on both faces, their faces agreeing.
  const nlohmann::json disks = read_json(out_dir() / "8-disks.json");
  EXPECT_EQ(disks.at("step"), "disks");
  EXPECT_TRUE(disks.at("ready").get<bool>()) << advice_text(disks);
  EXPECT_EQ(disks.at("figures").at("disks seen"), "9 of 9");
  std::map<std::string, std::vector<std::string>> rows;
  for (std::size_t r = 1; r < disks.at("table").size(); ++r) rows[disks.at("table")[r][0]] = disks.at("table")[r];
  EXPECT_EQ(rows["enterprise"][2], "up, down");
  EXPECT_EQ(rows["enterprise"][4], "2");  // two flips, each face read
  EXPECT_EQ(rows["torpedo-1"][2], "up, down");
  EXPECT_NE(advice_text(disks).find("enterprise: both faces agree to"), std::string::npos) << advice_text(disks);
  const nlohmann::json ready = read_json(out_dir() / "9-ready.json");
  EXPECT_EQ(ready.at("step"), "done");
  const nlohmann::json state = read_json(dir / "setup.json");
  for (const char* step : {"play_area", "camera", "kit", "calibration", "table", "disks"})
    EXPECT_TRUE(state.at("steps").contains(step)) << step;

  // The table, started from the setup: the companion screen went on with the video where the setup
  // stopped, with the setup's files, refereeing its game; the recorded tracks are the render's truth.
  const nlohmann::json final_views = read_json(out_dir() / "10-table.json");
  EXPECT_TRUE(final_views.contains("game")) << "the table starts with the setup's game";
  const std::vector<model::TrackFrame> tracked = model::load_track_jsonl(rec / "track.jsonl");
  const std::vector<model::TrackFrame> truth = model::load_track_jsonl(render / "truth.jsonl");
  ASSERT_FALSE(tracked.empty());
  EXPECT_GE(tracked.front().frame, static_cast<long long>(20.7 * 15)) << "the table goes on where the setup stopped";
  const model::TrackFrame& last = tracked.back();
  const model::TrackFrame* expected = nullptr;
  for (const model::TrackFrame& f : truth)
    if (f.frame == last.frame) expected = &f;
  ASSERT_NE(expected, nullptr);
  int compared = 0;
  double worst = 0;
  for (const model::DiskTrack& t : expected->disks) {
    if (t.state != model::TrackState::visible) continue;
    SCOPED_TRACE(t.name);
    const model::DiskTrack* seen = nullptr;
    for (const model::DiskTrack& d : last.disks)
      if (d.name == t.name) seen = &d;
    ASSERT_NE(seen, nullptr);
    EXPECT_EQ(seen->state, model::TrackState::visible);
    EXPECT_EQ(seen->face, t.face);
    const double off = std::hypot(*seen->x - *t.x, *seen->y - *t.y);
    worst = std::max(worst, off);
    EXPECT_LT(off, 1.0);
    ++compared;
  }
  EXPECT_EQ(compared, 9);
  std::printf(
      "the table started from the setup: frames %lld to %lld tracked, %d disks, the farthest %.2f mm from the truth\n",
      tracked.front().frame, last.frame, compared, worst);
  // Every step's picture, at the window's size; a JPEG copy of each for the docs
  // (scripts/setup-screenshots.sh copies them to docs/images).
  fs::create_directories(out_dir() / "readme");
  for (const char* name : {"1-play-area", "2-camera", "3-kit", "4-no-camera", "5-calibration", "6-calibrated",
                           "7-table", "8-disks", "9-ready", "10-table"}) {
    const cv::Mat shot = cv::imread((out_dir() / (std::string(name) + ".png")).string());
    EXPECT_EQ(shot.cols, 1280) << name;
    EXPECT_EQ(shot.rows, 800) << name;
    if (!shot.empty())
      cv::imwrite((out_dir() / "readme" / ("setup-" + std::string(name) + ".jpg")).string(), shot,
                  {cv::IMWRITE_JPEG_QUALITY, 88});
  }
}

}  // namespace
}  // namespace diskref::ui
