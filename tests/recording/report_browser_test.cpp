// `diskref report` on the recorded skirmish game, looked at in a real browser (headless Chromium):
// the page is not blank, every picture loaded, every ruling and its numbers are on it, and --pdf
// prints it. Then damaged recordings: a truncated video segment, a garbage line, a missing still,
// a recording cut short: each said on the page, the rest still shown.
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <vector>

#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/core.hpp>
#include <opencv2/imgcodecs.hpp>

#include "tests/net/headless_chromium.h"
#include "tests/recording/recorded_sample.h"

namespace diskref::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class Report : public CommandTest {
 protected:
  const RecordedSample& sample() {
    const RecordedSample& s = recorded_sample();
    EXPECT_EQ(s.run.status, 0) << s.run.err;
    return s;
  }
  // A copy of the sample recording to damage.
  fs::path copy_of_sample(const std::string& name) {
    const fs::path to = dir_ / name;
    fs::copy(sample().recording, to, fs::copy_options::recursive);
    return to;
  }
};

TEST_F(Report, TheSampleGamesReportShowsEveryRulingWithItsPictureAndNumbers) {
  const RecordedSample& s = sample();
  const fs::path html = dir_ / "report.html";
  CommandRun r = run("report " + s.recording.string() + " --out " + html.string() + " --pdf " + path("report.pdf"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("with their picture"));

  HeadlessChromium browser(1280, 900, dir_);
  browser.navigate("file://" + html.string());
  const nlohmann::json log = read_json(s.log);
  // Every entry of the log is a ruling on the page, in order.
  EXPECT_EQ(browser.evaluate("document.querySelectorAll('section.ruling').length").get<std::size_t>(),
            log["log"].size());
  // Every picture loaded (none broken), and there are pictures.
  EXPECT_TRUE(browser.wait_until("[...document.images].every(i => i.complete && i.naturalWidth > 0)",
                                 std::chrono::seconds(10)));
  const std::size_t images = browser.evaluate("document.images.length").get<std::size_t>();
  EXPECT_GE(images, 4u);
  // Every verdict's margin, as the log has it, is on the page.
  const std::string text = browser.evaluate("document.body.innerText").get<std::string>();
  int verdicts = 0;
  for (const nlohmann::json& e : log["log"])
    if (e.contains("observed"))
      for (const nlohmann::json& v : e["observed"]["verdicts"]) {
        EXPECT_THAT(text, HasSubstr(fmt::format("{:+.2f} ± {:.2f} mm", v["margin_mm"].get<double>(),
                                                v["sigma_mm"].get<double>())));
        ++verdicts;
      }
  EXPECT_GE(verdicts, 3);
  EXPECT_THAT(text, HasSubstr("The final state"));
  EXPECT_THAT(text, HasSubstr("Tracking health"));
  EXPECT_EQ(browser.evaluate("document.querySelectorAll('svg.plot').length").get<int>() >= 4, true);
  EXPECT_EQ(browser.evaluate("document.getElementById('warnings')").is_null(), true)
      << "a whole recording warns of nothing";

  // The screenshot is a page, not a blank: it has text and pictures (contrast), and is not all white.
  const cv::Mat shot = cv::imdecode(browser.screenshot_png(), cv::IMREAD_COLOR);
  ASSERT_FALSE(shot.empty());
  cv::Scalar mean, stddev;
  cv::meanStdDev(shot, mean, stddev);
  EXPECT_GT(stddev[0] + stddev[1] + stddev[2], 30.0);
  if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR")) cv::imwrite(std::string(keep) + "/report.png", shot);
  // Scrolled to the first ruling with a picture: the photo is drawn on (not the bare still).
  browser.evaluate("document.querySelector('img.photo').scrollIntoView()");
  const cv::Mat ruling = cv::imdecode(browser.screenshot_png(), cv::IMREAD_COLOR);
  if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR"))
    cv::imwrite(std::string(keep) + "/report-ruling.png", ruling);

  // The PDF: a PDF, with pages.
  const std::string pdf = slurp(path("report.pdf"));
  ASSERT_GT(pdf.size(), 10000u);
  EXPECT_EQ(pdf.substr(0, 5), "%PDF-");
  const int status = std::system(("pdfinfo " + path("report.pdf") + " > " + path("pdfinfo.txt")).c_str());
  ASSERT_EQ(status, 0);
  EXPECT_THAT(slurp(path("pdfinfo.txt")), ::testing::ContainsRegex("Pages: +([2-9]|[1-9][0-9])"));
}

TEST_F(Report, ADamagedRecordingIsReportedWithWhatIsMissingAndEverythingElse) {
  const fs::path rec = copy_of_sample("damaged");
  // A garbage line in the tracks, a still gone, the log's last line half written, no ended.json.
  {
    std::string tracks = slurp(rec / "track.jsonl");
    const std::size_t at = tracks.find('\n', tracks.size() / 2);
    tracks.insert(at + 1, "this is no JSON\n");
    std::ofstream(rec / "track.jsonl", std::ios::binary | std::ios::trunc) << tracks;
  }
  // The still of a ruling read from the table (a move's last settle).
  fs::path gone;
  const nlohmann::json recorded_log = read_json(rec / "log.json");
  for (const nlohmann::json& e : recorded_log["log"])
    if (e.contains("observed")) gone = rec / "stills" / fmt::format("settle-{:06d}.jpg", e["reading"].get<int>());
  ASSERT_TRUE(fs::exists(gone));
  fs::remove(gone);
  fs::remove(rec / "ended.json");
  const fs::path html = dir_ / "damaged.html";
  CommandRun r = run("report " + rec.string() + " --out " + html.string());
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = slurp(html);
  EXPECT_THAT(page, HasSubstr("track.jsonl: line"));
  EXPECT_THAT(page, HasSubstr(gone.filename().string() + ": missing"));
  EXPECT_THAT(page, HasSubstr("cut short"));
  EXPECT_THAT(r.err, HasSubstr("warning"));
  // Everything else is still there: as many rulings as the log has.
  const nlohmann::json log = read_json(rec / "log.json");
  std::size_t sections = 0;
  for (std::size_t at = page.find("<section class=\"ruling"); at != std::string::npos;
       at = page.find("<section class=\"ruling", at + 1))
    ++sections;
  EXPECT_EQ(sections, log["log"].size());
}

TEST_F(Report, ATruncatedVideoSegmentIsNamedAndTheRestReplays) {
  const fs::path rec = copy_of_sample("truncated");
  // Cut the fourth segment in half, as a crash mid-write would leave it.
  fs::path segment;
  for (const auto& e : fs::directory_iterator(rec / "video"))
    if (e.path().filename().string().find("segment-000003") != std::string::npos) segment = e.path();
  ASSERT_FALSE(segment.empty());
  fs::resize_file(segment, fs::file_size(segment) / 2);
  CommandRun r = run("referee --session " + rec.string() + " --retrack --out " + path("again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(segment.filename().string()));
  r = run("report " + rec.string() + " --out " + path("t.html") + " --quiet");
  EXPECT_EQ(r.status, 0) << r.err;
}

TEST_F(Report, EachDropReadFromTheCountersIsShownWithThePictureItWasReadFromAndWhatWasAsked) {
  // The drops sample recorded: a beam's damage drop, then its critical check, whose counter lying
  // against one left from the damage drop was asked about and answered by the referee's input.
  const fs::path s = fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "drops";
  CommandRun r = run("referee " + (s / "video.mp4").string() + " --calib " + (s / "camera.json").string() +
                     " --table " + (s / "table.json").string() + " --disks " + (s / "disks.json").string() +
                     " --game " + (s / "game.json").string() + " --inputs " + (s / "inputs.jsonl").string() +
                     " --record " + path("drops-rec") + " --out " + path("drops-log.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const fs::path html = dir_ / "drops.html";
  r = run("report " + path("drops-rec") + " --out " + html.string() + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;

  HeadlessChromium browser(1280, 900, dir_);
  browser.navigate("file://" + html.string());
  const nlohmann::json log = read_json(path("drops-log.json"));
  std::vector<nlohmann::json> drops;
  for (const nlohmann::json& e : log["log"])
    if (e.contains("drops_read"))
      for (const nlohmann::json& d : e["drops_read"]) drops.push_back(d);
  ASSERT_EQ(drops.size(), 2u);
  // One part of the page per drop, each with its picture (loaded) and its diagram.
  EXPECT_EQ(browser.evaluate("document.querySelectorAll('div.drop').length").get<std::size_t>(), drops.size());
  EXPECT_EQ(browser.evaluate("document.querySelectorAll('div.drop img.photo').length").get<std::size_t>(),
            drops.size());
  EXPECT_EQ(browser.evaluate("document.querySelectorAll('div.drop svg.diagram').length").get<std::size_t>(),
            drops.size());
  EXPECT_TRUE(browser.wait_until("[...document.images].every(i => i.complete && i.naturalWidth > 0)",
                                 std::chrono::seconds(10)));
  // Each drop's tally, and why the counter was asked about with the referee's word on it.
  const std::string text = browser.evaluate("document.body.innerText").get<std::string>();
  for (const nlohmann::json& d : drops) EXPECT_THAT(text, HasSubstr(d["tally"].get<std::string>()));
  EXPECT_THAT(text,
              ::testing::ContainsRegex("counter-5: it overlaps counter-8 by [0-9.]+ mm: one lies on or against the "
                                       "other — the referee said: [A-Za-z0-9!-]+ \\(referee\\)"));
  // The critical check's picture is drawn on: its counters read (green), counter-5 (amber) and
  // counter-8's outline under it (red).
  const std::string src =
      browser.evaluate("document.querySelectorAll('div.drop img.photo')[1].getAttribute('src')").get<std::string>();
  const cv::Mat photo = cv::imread((dir_ / src).string(), cv::IMREAD_COLOR);
  ASSERT_FALSE(photo.empty()) << src;
  auto pixels_like = [&](cv::Vec3b bgr) {
    int n = 0;
    for (int y = 0; y < photo.rows; ++y)
      for (int x = 0; x < photo.cols; ++x) {
        const cv::Vec3b p = photo.at<cv::Vec3b>(y, x);
        if (std::abs(p[0] - bgr[0]) < 40 && std::abs(p[1] - bgr[1]) < 40 && std::abs(p[2] - bgr[2]) < 40) ++n;
      }
    return n;
  };
  EXPECT_GT(pixels_like({80, 220, 80}), 300) << "green";
  EXPECT_GT(pixels_like({40, 176, 255}), 100) << "amber";
  EXPECT_GT(pixels_like({60, 60, 230}), 100) << "red";
  if (const char* keep = std::getenv("DISKREF_SCREENSHOT_DIR")) {
    browser.evaluate("document.querySelectorAll('div.drop')[1].scrollIntoView()");
    cv::imwrite(std::string(keep) + "/report-drop.png", cv::imdecode(browser.screenshot_png(), cv::IMREAD_COLOR));
  }
}

TEST_F(Report, WhatIsNotARecordingIsSaidPlainly) {
  fs::create_directories(dir_ / "nothing");
  CommandRun r = run("report " + path("nothing") + " --out " + path("x.html"));
  EXPECT_EQ(r.status, 2);
  EXPECT_THAT(r.err, HasSubstr("is not a recording"));
  EXPECT_FALSE(fs::exists(path("x.html")));
}

}  // namespace
}  // namespace diskref::testing
