// The stream overlay in a real browser (headless chromium) loaded from a running `diskref
// referee`: a ruling made after the page loaded appears on it, the screenshot shows the table
// with the disks where the feed put them, and the latency from a ruling to the page showing it is
// measured and printed (the goal: 100 ms on loopback; a figure, not an assertion).
#include <algorithm>
#include <cstdio>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

#include "child_process.h"
#include "headless_chromium.h"
#include "referee_feed_run.h"

namespace diskref::testing {
namespace {

using namespace std::chrono_literals;

std::filesystem::path scratch_dir() {
  auto d = std::filesystem::temp_directory_path() / ("diskref-overlay-" + std::to_string(::getpid()));
  std::filesystem::create_directories(d);
  return d;
}

// The screenshot's colour at a page point, as 0xRRGGBB.
unsigned colour_at(const cv::Mat& bgr, double x, double y) {
  const cv::Vec3b p = bgr.at<cv::Vec3b>(static_cast<int>(y), static_cast<int>(x));
  return (unsigned{p[2]} << 16) | (unsigned{p[1]} << 8) | p[0];
}

bool close_to(unsigned a, unsigned b, int tolerance) {
  for (int shift : {0, 8, 16})
    if (std::abs(static_cast<int>((a >> shift) & 0xFF) - static_cast<int>((b >> shift) & 0xFF)) > tolerance)
      return false;
  return true;
}

TEST(Overlay, ARulingMadeAfterThePageLoadedAppearsOnItAndTheTableIsDrawn) {
  const std::filesystem::path dir = scratch_dir();
  // The browser first (its start is the slow part), then the game: the page is there early on.
  HeadlessChromium browser(1280, 720, dir);
  ChildProcess run(
      diskref_program(),
      skirmish_referee_args(dir / "log.json") +
          std::vector<std::string>{"--serve", "0", "--realtime", "--speed", "3", "--linger", "20", "--story"},
      dir / "referee.log");
  const auto url = run.wait_for_log(std::regex(R"((http://127\.0\.0\.1:\d+/) \(overlay\))"), 20s);
  ASSERT_TRUE(url) << run.log_text();
  browser.navigate(*url + "?backdrop=1");
  ASSERT_TRUE(browser.wait_until("window.diskref.events > 0", 10s)) << "the page never got the feed";
  const int shown_at_load = browser.evaluate("window.diskref.shownEntry").get<int>();

  // The game goes on after the page loaded; wait for its end (the summary line), then for the
  // page to show the last entry.
  ASSERT_TRUE(run.wait_for_log(std::regex("frames in"), 30s)) << run.log_text();
  const nlohmann::json log = read_json(dir / "log.json");
  const int last = static_cast<int>(log["log"].size()) - 1;
  ASSERT_GT(last, shown_at_load + 3) << "the page should have loaded before most of the game";
  ASSERT_TRUE(browser.wait_until("window.diskref.shownEntry === " + std::to_string(last), 10s));

  // The last ruling on the page is the story's last line.
  const std::string out = run.log_text();
  std::string last_story;
  const std::regex story_line(R"((^|\n) *\d+\.\d\d s  ([^\n]*))");
  for (std::sregex_iterator it(out.begin(), out.end(), story_line), end; it != end; ++it) last_story = (*it)[2];
  EXPECT_EQ(browser.evaluate("document.getElementById('ruling-text').textContent").get<std::string>(), last_story);
  // The ship panels show the books: the T'deret's shields as the final state has them.
  int tderet_shields = -1;
  for (const nlohmann::json& s : log["final_state"]["ships"])
    if (s["id"] == "tderet") tderet_shields = s["shields"];
  const std::string panel = browser.evaluate("document.querySelector('[data-ship=\"tderet\"]').textContent");
  EXPECT_NE(panel.find("shields " + std::to_string(tderet_shields) + "/"), std::string::npos) << panel;

  // The latency, ruling by ruling, of those made after the page loaded.
  std::vector<double> latencies = browser.evaluate("window.diskref.latencies").get<std::vector<double>>();
  ASSERT_FALSE(latencies.empty());
  std::sort(latencies.begin(), latencies.end());
  std::printf(
      "latency from a ruling to the overlay showing it (loopback, headless chromium): %zu rulings, median %.0f ms, "
      "max %.0f ms (goal: 100 ms)\n",
      latencies.size(), latencies[latencies.size() / 2], latencies.back());
  for (double l : latencies) EXPECT_GE(l, 0);

  // The screenshot: the enterprise drawn in its colour where the feed says it is.
  const std::vector<unsigned char> png = browser.screenshot_png();
  const cv::Mat shot = cv::imdecode(png, cv::IMREAD_COLOR);
  ASSERT_EQ(shot.cols, 1280);
  ASSERT_EQ(shot.rows, 720);
  cv::imwrite((dir / "overlay.png").string(), shot);
  if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR")) cv::imwrite(std::string(keep) + "/overlay.png", shot);
  // A point inside the disk, behind its centre (the heading line runs forward from the centre).
  const nlohmann::json inside = browser.evaluate(R"((() => {
      const svg = document.getElementById('table');
      const d = feed.frame.disks.find(d => d.name === 'enterprise');
      const H = feed.setup.play_area_mm[1], h = d.heading * Math.PI / 180;
      const p = svg.createSVGPoint();
      p.x = d.x - 15 * Math.cos(h); p.y = H - (d.y - 15 * Math.sin(h));
      const q = p.matrixTransform(svg.getScreenCTM());
      const o = svg.createSVGPoint(); o.x = 5; o.y = 5;
      const r = o.matrixTransform(svg.getScreenCTM());
      return [q.x, q.y, r.x, r.y];
    })())");
  EXPECT_TRUE(close_to(colour_at(shot, inside[0], inside[1]), 0x3a6fd8, 8))
      << std::hex << colour_at(shot, inside[0], inside[1]);
  EXPECT_TRUE(close_to(colour_at(shot, inside[2], inside[3]), 0x1b5e20, 24))  // the felt, behind a translucent panel
      << std::hex << colour_at(shot, inside[2], inside[3]);
  run.kill_now();
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace diskref::testing
