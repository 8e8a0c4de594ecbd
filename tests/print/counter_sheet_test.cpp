// Counters as `diskref tags` prints them (print/counter_sheet.h), judged on the sheet's pixels at
// an odd resolution (237 DPI): both faces' tags read by the AprilTag detector at their size, the
// two faces one counter and a hinge apart, each face saying inside it what it shows; and the
// command refusing a camera that cannot read them, saying which would.

#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>
#include <tuple>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/json_cursor.h"
#include "print/counter_sheet.h"
#include "print/tag_sheet.h"
#include "tests/calibration/command_runner.h"
#include "vision/apriltag_detector.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;

constexpr double kDpi = 237;
constexpr double kPxPerMm = kDpi / 25.4;

const char* const kCounters = R"({"disks": [
  {"name": "counter-bridge", "kind": "counter", "shape": {"type": "circle", "diameter_mm": 38.1},
   "tags": [{"id": 100, "face": "up", "size_mm": 14.5, "shows": "hit"},
            {"id": 101, "face": "down", "size_mm": 14.5, "shows": "critical", "crit": "bridge"}]},
  {"name": "counter-blank", "kind": "counter", "thickness_mm": 3, "shape": {"type": "circle", "diameter_mm": 50},
   "tags": [{"id": 102, "face": "up", "size_mm": 18, "shows": "hit"},
            {"id": 103, "face": "down", "size_mm": 18, "shows": "blank"}]}
]})";

model::DiskRegistry registry() {
  const nlohmann::json doc = nlohmann::json::parse(kCounters);
  return model::parse_disk_registry(io::JsonCursor(doc, "disks.json"));
}

TEST(CounterSheet, BothFacesAreReadOneCounterAndAFoldApartEachSayingWhatItShows) {
  const model::DiskRegistry disks = registry();
  print::SheetOptions options;
  options.dpi = kDpi;
  options.board.reset();
  std::vector<print::SheetPlacement> placements;
  const std::vector<cv::Mat> pages = print::tag_sheets(disks, nullptr, options, &placements);
  ASSERT_EQ(pages.size(), 1u);
  cv::Mat grey;
  cv::cvtColor(pages[0], grey, cv::COLOR_BGR2GRAY);
  std::map<int, vision::TagDetection> found;
  for (const vision::TagDetection& d : vision::AprilTagDetector().detect(grey)) found[d.id] = d;
  ASSERT_EQ(found.size(), 4u) << "both faces of both counters";
  for (const auto& [id, d] : found) {
    const double side = std::hypot(d.corners[1].x - d.corners[0].x, d.corners[1].y - d.corners[0].y) / kPxPerMm;
    EXPECT_NEAR(side, id < 102 ? 14.5 : 18, 0.5) << "tag " << id;
  }
  // One piece each: the faces side by side, a counter's width and the hinge (its thickness) apart,
  // folded on two lines.
  for (const auto& [up, down, diameter, thick] : {std::tuple{100, 101, 38.1, 2.0}, std::tuple{102, 103, 50.0, 3.0}}) {
    const cv::Point2d a = found[up].center, b = found[down].center;
    EXPECT_NEAR((b.x - a.x) / kPxPerMm, diameter + thick, 0.3) << "tag " << up;
    EXPECT_NEAR((b.y - a.y) / kPxPerMm, 0, 0.3) << "tag " << up;
  }
  ASSERT_EQ(placements.size(), 2u);
  std::map<std::string, std::multiset<std::string>> words;
  for (const print::SheetPlacement& p : placements) {
    EXPECT_EQ(p.fold_lines_mm.size(), 2u) << p.what;
    for (const auto& l : p.inside_labels) words[p.what].insert(l.text);
  }
  // Inside each face its name and what it shows, where other two-faced disks say "up"/"down".
  EXPECT_EQ(words["counter-bridge: up | down"],
            (std::multiset<std::string>{"counter-bridge", "counter-bridge", "HIT!", "bridge"}));
  EXPECT_EQ(words["counter-blank: up | down"],
            (std::multiset<std::string>{"counter-blank", "counter-blank", "HIT!", "blank"}));
}

TEST(CounterSheet, TheLabelUnderAPieceSaysWhatEachFaceShows) {
  const model::DiskRegistry disks = registry();
  EXPECT_EQ(print::counter_faces_line(*disks.find("counter-blank")), "up HIT!, down blank");
  EXPECT_EQ(print::counter_faces_line(*disks.find("counter-bridge")), "up HIT!, down bridge critical");
  EXPECT_EQ(print::counter_face_word(*disks.find("counter-bridge"), model::Face::down), "bridge");
}

TEST(CounterSheet, ACameraThatCannotReadTheCountersSaysWhichWould) {
  const model::DiskRegistry disks = registry();
  EXPECT_TRUE(print::counter_read_problems(disks, {{1920, 1080}, 78, 1200}).empty());
  const std::vector<std::string> problems = print::counter_read_problems(disks, {{1280, 720}, 78, 1200});
  ASSERT_EQ(problems.size(), 2u) << "one line per tag size";
  // 14.5 mm tags, 2.9 mm cells; f = 640 / tan(39 deg) = 790.3 px: 1.91 px a cell from 1.2 m.
  EXPECT_NE(
      problems[0].find("counter tags of 14.5 mm (counter-bridge up (tag 100), counter-bridge down (tag 101)) have "
                       "1.91 px per cell seen from 1200 mm by a 1280x720 camera"),
      std::string::npos)
      << problems[0];
  EXPECT_NE(
      problems[0].find("hang this camera at most 916 mm above the table, or use one of at least 1676x943 at 1200 mm"),
      std::string::npos)
      << problems[0];
}

class CounterTagsCommand : public testing::CommandTest {};

TEST_F(CounterTagsCommand, RefusesACameraThatCannotReadTheCounters) {
  std::ofstream(path("disks.json")) << kCounters;
  testing::CommandRun r = run("tags --disks " + path("disks.json") + " --out " + path("sheet.pdf") +
                              " --camera-resolution 1280x720 --camera-fov 78 --camera-height 1200");
  EXPECT_EQ(r.status, 2) << r.err;
  EXPECT_NE(r.err.find("disks.json: counter tags of 14.5 mm"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("sheet.pdf"))) << "nothing printed";
  r = run("tags --disks " + path("disks.json") + " --out " + path("sheet.pdf") +
          " --camera-resolution 1920x1080 --camera-fov 78 --camera-height 1200");
  EXPECT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(fs::exists(path("sheet.pdf")));
}

}  // namespace
}  // namespace diskref
