// `diskref referee --camera URL` over a real HTTP stream, as a user's phone gives it, with the
// network gone for 3 s in the middle of the game (issue 36): a sample game served on loopback as an
// MJPEG stream, each frame sent at the moment the camera takes it (tests/vision/mjpeg_stream_server.h,
// paced), the port closed for 3 s of wall time while the camera goes on filming, and the stream
// taken up again at the frame the camera is taking then. The game refereed live must be the one
// the same video gives read as a file (`diskref referee VIDEO`), the gap said once, and the
// recording must hold the game before and after the gap and replay to the same books.
//
// It runs in real time (about 20 s: the 13 s video and the file's refereeing): an integration
// test, not for the sanitizer builds.

#include <signal.h>
#include <unistd.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../net/child_process.h"
#include "../vision/mjpeg_stream_server.h"
#include "phone_stream_game.h"
#include "recording/game_recording.h"
#include "recording/recorded_video.h"
#include "same_game.h"
#include "sample_game.h"

namespace diskref::pipeline {
namespace {

namespace fs = std::filesystem;
using diskref::testing::ChildProcess;
using diskref::testing::diskref_program;
using testing::SampleGame;
using vision::testing::MjpegStreamServer;

constexpr double kFps = 30;  // the sample videos' rate
constexpr double kAwayS = 3;

// The longest stretch of the video in which the table lies still (the ground truth's still_s: no
// disk moving, nothing over the table), ending before the video does: where the network can go
// away for seconds without the camera missing anything of the game.
struct Stretch {
  double from = 0, to = 0;
};
Stretch longest_still(const SampleGame& s) {
  Stretch best;
  for (const model::TrackFrame& f : s.frames)
    if (f.still_s && f.t < s.frames.back().t - 0.5 && *f.still_s > best.to - best.from) best = {f.t - *f.still_s, f.t};
  return best;
}

nlohmann::json read_json(const fs::path& file) {
  std::ifstream in(file);
  return nlohmann::json::parse(in);
}

// The sample's setup and its inputs, as both the file's referee and the camera's are given them.
std::vector<std::string> setup_args(const fs::path& sample) {
  std::vector<std::string> args = testing::sample_setup_args(sample);
  args.push_back("--inputs");
  args.push_back((sample / "inputs.jsonl").string());
  return args;
}

// The largest sigma_mm the log gives anywhere (the tracker's word on how well it placed a disk).
double largest_sigma_mm(const nlohmann::json& j) {
  double out = 0;
  if (j.is_object())
    for (const auto& [key, value] : j.items())
      out = std::max(out, key == "sigma_mm" && value.is_number() ? value.get<double>() : largest_sigma_mm(value));
  if (j.is_array())
    for (const nlohmann::json& v : j) out = std::max(out, largest_sigma_mm(v));
  return out;
}

TEST(RefereeHttpCameraCut, APhonesStreamCutForThreeSecondsMidGameGivesTheFilesGame) {
  const SampleGame s("drops");
  // Its own folder: a second copy of this test may run beside it.
  const fs::path out = testing::test_output("referee-http-camera-cut-" + std::to_string(::getpid()));

  // The game from the video file, as `diskref referee VIDEO` gives it.
  std::vector<std::string> file_args{"referee", (s.dir / "video.mp4").string()};
  for (const std::string& a : setup_args(s.dir)) file_args.push_back(a);
  for (const std::string& a : {std::string("--out"), (out / "file.json").string(), std::string("--quiet")})
    file_args.push_back(a);
  {
    ChildProcess file_referee(diskref_program(), file_args, out / "file-stderr.txt");
    const std::optional<int> status = file_referee.wait(std::chrono::seconds(300));
    ASSERT_TRUE(status.has_value() && *status == 0) << file_referee.log_text();
  }
  const nlohmann::json file_log = read_json(out / "file.json");

  // The phone: the video's frames at the video's rate, the network gone for 3 s from the first
  // frame of the table's longest still stretch (the last counters of a drop lying, the referee waiting
  // for its word on one of them, which comes while the camera is away). The referee sees a longer
  // gap than 3 s: it tries the camera again 0, 0.5, 1.5 and 3.5 s after losing it, and the frames
  // until it is back are lost too.
  const Stretch still = longest_still(s);
  ASSERT_GE(still.to - still.from, 4.0) << "the sample has no still stretch long enough to lose the camera in";
  MjpegStreamServer::Plan plan;
  plan.jpegs = testing::video_as_jpegs(s.dir / "video.mp4", -1, 95);  // every frame, as good as phone apps go
  ASSERT_EQ(plan.jpegs.size(), s.frames.size());
  plan.fps = kFps;
  plan.cut_after = static_cast<long long>(std::ceil(still.from * kFps - 1e-6));
  plan.away_s = kAwayS;
  MjpegStreamServer phone(plan);

  // The user: the setup and the inputs the referee was given, the camera's URL, a recording, and
  // Ctrl-C once the game is over (the phone's stream ended and the camera lost for good).
  const fs::path typed = out / "typed.jsonl";
  std::ofstream(typed).close();
  std::vector<std::string> live_args{"referee", "--camera", phone.url()};
  for (const std::string& a : setup_args(s.dir)) live_args.push_back(a);
  for (const std::string& a : {std::string("--follow-inputs"), typed.string(), std::string("--out"),
                               (out / "camera.json").string(), std::string("--record"), (out / "session").string()})
    live_args.push_back(a);
  ChildProcess referee(diskref_program(), live_args, out / "camera-stderr.txt");
  const std::regex lost("lost \\(([^)]*)\\): opening it again");
  ASSERT_TRUE(referee.wait_for_log(lost, std::chrono::seconds(120))) << referee.log_text();
  ASSERT_TRUE(referee.wait_for_log(std::regex("back after [0-9.]+ s without frames"), std::chrono::seconds(60)))
      << referee.log_text();
  // Lost again: every frame the phone sent has been refereed or dropped (counted) behind it.
  ASSERT_TRUE(referee.wait_for_log(lost, std::chrono::seconds(120), 2)) << referee.log_text();
  ::kill(referee.pid(), SIGINT);
  const std::optional<int> status = referee.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value()) << "Ctrl-C did not end it\n" << referee.log_text();
  ASSERT_EQ(*status, 0) << referee.log_text();

