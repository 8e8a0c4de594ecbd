// `diskref ui --game` on the drops sample under Xvfb: while the critical check waits for the
// referee's word on the counter leaning on one left lying, the screen outlines the counters read
// (green, with what they show), the one asked about (amber) and what it lies against (red), shows
// the tally and the question, and offers a button per face of that counter; at the end the
// referee's answer from the inputs has completed the drop.

#include <filesystem>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "tests/ui/screen_run.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;
using ui::testing::q;
using ui::testing::rect_overlap;

fs::path sample() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "drops";
}

fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-drops";
  fs::create_directories(d);
  return d;
}

struct Shown {
  int status = -1;
  nlohmann::json views;
  cv::Mat png;
};

Shown show(const std::string& name, int frames) {
  const fs::path png = out_dir() / (name + ".png"), views = out_dir() / (name + ".json");
  fs::remove(png);
  fs::remove(views);
  const fs::path s = sample();
  std::ostringstream cmd;
  cmd << "xvfb-run -a -s \"-screen 0 1600x900x24\" " << q(fs::path(DISKREF_BINARY_DIR) / "diskref") << " ui --video "
      << q(s / "video.mp4") << " --game " << q(s / "game.json") << " --inputs " << q(s / "inputs.jsonl")
      << " --screenshot " << q(png) << " --views-json " << q(views) << " --frames " << frames
      << " --size 1600x900 --zoom";
  Shown out;
  out.status = ui::testing::run(cmd.str());
  out.views = ui::testing::read_json(views);
  out.png = cv::imread(png.string(), cv::IMREAD_COLOR);
  return out;
}

// Pixels of a colour (BGR, each channel within 40) in a panel's rectangle [x, y, w, h].
int pixels_like(const cv::Mat& png, const nlohmann::json& rect, cv::Vec3b colour) {
  int n = 0;
  const int x0 = rect[0].get<int>(), y0 = rect[1].get<int>(), w = rect[2].get<int>(), h = rect[3].get<int>();
  for (int y = std::max(0, y0); y < std::min(png.rows, y0 + h); ++y)
    for (int x = std::max(0, x0); x < std::min(png.cols, x0 + w); ++x) {
      const cv::Vec3b p = png.at<cv::Vec3b>(y, x);
      if (std::abs(p[0] - colour[0]) < 40 && std::abs(p[1] - colour[1]) < 40 && std::abs(p[2] - colour[2]) < 40) ++n;
    }
  return n;
}

TEST(UiDropsScreen, ACounterAskedAboutIsOutlinedWithTheQuestionAndAButtonPerFace) {
  Shown s = show("question", 245);  // 8.1 s: the critical check waits for the word on counter-5
  ASSERT_EQ(s.status, 0);
  ASSERT_FALSE(s.png.empty());
  const nlohmann::json& g = s.views.at("game");
  ASSERT_TRUE(g.contains("counters")) << g.dump(1);
  const nlohmann::json& c = g.at("counters");
  EXPECT_TRUE(c.at("asked").get<bool>());
  EXPECT_EQ(c.at("tally"), "bridge critical (4 of 5 counters known)");
  ASSERT_EQ(c.at("questions").size(), 1u);
  EXPECT_NE(c.at("questions")[0].get<std::string>().find("counter-5: it overlaps counter-8"), std::string::npos)
      << c.dump();
  bool hit = false, crit = false;
  for (const nlohmann::json& label : g.at("choices")) {
    hit = hit || label == "counter-5: HIT!";
    crit = crit || label == "counter-5: crit-5 critical";
  }
  EXPECT_TRUE(hit && crit) << g.at("choices").dump();
  // Drawn: the question in amber and the counters read in green, in the table view (zoomed to the
  // drop).
  const nlohmann::json& table = s.views.at("panels").at("table");
  EXPECT_GT(pixels_like(s.png, table, cv::Vec3b(40, 176, 255)), 400)
      << "amber: counter-5's outline, its label, the question";
  EXPECT_GT(pixels_like(s.png, table, cv::Vec3b(120, 230, 80)), 400) << "green: the counters read";
  // And what it is asked about: counter-8's outline where the table has it, dashed red.
  bool outlined = false;
  for (const nlohmann::json& counter : c.at("counters"))
    if (counter.at("name") == "counter-5") outlined = counter.at("why_outline_points").get<int>() >= 8;
  EXPECT_TRUE(outlined) << c.dump();
  EXPECT_GT(pixels_like(s.png, table, cv::Vec3b(60, 70, 255)), 150) << "red: counter-8's outline";
}

