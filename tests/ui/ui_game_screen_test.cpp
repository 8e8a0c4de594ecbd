// `diskref ui --game` end to end: the real program under Xvfb plays the skirmish sample video with
// its inputs, the referee live behind the screen. The ship and turn panels' numbers (as the
// panels drew them, from --views-json) are checked against the game's expected end, and the
// inputs the screen recorded, replayed by `diskref referee` over the same video, give the same log.

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgcodecs.hpp>

namespace diskref {
namespace {

namespace fs = std::filesystem;

fs::path sample() { return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish"; }
fs::path diskref_bin() { return fs::path(DISKREF_BINARY_DIR) / "diskref"; }

fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-game";
  fs::create_directories(d);
  return d;
}

// Quoted for the shell. (A stream, not operator+: GCC 12 warns falsely about literal + string.)
std::string q(const fs::path& p) {
  std::ostringstream o;
  o << '"' << p.string() << '"';
  return o.str();
}

int run(const std::string& cmd) {
  int status = std::system(cmd.c_str());
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  nlohmann::json j;
  if (in) in >> j;
  return j;
}

struct Played {
  int status = -1;
  nlohmann::json views;  // what the panels showed at the end
  nlohmann::json log;    // the game's log (--game-log)
  fs::path inputs_out;
  fs::path png;
};

// The whole video on the screen (as fast as it tracks: a screenshot run), then a screenshot.
Played play(const std::string& name, const std::string& extra) {
  Played p;
  p.inputs_out = out_dir() / (name + "-inputs.jsonl");
  p.png = out_dir() / (name + ".png");
  fs::path views = out_dir() / (name + ".json");
  fs::path log = out_dir() / (name + "-log.json");
  for (const fs::path& f : {p.inputs_out, p.png, views, log}) fs::remove(f);
  const fs::path s = sample();
  std::ostringstream cmd;
  cmd << "xvfb-run -a -s \"-screen 0 1280x800x24\" " << q(diskref_bin()) << " ui --video " << q(s / "video.mp4")
      << " --game " << q(s / "game.json") << " --inputs " << q(s / "inputs.jsonl") << " --inputs-out " << q(p.inputs_out)
      << " --game-log " << q(log) << " --frames 100000 --screenshot " << q(p.png) << " --views-json " << q(views) << " "
      << extra;
  p.status = run(cmd.str());
  p.views = read_json(views);
  p.log = read_json(log);
  return p;
}

const nlohmann::json& ship(const nlohmann::json& views, const std::string& id) {
  for (const nlohmann::json& s : views.at("game").at("ships"))
    if (s.at("id") == id) return s;
  throw std::runtime_error(id + " not on the ship panels");
}

nlohmann::json referee_log(const fs::path& inputs, const std::string& name) {
  const fs::path s = sample();
  fs::path out = out_dir() / (name + "-referee-log.json");
  fs::remove(out);
  std::ostringstream cmd;
  cmd << q(diskref_bin()) << " referee " << q(s / "video.mp4") << " --calib " << q(s / "camera.json") << " --table "
      << q(s / "table.json") << " --disks " << q(s / "disks.json") << " --game " << q(s / "game.json") << " --inputs "
      << q(inputs) << " --out " << q(out) << " --quiet";
  EXPECT_EQ(run(cmd.str()), 0);
  return read_json(out);
}

TEST(UiGameScreen, PlaysTheSampleGameAndItsRecordedInputsReplayToTheSameLog) {
  Played p = play("skirmish", "");
  ASSERT_EQ(p.status, 0);
  ASSERT_TRUE(p.views.contains("game")) << p.views.dump();
  const nlohmann::json& g = p.views.at("game");
  EXPECT_EQ(g.at("turn").at("turn"), 2);
  const nlohmann::json& enterprise = ship(p.views, "enterprise");
  EXPECT_EQ(enterprise.at("hull"), 6);
  EXPECT_EQ(enterprise.at("shields"), 5);
  EXPECT_EQ(enterprise.at("speed"), 0);
  EXPECT_EQ(ship(p.views, "tderet").at("shields"), 7);
  EXPECT_EQ(enterprise.at("controller"), "diana");
  // The event log shows the rulings, numbered: the beam in range, the collision, the torpedo.
  std::string all;
  for (const nlohmann::json& l : g.at("log")) all += l.at("text").get<std::string>() + "\n";
  EXPECT_NE(all.find("in range"), std::string::npos) << all;
  EXPECT_NE(all.find("collide"), std::string::npos) << all;
  EXPECT_NE(all.find("torpedo"), std::string::npos) << all;
  EXPECT_FALSE(g.contains("refusal")) << g.at("refusal");
  // The window is at the size asked for.
  cv::Mat shot = cv::imread(p.png.string());
  EXPECT_EQ(shot.cols, 1280);
  EXPECT_EQ(shot.rows, 800);

  // Every input was recorded; `diskref referee` over the same video with them gives the same log.
  std::ifstream rec(p.inputs_out);
  int lines = 0;
  for (std::string l; std::getline(rec, l);) ++lines;
  EXPECT_EQ(lines, 20);
  ASSERT_TRUE(p.log.contains("log"));
  EXPECT_EQ(p.log, referee_log(p.inputs_out, "skirmish"));
}

TEST(UiGameScreen, ARefusedInputAtTheScreenIsShownWithItsReasonAndTheGameGoesOnUntouched) {
  fs::path typed = out_dir() / "typed.jsonl";
  {
    std::ofstream out(typed);
    // Initiative again, in the middle of phase 1: the rules refuse it.
    out << R"({"t": 3.5, "do": "initiative"})" << "\n";
  }
  Played p = play("refused", "--screen-inputs " + q(typed));
  ASSERT_EQ(p.status, 0);
  const nlohmann::json& g = p.views.at("game");
  ASSERT_TRUE(g.contains("refusal")) << g.dump(1);
  EXPECT_NE(g.at("refusal").get<std::string>().find("refused"), std::string::npos) << g.at("refusal");
  // Nothing changed: the same end as the sample's.
  EXPECT_EQ(g.at("turn").at("turn"), 2);
  EXPECT_EQ(ship(p.views, "enterprise").at("hull"), 6);
  EXPECT_EQ(ship(p.views, "enterprise").at("shields"), 5);
  EXPECT_EQ(ship(p.views, "tderet").at("shields"), 7);
  // The refused input is in the recording too, and replays to the same log, refusal included.
  EXPECT_EQ(p.log, referee_log(p.inputs_out, "refused"));
}

}  // namespace
}  // namespace diskref
