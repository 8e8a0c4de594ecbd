// `diskref ui` end to end: the real program, in a real (virtual) X server, on the bundled sample
// video. The pictures are checked against the sample's own ground truth: where the camera really
// was (camera.json's true pose) and where the disks really were (truth.jsonl).

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "calibration/camera_pose.h"
#include "engine/geometry/range.h"
#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"
#include "engine/rules/data_loading.h"
#include "referee/verdicts.h"
#include "ui/theme.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

fs::path sample_dir() {
  if (const char* dir = std::getenv("DISKREF_UI_TEST_SAMPLE")) return dir;  // another sample, for development
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "duel";
}

fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-screen";
  fs::create_directories(d);
  return d;
}

// Runs `diskref ui ARGS` under xvfb-run; returns its exit status.
int run_ui(const std::string& args) {
  std::string cmd = "xvfb-run -a -s \"-screen 0 1280x800x24\" \"" +
                    (fs::path(DISKREF_BINARY_DIR) / "diskref").string() + "\" ui --video \"" +
                    (sample_dir() / "video.mp4").string() + "\" " + args;
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

struct Shot {
  cv::Mat image;  // BGR
  nlohmann::json views;
};

Shot take(const std::string& name, const std::string& args) {
  fs::path png = out_dir() / (name + ".png");
  fs::path json = out_dir() / (name + ".json");
  fs::remove(png);
  EXPECT_EQ(run_ui(args + " --screenshot \"" + png.string() + "\" --views-json \"" + json.string() + "\""), 0);
  Shot s;
  s.image = cv::imread(png.string(), cv::IMREAD_COLOR);
  std::ifstream in(json);
  if (in) in >> s.views;
  return s;
}

// The camera's true pose, from the renderer's camera.json (spec §7 plus "camera_from_table").
calib::CameraPose true_pose() {
  nlohmann::json j = io::read_json_file(sample_dir() / "camera.json");
  j["lens_calibrated"] = true;
  return calib::parse_camera_pose(io::JsonCursor(j, (sample_dir() / "camera.json").string()));
}

model::TrackFrame truth_frame(long long index) {
  for (model::TrackFrame& f : model::load_track_jsonl(sample_dir() / "truth.jsonl")) {
    if (f.frame == index) return f;
  }
  ADD_FAILURE() << "frame " << index << " not in truth.jsonl";
  return {};
}

const model::DiskTrack& disk_in(const model::TrackFrame& f, const std::string& name) {
  for (const model::DiskTrack& d : f.disks) {
    if (d.name == name) return d;
  }
  throw std::runtime_error(name + " not in the truth frame");
}

// Where a table point (mm, at a height) appears in the screenshot's camera view.
cv::Point2d camera_view_pixel(const Shot& s, const calib::CameraPose& pose, double x, double y, double z) {
  cv::Point2d img = calib::image_from_table(pose, cv::Point3d(x, y, z));
  const auto& cv_view = s.views.at("camera_view");
  double scale = cv_view.at("scale").get<double>();
  return {cv_view.at("image_rect")[0].get<double>() + scale * (img.x + 0.5),
          cv_view.at("image_rect")[1].get<double>() + scale * (img.y + 0.5)};
}

cv::Point2d table_view_pixel(const Shot& s, double x, double y) {
  const auto& tv = s.views.at("table_view");
  double k = tv.at("px_per_mm").get<double>();
  return {tv.at("origin")[0].get<double>() + k * x, tv.at("origin")[1].get<double>() - k * y};
}

bool near_color(const cv::Vec3b& bgr, Rgb c, int tol) {
  return std::abs(bgr[2] - c.r) <= tol && std::abs(bgr[1] - c.g) <= tol && std::abs(bgr[0] - c.b) <= tol;
}

// Pixels of colour `c` (within `tol` per channel) in the box of half-size `r` around `at`.
int count_near(const cv::Mat& img, cv::Point2d at, int r, Rgb c, int tol) {
  int n = 0;
  for (int y = static_cast<int>(at.y) - r; y <= static_cast<int>(at.y) + r; ++y) {
    for (int x = static_cast<int>(at.x) - r; x <= static_cast<int>(at.x) + r; ++x) {
      if (x >= 0 && y >= 0 && x < img.cols && y < img.rows && near_color(img.at<cv::Vec3b>(y, x), c, tol)) ++n;
    }
  }
  return n;
}

// Pixels exactly of colour `c` inside a panel rectangle [x, y, w, h].
int count_in_rect(const cv::Mat& img, const nlohmann::json& rect, Rgb c) {
  cv::Rect r(static_cast<int>(rect[0].get<double>()), static_cast<int>(rect[1].get<double>()),
             static_cast<int>(rect[2].get<double>()), static_cast<int>(rect[3].get<double>()));
  r &= cv::Rect(0, 0, img.cols, img.rows);
  int n = 0;
  for (int y = r.y; y < r.y + r.height; ++y) {
    for (int x = r.x; x < r.x + r.width; ++x) n += near_color(img.at<cv::Vec3b>(y, x), c, 0) ? 1 : 0;
  }
  return n;
}

int state_colored(const cv::Mat& img, cv::Point2d at, int r) {
  return count_near(img, at, r, colors::kVisible, 10) + count_near(img, at, r, colors::kMoving, 10) +
         count_near(img, at, r, colors::kStale, 10);
}

class UiScreen : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!fs::is_regular_file(sample_dir() / "video.mp4")) FAIL() << "the sample video is missing: " << sample_dir();
  }
};

// Frame 30 of the duel: ktinga has stood still since the start; enterprise is flipping.
constexpr long long kFrames = 31;