  // The recording: the camera's frames and the inputs before and after the gap.
  const recording::GameRecording recorded = recording::load_game_recording(out / "session");
  EXPECT_TRUE(recorded.warnings.empty()) << recorded.warnings.front();
  EXPECT_TRUE(fs::exists(out / "session" / "ended.json"));
  const std::vector<model::TrackFrame>& tracks = recorded.session.frames;
  ASSERT_FALSE(tracks.empty());
  const nlohmann::json camera_log = read_json(out / "camera.json");
  ASSERT_EQ(testing::camera_gaps_in(camera_log), 1u) << camera_log.dump(1);
  const nlohmann::json* gap = nullptr;
  for (const nlohmann::json& e : camera_log.at("log"))
    if (testing::is_camera_gap(e)) gap = &e.at("warning");
  const double gap_from = gap->at("from").get<double>(), gap_to = gap->at("to").get<double>();
  EXPECT_GE(gap_to - gap_from, kAwayS);
  auto before = [&](double t) { return t <= gap_from + 1e-3; };
  // The referee kept up with the camera. A multipart stream has no times of its own: a frame is
  // timed as it arrives, on a thread that reads the stream as it comes (vision/arrival_reader.h),
  // and a referee that falls behind (a machine too busy to track these 1080p frames 30 times a
  // second) has frames dropped, counted in its summary. Then its game has seen less of the table
  // than the file's, and this test cannot say it is the file's game. That is the machine's doing,
  // not the game's: the test then says so and stops (skipped, with the figure). So does a machine
  // too busy to take the frames off the network when they come (their times then run late).
  std::smatch dropped;
  const std::string summary = referee.log_text();
  if (std::regex_search(summary, dropped, std::regex("\\(([0-9]+) of them arrived and were dropped while the referee")))
    GTEST_SKIP() << "this machine did not keep up with the phone's 1080p frames at 30 a second: " << dropped[1]
                 << " frames were dropped while the referee was behind (the comparison needs a referee that keeps "
                 << "up; run it on a machine that is not busy)";
  constexpr double kKeptUpS = 0.3;
  const double t0 = tracks.front().t;
  for (const model::TrackFrame& f : tracks) {
    if (!before(f.t)) break;
    const double behind = (f.t - t0) - static_cast<double>(f.frame) / kFps;
    if (std::abs(behind) >= kKeptUpS)
      GTEST_SKIP() << "this machine did not take the phone's frames off the network as they came: frame " << f.frame
                   << " was timed " << behind << " s after the camera took it (run it on a machine that is not busy)";
  }

