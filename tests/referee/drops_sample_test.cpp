// `diskref referee` on the bundled drops sample (sample_videos/drops): a beam's damage drop and its
// critical check read from the counters on the table, from the ground truth and from the video
// through the tracker; the counter leaning on one left lying asked about alone and answered by the
// referee's input; the recording keeping the still each drop was read from.
#include <algorithm>
#include <filesystem>
#include <optional>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/vec2.h"
#include "tests/calibration/command_runner.h"

namespace diskref::testing {
namespace {

namespace fs = std::filesystem;

fs::path sample() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "drops";
}

// A recording's still of settle N (spec §11): stills/settle-NNNNNN.jpg.
std::string fmt_still(std::size_t settle) {
  std::string n = std::to_string(settle);
  return "settle-" + std::string(6 - std::min<std::size_t>(6, n.size()), '0') + n + ".jpg";
}

std::string files() {
  const fs::path s = sample();
  return "--table " + (s / "table.json").string() + " --disks " + (s / "disks.json").string() + " --game " +
         (s / "game.json").string() + " --inputs " + (s / "inputs.jsonl").string();
}

// The one entry that read drops from the table.
nlohmann::json drops_entry(const nlohmann::json& log) {
  nlohmann::json found;
  for (const auto& e : log.at("log"))
    if (e.contains("drops_read")) {
      EXPECT_TRUE(found.is_null()) << "one entry reads drops";
      found = e;
    }
  return found;
}

// What every log of this sample must say, from the truth or the video.
void expect_the_samples_drops(const nlohmann::json& log) {
  const nlohmann::json e = drops_entry(log);
  ASSERT_FALSE(e.is_null()) << log.dump(1).substr(0, 2000);
  ASSERT_EQ(e["drops_read"].size(), 2u);
  const nlohmann::json& damage = e.at("drops_read").at(0);
  EXPECT_EQ(damage.at("drop").at("hits"), 2);
  EXPECT_EQ(damage.at("counters").size(), 4u) << "counter-6 ... counter-9";
  for (const auto& c : damage.at("counters")) EXPECT_TRUE(c.at("readable").get<bool>()) << c.dump();
  // Read on the counters' own settle, 0.2 s after they lay still (they do by 3.9 s), before the
  // table's.
  EXPECT_GT(damage.at("t").get<double>(), 3.5);
  EXPECT_LT(damage.at("t").get<double>(), 4.5);
  const nlohmann::json& critical = e.at("drops_read").at(1);
  EXPECT_EQ(critical.at("drop").at("crits"), nlohmann::json::array({"bridge"}));
  bool answered = false;
  for (const auto& slot : critical.at("slots"))
    if (slot.contains("counter") && slot.at("counter") == "counter-5") answered = slot.contains("answered");
  EXPECT_TRUE(answered) << "counter-5, leaning on counter-8, is the referee's answer: " << critical.dump();
  for (const auto& c : critical.at("counters")) EXPECT_NE(c.at("name"), "counter-8") << "left lying: not counted again";
  bool tderet = false;
  for (const auto& s : log.at("final_state").at("ships"))
    if (s.at("id") == "tderet") {
      tderet = true;
      EXPECT_EQ(s.at("shields"), 5);
      EXPECT_EQ(s.at("crits").at("bridge"), 1);
    }
  EXPECT_TRUE(tderet);
}

class DropsSample : public CommandTest {};

TEST_F(DropsSample, FromItsTruthTheDropsAreReadAndTheLeaningCounterAnswered) {
  CommandRun r =
      run("referee --tracks " + (sample() / "truth.jsonl").string() + " " + files() + " --out " + path("log.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  expect_the_samples_drops(nlohmann::json::parse(slurp(path("log.json"))));
}

TEST_F(DropsSample, FromItsVideoTheSameAndTheRecordingKeepsTheStillOfEachReading) {
  CommandRun r =
      run("referee " + (sample() / "video.mp4").string() + " --calib " + (sample() / "camera.json").string() + " " +
          files() + " --out " + path("log.json") + " --record " + path("rec"));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json log = nlohmann::json::parse(slurp(path("log.json")));
  expect_the_samples_drops(log);
  const nlohmann::json e = drops_entry(log);
  ASSERT_FALSE(e.is_null());
  // The video sees counter-5 lying against counter-8 and says why it asked, with counter-8's
  // outline where the table has it (all round the place the log gives it).
  bool why = false;
  std::optional<geom::Vec2> counter8;
  for (const auto& d : e.at("drops_read"))  // it was read in the damage drop, and lies there since
    for (const auto& c : d.at("counters"))
      if (c.at("name") == "counter-8" && c.contains("x"))
        counter8 = geom::Vec2{c.at("x").get<double>(), c.at("y").get<double>()};
  for (const auto& c : e.at("drops_read").at(1).at("counters"))
    if (c.at("name") == "counter-5" && c.contains("why")) {
      why = c.at("why").get<std::string>().find("overlaps counter-8") != std::string::npos;
      ASSERT_TRUE(c.contains("why_outline_mm")) << c.dump();
      ASSERT_TRUE(counter8) << "counter-8 was read in the damage drop";
      ASSERT_GE(c.at("why_outline_mm").size(), 8u);
      std::vector<double> radii;
      for (const auto& p : c.at("why_outline_mm"))
        radii.push_back(geom::distance({p[0].get<double>(), p[1].get<double>()}, *counter8));
      const auto [lo, hi] = std::minmax_element(radii.begin(), radii.end());
      // Where it was read then and where the table has it now differ by its pose's noise only.
      EXPECT_LT(*hi - *lo, 1.0) << "a circle about counter-8: " << c.at("why_outline_mm").dump();
      EXPECT_NEAR((*hi + *lo) / 2, 38.1 / 2, 0.6) << "counter-8's radius";
    }
  EXPECT_TRUE(why) << e.at("drops_read").at(1).dump();
  for (const auto& d : e.at("drops_read")) {
    const std::string still = fmt_still(d.at("reading").get<std::size_t>());
    EXPECT_TRUE(fs::exists(path("rec") + "/stills/" + still)) << still;
  }
}

}  // namespace
}  // namespace diskref::testing
