// The dispute from a photo on the real screen, under Xvfb: a phone photo rendered for the test
// (tests/photo/rendered_photo.h: the disks' tags warped onto a plain table), opened as a user at a
// kitchen table does (`diskref ui --disks disks.json`, no camera) and over the live screen on the
// bundled sample. The screen takes its screenshot once the answer shows (a condition, not a
// time); the answer it shows is the one photo::rule_on_photo gives for the same photo.

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "engine/io/json_cursor.h"
#include "photo/photo_decode.h"
#include "photo/photo_ruling.h"
#include "tests/photo/rendered_photo.h"
#include "tests/ui/screen_run.h"
#include "ui/theme.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;
using ui::testing::q;

// One folder per test: CTest runs the tests side by side, and each writes its photo and registry.
fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-photo" /
               ::testing::UnitTest::GetInstance()->current_test_info()->name();
  fs::create_directories(d);
  return d;
}

fs::path diskref_bin() {
  return fs::path(DISKREF_BINARY_DIR) / "diskref";
}

// The kitchen table (tests/photo/rendered_photo.h): three ships and a torpedo in the registry;
// klingon stays in the box.
nlohmann::json registry_json() {
  return photo::kitchen_registry_json();
}
const std::vector<photo::RenderedDisk>& kTable = photo::kKitchenTable;

struct Files {
  fs::path disks, photo;
};

Files kitchen_table() {
  Files f{out_dir() / "disks.json", out_dir() / "table-photo.png"};
  std::ofstream(f.disks) << registry_json().dump(2) << "\n";
  photo::PhotoCamera camera;
  camera.tilt_deg = 30;
  camera.azimuth_deg = 200;
  camera.look_at = {10, 60};
  EXPECT_TRUE(cv::imwrite(f.photo.string(), photo::render_photo(kTable, camera)));
  return f;
}

struct Shown {
  int status = -1;
  cv::Mat png;
  nlohmann::json views;
};

Shown run_screen(const std::string& name, const std::string& args) {
  const fs::path png = out_dir() / (name + ".png"), views = out_dir() / (name + ".json");
  fs::remove(png);
  fs::remove(views);
  std::ostringstream cmd;
  cmd << "xvfb-run -a -s \"-screen 0 1280x800x24\" " << q(diskref_bin()) << " ui " << args << " --screenshot " << q(png)
      << " --views-json " << q(views);
  Shown s;
  s.status = ui::testing::run(cmd.str());
  s.png = cv::imread(png.string(), cv::IMREAD_COLOR);
  s.views = ui::testing::read_json(views);
  return s;
}

// Pixels exactly of colour `c` inside [x, y, w, h].
int pixels_of(const cv::Mat& img, const nlohmann::json& rect, ui::Rgb c) {
  if (!rect.is_array()) return 0;
  cv::Rect r(rect[0].get<int>(), rect[1].get<int>(), rect[2].get<int>(), rect[3].get<int>());
  r &= cv::Rect(0, 0, img.cols, img.rows);
  int n = 0;
  for (int y = r.y; y < r.y + r.height; ++y)
    for (int x = r.x; x < r.x + r.width; ++x) {
      const cv::Vec3b p = img.at<cv::Vec3b>(y, x);
      n += p[2] == c.r && p[1] == c.g && p[0] == c.b ? 1 : 0;
    }
  return n;
}

// What rule_on_photo says of the same photo and question, in-process.
nlohmann::ordered_json expected_answer(const Files& f, const nlohmann::json& questions) {
  const model::DiskRegistry registry = model::load_disk_registry(f.disks);
  return photo::rule_on_photo(photo::load_photo(f.photo), registry, questions).answer;
}

const char* range_headline(const std::string& call) {
  return call == "yes" ? "IN RANGE" : call == "no" ? "OUT OF RANGE" : "TOO CLOSE TO CALL";
}

TEST(UiPhotoScreen, AtAKitchenTableThePhotoIsAnsweredAsRuleOnPhotoAnswersIt) {
  const Files f = kitchen_table();
  const Shown s =
      run_screen("kitchen", "--disks " + q(f.disks) + " --photo " + q(f.photo) + " --select enterprise,tderet");
  ASSERT_EQ(s.status, 0);
  ASSERT_FALSE(s.png.empty());
  EXPECT_EQ(s.png.size(), cv::Size(1280, 800));
  const nlohmann::json& p = s.views.at("photo");
  EXPECT_FALSE(p.at("busy").get<bool>());
  EXPECT_EQ(p.at("refusal"), "");

  const nlohmann::json questions = nlohmann::json::parse(
      R"([{"id": "q1", "range": {"from": "enterprise", "to": "tderet", "template": {"length_mm": 88.9, "width_mm": 25.4}}}])");
  const nlohmann::ordered_json expected = expected_answer(f, questions);
  const std::string call = expected.at("answers")[0].at("call").get<std::string>();
  ASSERT_EQ(p.at("shown").at("answers").size(), 1u) << p.dump(1);
  const nlohmann::json& shown = p.at("shown").at("answers")[0];
  EXPECT_EQ(shown.at("headline"), range_headline(call)) << expected.dump(1);
  EXPECT_NE(shown.at("detail").get<std::string>().find("margin +"), std::string::npos) << shown.dump();
  EXPECT_EQ(p.at("ruling").at("answers"), nlohmann::json(expected.at("answers")));
  EXPECT_EQ(p.at("shown").at("unseen"), nlohmann::json::array({"klingon"}));
  EXPECT_EQ(p.at("shown").at("disks_seen").size(), 3u);

  // Drawn: the banner in the call's colour, the photo in the picture's place.
  const ui::Rgb colour = call == "yes"  ? ui::colors::kVerdictYes
                         : call == "no" ? ui::colors::kVerdictNo
                                        : ui::colors::kVerdictTooClose;
  EXPECT_GT(pixels_of(s.png, p.at("banner_rect"), colour), 3000) << p.at("banner_rect").dump();
  const nlohmann::json& image = p.at("image_rect");
  ASSERT_TRUE(image.is_array());
  const cv::Rect r(image[0].get<int>(), image[1].get<int>(), image[2].get<int>(), image[3].get<int>());
  ASSERT_TRUE((r & cv::Rect(0, 0, s.png.cols, s.png.rows)) == r) << image.dump();
  EXPECT_GT(r.width, 500);
  cv::Scalar mean, sd;
  cv::meanStdDev(s.png(r), mean, sd);
  EXPECT_GT(sd[0] + sd[1] + sd[2], 40.0) << "the photo, with its tags, is in the picture's place";
}