  // The phone's side: the frames before the cut and those after it, nothing else; the camera came
  // back inside the still stretch (else this would not be a test of a quiet gap).
  const std::optional<long long> resumed = phone.resumed_at();
  ASSERT_TRUE(resumed.has_value());
  const long long sent_after = static_cast<long long>(plan.jpegs.size()) - *resumed;
  EXPECT_EQ(phone.frames_served(), plan.cut_after + 1 + sent_after);
  // Reopening is tried 0, 0.5, 1.5 and 3.5 s after the loss: on a machine too busy to answer at
  // once it may come back after the table has moved again, and then this is no test of a quiet gap.
  if (static_cast<double>(*resumed) / kFps >= still.to)
    GTEST_SKIP() << "the stream came back at " << static_cast<double>(*resumed) / kFps
                 << " s, after the table's still stretch ended at " << still.to << " s (the machine was too busy)";

  const auto tracks_before =
      std::count_if(tracks.begin(), tracks.end(), [&](const model::TrackFrame& f) { return before(f.t); });
  EXPECT_EQ(tracks_before, plan.cut_after + 1) << "every frame before the gap is in the recording";
  EXPECT_EQ(static_cast<long long>(tracks.size()) - tracks_before, sent_after)
      << "every frame after the gap is in the recording";
  const recording::RecordedVideo video = recording::RecordedVideo::open(out / "session" / "video");
  const auto video_before = std::count_if(video.frames().begin(), video.frames().end(),
                                          [&](const recording::RecordedVideoFrame& f) { return before(f.t); });
  EXPECT_GT(video_before, 0);
  EXPECT_GT(static_cast<long long>(video.frames().size()) - video_before, 0);
  ASSERT_EQ(recorded.inputs.size(), s.inputs.size()) << "the inputs given before the gap and the one after it";

  // The camera's game is the file's. Its times are the camera's, counted from its first frame; an
  // entry may fall up to that much from the file's. Poses may differ
  // by what the tracker says it knows them to: with sigma the largest sigma_mm either log gives,
  // the two measures of one place differ by at most 4 * sqrt(2) * sigma (4 sigma of the
  // difference of two independent ones); a heading, measured across a tag of 24 mm, by that much
  // over half the tag's side (in radians).
  testing::SameGameTolerances tolerances;
  tolerances.camera_t0 = t0;
  tolerances.time_s = kKeptUpS;
  const double sigma = std::max(largest_sigma_mm(camera_log), largest_sigma_mm(file_log));
  tolerances.position_mm = 4 * std::sqrt(2.0) * sigma;
  tolerances.heading_deg = tolerances.position_mm / 12.0 * 180 / M_PI;
  EXPECT_EQ(testing::lines(testing::differences_between(camera_log, file_log, tolerances)), "")
      << "sigma " << sigma << " mm\n"
      << camera_log.dump(1) << "\n"
      << file_log.dump(1);
  EXPECT_NE(referee.log_text().find("1 gap,"), std::string::npos) << referee.log_text();

  // The recording refereed again gives the camera's game.
  {
    ChildProcess replay(
        diskref_program(),
        {"referee", "--session", (out / "session").string(), "--out", (out / "replay.json").string(), "--quiet"},
        out / "replay-stderr.txt");
    const std::optional<int> replayed = replay.wait(std::chrono::seconds(120));
    ASSERT_TRUE(replayed.has_value() && *replayed == 0) << replay.log_text();
  }
  const nlohmann::json replayed = read_json(out / "replay.json");
  EXPECT_EQ(replayed.at("final_state"), camera_log.at("final_state"));
  EXPECT_EQ(replayed.at("log"), camera_log.at("log"));

  if (!HasFailure()) fs::remove_all(out);
}

}  // namespace
}  // namespace diskref::pipeline