TEST_F(UiScreen, OpensOnTheSampleWithOverlaysWhereTheDisksReallyAre) {
  Shot s = take("opening", "--frames " + std::to_string(kFrames));
  ASSERT_FALSE(s.image.empty()) << "no screenshot";
  // The whole window, at the size asked for.
  EXPECT_EQ(s.image.cols, 1280);
  EXPECT_EQ(s.image.rows, 800);
  ASSERT_EQ(s.views.at("frame").get<long long>(), kFrames - 1);
  // Not blank: the video and the panels give many different colours.
  cv::Scalar mean, stddev;
  cv::meanStdDev(s.image, mean, stddev);
  EXPECT_GT(stddev[0] + stddev[1] + stddev[2], 30.0);

  calib::CameraPose pose = true_pose();
  model::DiskRegistry registry = model::load_disk_registry(sample_dir() / "disks.json");
  model::TrackFrame truth = truth_frame(kFrames - 1);
  const model::DiskTrack& ktinga = disk_in(truth, "ktinga");
  // The camera view marks the disk's centre (on its top face) with a dot in its state colour.
  cv::Point2d in_camera = camera_view_pixel(s, pose, *ktinga.x, *ktinga.y, registry.find("ktinga")->thickness_mm);
  EXPECT_GT(state_colored(s.image, in_camera, 3), 4) << "no disk overlay at ktinga's true place " << in_camera;
  // ... and the table view too.
  cv::Point2d in_table = table_view_pixel(s, *ktinga.x, *ktinga.y);
  EXPECT_GT(state_colored(s.image, in_table, 3), 4) << "no disk at ktinga's true place in the table view " << in_table;
  // Where there is no disk there is no overlay: an empty stretch of the play area.
  cv::Point2d empty = camera_view_pixel(s, pose, 150, 780, 0);
  EXPECT_EQ(state_colored(s.image, empty, 6), 0) << empty;
  // Nothing is selected: no verdict banner in the dispute panel.
  for (Rgb c : {colors::kVerdictYes, colors::kVerdictNo, colors::kVerdictTooClose}) {
    EXPECT_LT(count_in_rect(s.image, s.views.at("panels").at("dispute"), c), 50);
  }
}

TEST_F(UiScreen, TheDisputePanelGivesTheCallForTwoPreselectedDisks) {
  // Ground-truth tracks, so the expected call is known exactly.
  fs::path truth = sample_dir() / "truth.jsonl";
  Shot s = take("dispute", "--frames " + std::to_string(kFrames) + " --tracks \"" + truth.string() +
                               "\" --select enterprise,ktinga --flip ktinga:2");
  ASSERT_FALSE(s.image.empty());
  model::DiskRegistry registry = model::load_disk_registry(sample_dir() / "disks.json");
  model::TrackFrame f = truth_frame(kFrames - 1);
  const model::DiskTrack& a = disk_in(f, "enterprise");
  const model::DiskTrack& b = disk_in(f, "ktinga");
  geom::PlacedShape pa{registry.find("enterprise")->shape, geom::Pose::from_degrees(*a.x, *a.y, *a.heading)};
  geom::PlacedShape pb{registry.find("ktinga")->shape, geom::Pose::from_degrees(*b.x, *b.y, *b.heading)};
  // The screen measures with the rules' template, from the game data.
  geom::Rect rules_template =
      rules::load_game_data({fs::path(DISKREF_SOURCE_DIR) / "data" / "rules"}).parameters.range_template;
  geom::RangeOutput range = geom::range_check(pa, pb, rules_template);
  referee::Call expected = referee::call_margin(range.margin_mm, referee::combined_sigma(a.sigma_mm, b.sigma_mm));
  Rgb banner = expected == referee::Call::yes  ? colors::kVerdictYes
               : expected == referee::Call::no ? colors::kVerdictNo
                                               : colors::kVerdictTooClose;

  const nlohmann::json& panel = s.views.at("panels").at("dispute");
  EXPECT_GT(count_in_rect(s.image, panel, banner), 3000) << "the verdict banner (margin " << range.margin_mm << " mm)";
  for (Rgb other : {colors::kVerdictYes, colors::kVerdictNo, colors::kVerdictTooClose}) {
    if (other.r != banner.r) {
      EXPECT_LT(count_in_rect(s.image, panel, other), 50);
    }
  }
  // The chosen disks are marked in the camera view in their selection colours.
  calib::CameraPose pose = true_pose();
  cv::Point2d at_a = camera_view_pixel(s, pose, *a.x, *a.y, 2.0);
  cv::Point2d at_b = camera_view_pixel(s, pose, *b.x, *b.y, 2.0);
  EXPECT_GT(count_near(s.image, at_a, 20, colors::kSelectA, 12), 15) << at_a;
  EXPECT_GT(count_near(s.image, at_b, 20, colors::kSelectB, 12), 15) << at_b;
}

TEST_F(UiScreen, BadPreselectionIsRefusedBeforeAnyWindowOpens) {
  EXPECT_EQ(run_ui("--frames 1 --select enterprise,nosuchship --screenshot /dev/null 2>/dev/null"), 2);
}

// Camera settings go with a camera: with a video they are refused (2) before any window opens.
TEST_F(UiScreen, CameraSettingsWithAVideoAreRefusedBeforeAnyWindowOpens) {
  EXPECT_EQ(run_ui("--frames 1 --camera-size 1280x720 2>/dev/null"), 2);
  EXPECT_EQ(run_ui("--frames 1 --exposure 30 2>/dev/null"), 2);
}

}  // namespace
}  // namespace diskref::ui