TEST(UiPhotoScreen, AFileThatIsNoImageIsRefusedInWords) {
  const Files f = kitchen_table();
  const fs::path notes = out_dir() / "notes.jpg";
  std::ofstream(notes) << "remember the milk\n";
  const Shown s = run_screen("refused", "--disks " + q(f.disks) + " --photo " + q(notes));
  ASSERT_EQ(s.status, 0);
  const nlohmann::json& p = s.views.at("photo");
  const std::string refusal = p.at("refusal").get<std::string>();
  EXPECT_NE(refusal.find("notes.jpg"), std::string::npos) << refusal;
  EXPECT_FALSE(p.contains("ruling"));
  EXPECT_GT(pixels_of(s.png, p.at("banner_rect"), ui::colors::kVerdictNo), 2000);
}

// Without a camera or video the screen settles disputes from photos: what needs a video is refused
// (2) before any window opens, as is a registry that is not there.
TEST(UiPhotoScreen, WithoutACameraWhatNeedsOneIsRefusedBeforeAnyWindowOpens) {
  const Files f = kitchen_table();
  EXPECT_EQ(
      ui::testing::run(q(diskref_bin()) + " ui --disks " + q(f.disks) + " --tracks " + q(f.disks) + " 2>/dev/null"), 2);
  EXPECT_EQ(ui::testing::run(q(diskref_bin()) + " ui --disks " + q(f.disks) + " --record " + q(out_dir() / "rec") +
                             " 2>/dev/null"),
            2);
  EXPECT_EQ(ui::testing::run(q(diskref_bin()) + " ui --disks " + q(out_dir() / "no-such-disks.json") + " 2>/dev/null"),
            2);
}

TEST(UiPhotoScreen, OverTheLiveScreenThePhotoPanelCoversTheViews) {
  // The sample duel's registry, and a photo of two of its ships.
  const fs::path sample = fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "duel";
  const model::DiskRegistry registry = model::load_disk_registry(sample / "disks.json");
  std::vector<photo::RenderedDisk> table;
  double y = 0;
  for (const char* name : {"enterprise", "ktinga"}) {
    const model::DiskSpec* d = registry.find(name);
    ASSERT_NE(d, nullptr) << name;
    const double diameter = std::visit(
        [](const auto& shape) {
          using S = std::decay_t<decltype(shape)>;
          if constexpr (std::is_same_v<S, geom::Rect>)
            return shape.length_mm;
          else
            return shape.diameter_mm;
        },
        d->shape);
    table.push_back(
        {name, 0, y, y == 0 ? 90.0 : 270.0, diameter, d->tags.front().size_mm, d->thickness_mm, d->tags.front().id});
    y += 160;
  }
  photo::PhotoCamera camera;
  camera.tilt_deg = 25;
  camera.look_at = {0, 80};
  const fs::path photo_file = out_dir() / "duel-photo.png";
  ASSERT_TRUE(cv::imwrite(photo_file.string(), photo::render_photo(table, camera)));

  const Shown s = run_screen("live", "--video " + q(sample / "video.mp4") + " --frames 2 --photo " + q(photo_file) +
                                         " --select enterprise,ktinga");
  ASSERT_EQ(s.status, 0);
  const nlohmann::json& panels = s.views.at("panels");
  ASSERT_TRUE(panels.contains("photo")) << panels.dump();
  EXPECT_GE(ui::testing::rect_overlap(panels.at("photo"), panels.at("camera")),
            0.99 * panels.at("camera")[2].get<double>() * panels.at("camera")[3].get<double>());
  EXPECT_GT(ui::testing::rect_overlap(panels.at("photo"), panels.at("table")), 0.0);
  const nlohmann::json& p = s.views.at("photo");
  EXPECT_FALSE(p.at("busy").get<bool>());
  ASSERT_EQ(p.at("shown").at("answers").size(), 1u) << p.dump(1);
  const nlohmann::json& answer = p.at("shown").at("answers")[0];
  const std::string headline = answer.at("headline").get<std::string>();
  EXPECT_TRUE(headline == "IN RANGE" || headline == "OUT OF RANGE" || headline == "TOO CLOSE TO CALL") << headline;
  // In front of the views, not behind them: its banner is seen whole.
  const std::string call = answer.at("call").get<std::string>();
  const ui::Rgb colour = call == "yes"  ? ui::colors::kVerdictYes
                         : call == "no" ? ui::colors::kVerdictNo
                                        : ui::colors::kVerdictTooClose;
  const nlohmann::json& banner = p.at("banner_rect");
  EXPECT_GT(pixels_of(s.png, banner, colour), 0.6 * banner[2].get<double>() * banner[3].get<double>()) << banner.dump();
}

}  // namespace
}  // namespace diskref
