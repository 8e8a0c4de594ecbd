// A recording killed (SIGKILL: no destructor, no flush, as a power cut is for the process) at
// several moments of `diskref referee --record --realtime` (moments of the game, so that a slow or
// loaded machine kills it at the same place): at most the last 2 s of video lost,
// every line before the kill intact, and the remains refereed again and reported.
#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/net/child_process.h"
#include "tests/recording/recorded_sample.h"
#include "tests/support/folder_writes.h"

namespace diskref::testing {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;
using ::testing::HasSubstr;

// Every line but possibly the last (cut by the kill) is whole JSON; returns the whole ones.
std::vector<nlohmann::json> whole_lines(const fs::path& file) {
  std::vector<nlohmann::json> out;
  const std::string text = slurp(file);
  std::size_t pos = 0;
  while (pos < text.size()) {
    const std::size_t end = text.find('\n', pos);
    if (end == std::string::npos) break;                                // the last line, cut short: allowed
    out.push_back(nlohmann::json::parse(text.substr(pos, end - pos)));  // throws if a whole line is damaged
    pos = end + 1;
  }
  return out;
}

// The video time of the last whole line of track.jsonl (-1: none yet). Only that line is read:
// this is asked at each write of the recording.
double tracked_to(const fs::path& file) {
  const std::string text = fs::exists(file) ? slurp(file) : "";
  const std::size_t end = text.rfind('\n');
  if (end == std::string::npos) return -1;
  const std::size_t before = end == 0 ? std::string::npos : text.rfind('\n', end - 1);
  const std::size_t begin = before == std::string::npos ? 0 : before + 1;
  return nlohmann::json::parse(text.substr(begin, end - begin))["t"].get<double>();
}

// The parameter: the kill comes once this many milliseconds of the video are tracked.
class RecordingKilled : public CommandTest, public ::testing::WithParamInterface<int> {};

TEST_P(RecordingKilled, LosesAtMostTwoSecondsAndTheRemainsReplayAndReport) {
  const fs::path rec = dir_ / "rec";
  std::vector<std::string> args = {"referee", (skirmish() / "video.mp4").string()};
  std::istringstream files(skirmish_files());
  for (std::string word; files >> word;) args.push_back(word);
  for (const char* a : {"--realtime", "--speed", "2", "--quiet", "--record"}) args.push_back(a);
  args.push_back(rec.string());
  args.push_back("--out");
  args.push_back(path("log.json"));
  ChildProcess referee(diskref_program(), args, dir_ / "referee.log");
  const double kill_at = GetParam() / 1000.0;
  // Woken by each write to the test's folder until the referee has made the recording's, then by
  // each write to that (track.jsonl grows there), or by the referee's end.
  const auto give_up = std::chrono::steady_clock::now() + 180s;
  const auto left = [&] {
    return std::chrono::duration_cast<std::chrono::milliseconds>(give_up - std::chrono::steady_clock::now());
  };
  {
    const FolderWrites made(dir_);
    while (!fs::exists(rec)) {
      ASSERT_TRUE(referee.running()) << "ended before it made " << rec << ":\n" << referee.log_text();
      ASSERT_TRUE(made.wait(left(), referee.ended_fd())) << "no " << rec << " in 180 s";
    }
  }
  const FolderWrites writes(rec);
  while (tracked_to(rec / "track.jsonl") < kill_at) {
    ASSERT_TRUE(referee.running()) << "ended before " << kill_at << " s of video were tracked:\n" << referee.log_text();
    ASSERT_TRUE(writes.wait(left(), referee.ended_fd())) << "not at " << kill_at << " s of video in 180 s";
  }
  referee.kill_now();

  const std::vector<nlohmann::json> tracks = whole_lines(rec / "track.jsonl");
  const std::vector<nlohmann::json> frames = whole_lines(rec / "video" / "frames.jsonl");
  ASSERT_GT(tracks.size(), 10u);
  ASSERT_FALSE(frames.empty());
  whole_lines(rec / "inputs.jsonl");  // every whole line parses
  whole_lines(rec / "health.jsonl");
  const double last_tracked = tracks.back()["t"].get<double>();
  const double video_to = frames.back()["t"].get<double>();
  EXPECT_LE(last_tracked - video_to, 2.0) << "video lost beyond the last 2 s";
  std::printf("killed once %.1f s of video were tracked: tracked to %.2f s, video kept to %.2f s (lost %.2f s)\n",
              kill_at, last_tracked, video_to, last_tracked - video_to);
  EXPECT_FALSE(fs::exists(rec / "ended.json"));
  if (fs::exists(rec / "log.json")) {
    EXPECT_NO_THROW(read_json(rec / "log.json")) << "written atomically: whole or none";
  }

  // The remains: refereed again (from the tracks and from the pictures), and reported.
  CommandRun r = run("referee --session " + rec.string() + " --out " + path("again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("cut short"));
  if (fs::exists(rec / "log.json")) {
    // What was ruled before the kill is ruled again the same.
    const nlohmann::json before = read_json(rec / "log.json")["log"], again = read_json(path("again.json"))["log"];
    ASSERT_LE(before.size(), again.size());
    for (std::size_t i = 0; i < before.size(); ++i) EXPECT_EQ(before[i], again[i]) << "entry " << i;
  }
  r = run("referee --session " + rec.string() + " --retrack --out " + path("retracked.json") + " --quiet");
  EXPECT_EQ(r.status, 0) << r.err;
  r = run("report " + rec.string() + " --out " + path("report.html") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_THAT(slurp(path("report.html")), HasSubstr("cut short"));

#ifdef DISKREF_HAS_UI
  // The companion screen replays the remains, and says over its camera view what was lost.
  const fs::path views = path("replay-views.json");
  const std::string replay = "xvfb-run -a -s \"-screen 0 1280x800x24\" \"" + diskref_program() + "\" ui --replay \"" +
                             rec.string() + "\" --screenshot \"" + path("replay.png") + "\" --views-json \"" +
                             views.string() + "\" --frames 5 2>\"" + path("replay-err.txt") + "\"";
  ASSERT_EQ(std::system(replay.c_str()), 0) << slurp(path("replay-err.txt"));
  const nlohmann::json shown = read_json(views);
  EXPECT_THAT(shown.at("camera_view").at("warnings").dump(), HasSubstr("cut short")) << shown.dump();
#endif
}

// Early (before the first ruling), mid-move, later in the game (milliseconds of video tracked).
INSTANTIATE_TEST_SUITE_P(AtSeveralMoments, RecordingKilled, ::testing::Values(1000, 8000, 20000));

}  // namespace
}  // namespace diskref::testing
