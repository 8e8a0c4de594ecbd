// `diskref ui --game` end to end: the real program under Xvfb plays the skirmish sample video with
// its inputs, the referee live behind the screen. The ship and turn panels' numbers (as the
// panels drew them, from --views-json) are checked against the game's expected end, and the
// inputs the screen recorded, replayed by `diskref referee` over the same video, give the same log.

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <opencv2/calib3d.hpp>
#include <opencv2/imgcodecs.hpp>
#include <opencv2/imgproc.hpp>
#include <opencv2/videoio.hpp>
#include "tests/support/qr_read.h"
#include "tests/ui/screen_run.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;

fs::path sample() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
}
fs::path diskref_bin() {
  return fs::path(DISKREF_BINARY_DIR) / "diskref";
}

fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "ui-game";
  fs::create_directories(d);
  return d;
}

using ui::testing::q;
using ui::testing::read_json;
using ui::testing::rect_overlap;
using ui::testing::run;

struct Played {
  int status = -1;
  nlohmann::json views;  // what the panels showed at the end
  nlohmann::json log;    // the game's log (--game-log)
  fs::path inputs_out;
  fs::path png;
};

// The whole video on the screen (as fast as it tracks: a screenshot run), then a screenshot.
// `video`: another video of the same table (default: the sample's).
Played play(const std::string& name, const std::string& extra, const fs::path& video = sample() / "video.mp4") {
  Played p;
  p.inputs_out = out_dir() / (name + "-inputs.jsonl");
  p.png = out_dir() / (name + ".png");
  fs::path views = out_dir() / (name + ".json");
  fs::path log = out_dir() / (name + "-log.json");
  for (const fs::path& f : {p.inputs_out, p.png, views, log}) fs::remove(f);
  const fs::path s = sample();
  std::ostringstream cmd;
  cmd << "xvfb-run -a -s \"-screen 0 1280x800x24\" " << q(diskref_bin()) << " ui --video " << q(video) << " --game "
      << q(s / "game.json") << " --inputs " << q(s / "inputs.jsonl") << " --inputs-out " << q(p.inputs_out)
      << " --game-log " << q(log) << " --screenshot " << q(p.png) << " --views-json " << q(views) << " "
      << (extra.find("--frames") == std::string::npos ? "--frames 100000 " : "") << extra;
  // Another video of the same table: the sample's table, disks and camera files with it.
  if (video != sample() / "video.mp4")
    cmd << " --table " << q(s / "table.json") << " --disks " << q(s / "disks.json") << " --calib "
        << q(s / "camera.json");
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

// Every log line's text, one a line.
std::string log_text(const nlohmann::json& game) {
  std::string all;
  for (const nlohmann::json& l : game.at("log")) all += l.at("text").get<std::string>() + "\n";
  return all;
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
  const std::string all = log_text(g);
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

TEST(UiGameScreen, ARecordedGameReplaysWithItsRulingsOnTheTimelineAsTheyWereThen) {
  // Played and recorded at the screen (a video file: referenced, a still at every settle)...
  const fs::path rec = out_dir() / "recorded-session";
  fs::remove_all(rec);
  Played p = play("recorded", "--record " + q(rec));
  ASSERT_EQ(p.status, 0);
  for (const char* f : {"session.json", "game/game.json", "inputs.jsonl", "log.json", "track.jsonl", "ended.json"})
    EXPECT_TRUE(fs::exists(rec / f)) << f;
  EXPECT_EQ(read_json(rec / "log.json"), p.log) << "the recording's log is the game's";
  EXPECT_FALSE(fs::is_empty(rec / "stills"));

  // ... then replayed to the moment of a ruling in the middle: the panels as they were then.
  const nlohmann::json& entries = p.log.at("log");
  ASSERT_GE(entries.size(), 6u);
  const fs::path png = out_dir() / "replay-mid.png", views = out_dir() / "replay-mid.json";
  fs::remove(views);
  // First run to learn the marks (they come from the recording, whatever frame is shown).
  std::ostringstream cmd;
  cmd << "xvfb-run -a -s \"-screen 0 1280x800x24\" " << q(diskref_bin()) << " ui --replay " << q(rec)
      << " --screenshot " << q(png) << " --views-json " << q(views) << " --frames 2";
  ASSERT_EQ(run(cmd.str()), 0);
  const nlohmann::json marks = read_json(views).at("replay").at("ruling_marks");
  ASSERT_GE(marks.size(), 4u);
  // A ruling in the middle that is an action (its turn is in the log).
  std::size_t m = marks.size() / 2;
  while (m + 1 < marks.size() && !entries.at(marks[m].at("entry").get<std::size_t>()).contains("turn")) ++m;
  const nlohmann::json mid = marks[m];
  std::ostringstream at;
  at << "xvfb-run -a -s \"-screen 0 1280x800x24\" " << q(diskref_bin()) << " ui --replay " << q(rec) << " --screenshot "
     << q(png) << " --views-json " << q(views) << " --frames " << mid.at("frame").get<long long>() + 1;
  ASSERT_EQ(run(at.str()), 0);
  const nlohmann::json shown = read_json(views).at("game");
  // The log as shown ends at that ruling (and what was ruled at the same moment): nothing after it is made yet.
  ASSERT_FALSE(shown.at("log").empty());
  bool has_it = false;
  for (const nlohmann::json& l : shown.at("log")) has_it = has_it || l.at("number") == mid.at("entry");
  EXPECT_TRUE(has_it) << shown.at("log").dump();
  EXPECT_LE(shown.at("log").back().at("t").get<double>(), mid.at("t").get<double>() + 0.05);
  EXPECT_LT(shown.at("log").size(), read_json(out_dir() / "recorded.json").at("game").at("log").size());
  // The turn then (an action that ends a turn shows the next).
  const int turn_then = entries.at(mid.at("entry").get<std::size_t>()).at("turn").get<int>();
  EXPECT_GE(shown.at("turn").at("turn").get<int>(), turn_then);
  EXPECT_LE(shown.at("turn").at("turn").get<int>(), turn_then + 1);
}

TEST(UiGameScreen, ARefusedInputAtTheScreenIsShownWithItsReasonAndTheGameGoesOnUntouched) {
  fs::path typed = out_dir() / "typed.jsonl";
  {
    std::ofstream out(typed);
    // Initiative again, in the middle of phase 1: the rules refuse it.
    out << R"({"t": 3.5, "do": "initiative"})"
        << "\n";
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

void expect_the_samples_end(const Played& p) {
  const nlohmann::json& g = p.views.at("game");
  EXPECT_EQ(g.at("turn").at("turn"), 2);
  EXPECT_EQ(ship(p.views, "enterprise").at("hull"), 6);
  EXPECT_EQ(ship(p.views, "enterprise").at("shields"), 5);
  EXPECT_EQ(ship(p.views, "tderet").at("shields"), 7);
}

// A ship of another game put down on the table mid-game (its disk in the registry, not in the game
// file): the banner says so at once, it is never refereed, and the game ends as the sample's.
TEST(UiGameScreen, ADiskTheGameLacksOnTheTableIsShownPlainlyAndTheGameGoesOnUntouched) {
  const fs::path dir = out_dir();
  // The registry with one more ship; the sample's perfect tracks with it lying at (460, 140) mm
  // from frame 330 (the table settled, between the beam and the collision) to the end.
  nlohmann::json disks = read_json(sample() / "disks.json");
  nlohmann::json reliant = disks.at("disks").at(0);
  reliant["name"] = "reliant";
  reliant["tags"][0]["id"] = 90;
  reliant["tags"][1]["id"] = 91;
  disks["disks"].push_back(reliant);
  std::ofstream(dir / "disks-with-reliant.json") << disks.dump(1);
  {
    std::ifstream in(sample() / "truth.jsonl");
    std::ofstream out(dir / "tracks-with-reliant.jsonl");
    for (std::string line; std::getline(in, line);) {
      nlohmann::json f = nlohmann::json::parse(line);
      if (f.at("frame").get<int>() >= 330)
        f["disks"].push_back({{"name", "reliant"},
                              {"kind", "ship"},
                              {"x", 460.0},
                              {"y", 140.0},
                              {"heading", 90.0},
                              {"face", "up"},
                              {"state", "visible"},
                              {"motion", "settled"},
                              {"sigma_mm", 0.0}});
      out << f.dump() << "\n";
    }
  }
  const std::string extra =
      "--disks " + q(dir / "disks-with-reliant.json") + " --tracks " + q(dir / "tracks-with-reliant.jsonl");

  // A second after it came: the banner and the log say it, in words.
  Played soon = play("stranger-soon", extra + " --frames 380");
  ASSERT_EQ(soon.status, 0);
  std::string alerts;
  for (const nlohmann::json& a : soon.views.at("game").at("alerts")) alerts += a.get<std::string>() + "\n";
  EXPECT_NE(alerts.find("reliant is on the table but is no part of this game"), std::string::npos) << alerts;

  // At the end: said once, nothing read from it, the books as the sample's.
  Played end = play("stranger", extra);
  ASSERT_EQ(end.status, 0);
  std::string all = log_text(end.views.at("game"));
  std::size_t first = all.find("reliant is on the table");
  ASSERT_NE(first, std::string::npos) << all;
  EXPECT_EQ(all.find("reliant is on the table", first + 1), std::string::npos) << "said once:\n" << all;
  EXPECT_EQ(all.find("out_of_turn"), std::string::npos) << all;
  expect_the_samples_end(end);
}

// The sample's video as if the camera's boom were knocked at frame `from`: from then on the camera
// looks 0.4 degrees aside, so every later image is the earlier one moved by K R K^-1. Made once.
fs::path bumped_video(int from) {
  fs::path out = out_dir() / ("bumped-at-" + std::to_string(from) + ".mp4");
  if (fs::exists(out)) return out;
  nlohmann::json camera = read_json(sample() / "camera.json");
  cv::Matx33d k;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) k(r, c) = camera.at("camera_matrix").at(r).at(c).get<double>();
  cv::Matx33d rotation;
  cv::Rodrigues(cv::Vec3d(0.004, -0.006, 0.003), rotation);
  cv::Matx33d h = k * rotation * k.inv();
  cv::VideoCapture in((sample() / "video.mp4").string());
  fs::path partial = out;
  partial += ".part.mp4";
  cv::VideoWriter writer(partial.string(), cv::CAP_FFMPEG, cv::VideoWriter::fourcc('a', 'v', 'c', '1'), 30,
                         {1920, 1080});
  EXPECT_TRUE(in.isOpened() && writer.isOpened());
  cv::Mat frame;
  cv::Mat moved;
  for (int i = 0; in.read(frame); ++i) {
    if (i < from) {
      writer.write(frame);
      continue;
    }
    cv::warpPerspective(frame, moved, h, frame.size(), cv::INTER_LINEAR, cv::BORDER_REPLICATE);
    writer.write(moved);
  }
  writer.release();
  fs::rename(partial, out);
  return out;
}

// The camera knocked while the table is settled, just before the beam: the screen says the camera
// moved, the table is measured again, and the game goes on as the sample's: the beam, the
// enterprise's move and the collision ruled alike, no disk "moved" by the bump.
TEST(UiGameScreen, TheCameraMovedMidGameIsShownPlainlyAndTheGameGoesOnUntouched) {
  const fs::path video = bumped_video(265);
  Played soon = play("bumped-soon", "--frames 275", video);
  ASSERT_EQ(soon.status, 0);
  std::string warnings;
  for (const nlohmann::json& w : soon.views.at("camera_view").at("warnings")) warnings += w.get<std::string>() + "\n";
  EXPECT_NE(warnings.find("camera moved"), std::string::npos) << warnings;

  // Through the collision (the ship put down, frame 560), against the unbumped sample.
  Played bumped = play("bumped", "--frames 560", video);
  Played plain = play("unbumped", "--frames 560");
  ASSERT_EQ(bumped.status, 0);
  ASSERT_EQ(plain.status, 0);
  std::string all = log_text(bumped.views.at("game"));
  EXPECT_EQ(all.find("out_of_turn"), std::string::npos) << all;
  EXPECT_EQ(all.find("off_path"), std::string::npos) << all;
  EXPECT_NE(all.find("collide"), std::string::npos) << all;
  EXPECT_EQ(bumped.views.at("game").at("ships"), plain.views.at("game").at("ships"));
  EXPECT_EQ(bumped.views.at("game").at("turn"), plain.views.at("game").at("turn"));
  EXPECT_EQ(bumped.views.at("game").at("log").size(), plain.views.at("game").at("log").size()) << all;
}

// Where ships meet — the collision (frame 484), the torpedo's contact (frame 640) — the ships' names
// and the move's text are written where none covers another, in both views.
TEST(UiGameScreen, WhereShipsMeetTheirNamesAndTheMovesTextCoverNoneOfEachOther) {
  for (const char* frames : {"484", "640"}) {
    SCOPED_TRACE(frames);
    Played p = play(std::string("meet-") + frames, std::string("--zoom --frames ") + frames);
    ASSERT_EQ(p.status, 0);
    for (const char* view : {"camera_view", "table_view"}) {
      SCOPED_TRACE(view);
      const nlohmann::json& text = p.views.at(view).at("text_drawn");
      const nlohmann::json& names = text.at("names");
      ASSERT_GE(names.size(), 2u) << text.dump();
      ASSERT_TRUE(text.contains("move_text")) << text.dump();
      for (std::size_t i = 0; i < names.size(); ++i) {
        for (std::size_t j = 0; j < i; ++j)
          EXPECT_EQ(rect_overlap(names[i].at("rect"), names[j].at("rect")), 0.0)
              << names[i].dump() << " " << names[j].dump();
        EXPECT_EQ(rect_overlap(names[i].at("rect"), text.at("move_text")), 0.0)
            << names[i].dump() << " " << text.at("move_text").dump();
      }
    }
  }
}

// --serve beyond loopback: the screen shows the feed's address with its token and its QR code, and
// the code as drawn on the screen reads (as a phone's camera reads it) as that address.
TEST(UiGameScreen, BeyondLoopbackTheFeedsAddressAndItsQrCodeAreOnTheScreen) {
  Played p = play("feed-access", "--frames 40 --serve 0.0.0.0:0");
  ASSERT_EQ(p.status, 0);
  ASSERT_TRUE(p.views.contains("feed_access")) << p.views.dump();
  const nlohmann::json& a = p.views.at("feed_access");
  const std::string url = a.at("url");
  EXPECT_NE(url.find("?token="), std::string::npos) << url;
  ASSERT_TRUE(a.contains("qr_rect")) << a.dump();
  const cv::Mat shot = cv::imread(p.png.string());
  ASSERT_FALSE(shot.empty());
  const nlohmann::json& r = a.at("qr_rect");
  const cv::Rect code(r[0].get<int>(), r[1].get<int>(), r[2].get<int>(), r[3].get<int>());
  ASSERT_TRUE((code & cv::Rect(0, 0, shot.cols, shot.rows)) == code) << a.dump();
  // The code is drawn with whole pixels a module, and its quiet zone is white.
  EXPECT_EQ(code.width % (a.at("modules").get<int>() + 8), 0) << a.dump();
  EXPECT_EQ(shot.at<cv::Vec3b>(code.y + 1, code.x + 1), cv::Vec3b(255, 255, 255));
  // Read as a phone would, from the screen as it was drawn (the code and a margin round it).
  cv::Mat grey;
  cv::cvtColor(shot, grey, cv::COLOR_BGR2GRAY);
  const cv::Mat around = grey(code).clone();
  EXPECT_EQ(testing::read_qr_in_grey(around.data, around.cols, around.rows), url);
  // Not in the way of the books: the code is over the table view, not the ship or turn panels.
  for (const char* panel : {"ships", "turn"}) {
    const nlohmann::json rect = p.views.at("panels").at(panel);
    EXPECT_EQ(rect_overlap(r, rect), 0.0) << panel;
  }
}

}  // namespace
}  // namespace diskref