bool contains(const nlohmann::json& r, double x, double y) {
  return x >= r[0].get<double>() && y >= r[1].get<double>() && x <= r[0].get<double>() + r[2].get<double>() &&
         y <= r[1].get<double>() + r[3].get<double>();
}

// The drop's counters lie touching: in each view every counter has its label, no label covers
// another, and the tally's box covers no label; in the table view (zoomed to the drop) the box is a
// strip of its own and covers no counter.
TEST(UiDropsScreen, TheLabelsAndTheTallyCoverNoCounterAndNoOtherLabel) {
  Shown s = show("labels", 245);
  ASSERT_EQ(s.status, 0);
  const nlohmann::json& counters = s.views.at("game").at("counters").at("counters");
  ASSERT_GE(counters.size(), 4u);
  for (const char* view : {"camera_view", "table_view"}) {
    SCOPED_TRACE(view);
    ASSERT_TRUE(s.views.at(view).contains("counters_drawn")) << s.views.at(view).dump();
    const nlohmann::json& drawn = s.views.at(view).at("counters_drawn");
    const nlohmann::json& labels = drawn.at("labels");
    EXPECT_EQ(labels.size(), counters.size());
    ASSERT_TRUE(drawn.contains("box"));
    for (std::size_t i = 0; i < labels.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j)
        EXPECT_EQ(rect_overlap(labels[i].at("rect"), labels[j].at("rect")), 0.0)
            << labels[i].dump() << " " << labels[j].dump();
      EXPECT_EQ(rect_overlap(labels[i].at("rect"), drawn.at("box")), 0.0)
          << labels[i].dump() << " " << drawn.at("box").dump();
    }
  }
  const nlohmann::json& tv = s.views.at("table_view");
  const double k = tv.at("px_per_mm").get<double>();
  for (const nlohmann::json& c : counters) {
    const double x = tv.at("origin")[0].get<double>() + k * c.at("x").get<double>();
    const double y = tv.at("origin")[1].get<double>() - k * c.at("y").get<double>();
    EXPECT_TRUE(contains(s.views.at("panels").at("table"), x, y)) << c.dump();
    // Not under the box, nor within a counter's radius (19 mm) of it.
    nlohmann::json grown = tv.at("counters_drawn").at("box");
    grown = {grown[0].get<double>() - 19 * k, grown[1].get<double>() - 19 * k, grown[2].get<double>() + 38 * k,
             grown[3].get<double>() + 38 * k};
    EXPECT_FALSE(contains(grown, x, y)) << c.dump() << " under " << tv.at("counters_drawn").at("box").dump();
  }
}

TEST(UiDropsScreen, TheRefereesWordCompletesTheDrop) {
  Shown s = show("answered", 100000);
  ASSERT_EQ(s.status, 0);
  const nlohmann::json& g = s.views.at("game");
  for (const nlohmann::json& ship : g.at("ships"))
    if (ship.at("id") == "tderet") {
      EXPECT_EQ(ship.at("shields"), 5);
      EXPECT_EQ(ship.at("crits"), nlohmann::json::array({"Bridge x1"})) << ship.dump();
    }
  bool read = false;
  for (const nlohmann::json& l : g.at("log"))
    read = read || l.at("text").get<std::string>().find("critical drop read from the table: bridge critical") !=
                       std::string::npos;
  EXPECT_TRUE(read) << g.at("log").dump(1);
}

}  // namespace
}  // namespace diskref
