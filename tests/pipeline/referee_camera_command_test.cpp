// `diskref referee --camera URL` as a user runs it: a phone's MJPEG stream on loopback, the
// inputs typed into a file the program follows, Ctrl-C to end the game; the log written and the
// recording closed whole. And the mistakes it refuses before it writes anything.

#include <signal.h>

#include <fstream>
#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../net/child_process.h"
#include "../support/free_port.h"
#include "../vision/mjpeg_stream_server.h"
#include "phone_stream_game.h"
#include "recording/game_recording.h"
#include "sample_game.h"

namespace diskref::pipeline {
namespace {

namespace fs = std::filesystem;
using diskref::testing::ChildProcess;
using diskref::testing::diskref_program;
using vision::testing::MjpegStreamServer;

TEST(RefereeCameraCommand, RefereesAPhonesStreamTakesTypedInputsAndEndsWholeOnCtrlC) {
  const fs::path sample = testing::sample_dir("skirmish");
  const fs::path out = testing::test_output("referee-camera");
  MjpegStreamServer::Plan plan;
  plan.jpegs = testing::video_as_jpegs(sample / "video.mp4", 90, 90);
  ASSERT_EQ(plan.jpegs.size(), 90u);
  plan.cut_after = 89;  // then the phone is gone (its app closed) until the game is ended
  MjpegStreamServer phone(plan);

  const fs::path typed = out / "typed.jsonl";
  {
    std::ofstream lines(typed);
    lines << "{\"do\": \"reveal\", \"player\": \"diana\", \"reveal\": [\"laforge\"]}\n";
    lines << "{\"do\": \"fly\"}\n";
  }
  std::vector<std::string> args{"referee", "--camera", phone.url()};
  for (const std::string& a : testing::sample_setup_args(sample)) args.push_back(a);
  for (const std::string& a : {std::string("--follow-inputs"), typed.string(), std::string("--out"),
                               (out / "log.json").string(), std::string("--record"), (out / "session").string()})
    args.push_back(a);
  ChildProcess referee(diskref_program(), args, out / "stderr.txt");

  ASSERT_TRUE(referee.wait_for_log(std::regex("typed\\.jsonl: line 1: taken"), std::chrono::seconds(120)))
      << referee.log_text();
  ASSERT_TRUE(referee.wait_for_log(std::regex("typed\\.jsonl: line 2: not taken: (.*)"), std::chrono::seconds(60)))
      << referee.log_text();
  // The phone's stream ends: the camera is lost and waited for, as a camera is, until Ctrl-C.
  ASSERT_TRUE(referee.wait_for_log(std::regex("lost \\((.*)\\): opening it again"), std::chrono::seconds(120)))
      << referee.log_text();
  ::kill(referee.pid(), SIGINT);
  const std::optional<int> status = referee.wait(std::chrono::seconds(60));
  ASSERT_TRUE(status.has_value()) << "Ctrl-C did not end it\n" << referee.log_text();
  EXPECT_EQ(*status, 0) << referee.log_text();

  // The log, whole, with the input typed while the camera ran; the recording keeps the input.
  std::ifstream log_file(out / "log.json");
  const nlohmann::json log = nlohmann::json::parse(log_file);
  ASSERT_TRUE(log.contains("log")) << log.dump(1).substr(0, 2000);
  EXPECT_NE(log.at("log").dump().find("\"reveal\""), std::string::npos) << log.dump(1).substr(0, 4000);
  const recording::GameRecording recorded = recording::load_game_recording(out / "session");
  ASSERT_EQ(recorded.inputs.size(), 1u);
  EXPECT_EQ(referee::input_to_json(recorded.inputs.front()).at("do"), "reveal");
  // The recording ended and names its source.
  EXPECT_TRUE(fs::exists(out / "session" / "ended.json")) << referee.log_text();
  std::ifstream session_file(out / "session" / "session.json");
  const nlohmann::json session = nlohmann::json::parse(session_file);
  EXPECT_EQ(session.at("source"), "camera") << session.dump(1);
  EXPECT_NE(referee.log_text().find(phone.url()), std::string::npos) << "the camera named in its summary";
}

TEST(RefereeCameraCommand, ACameraThatIsNotThereOrALiveMistakeIsRefusedBeforeAnythingIsWritten) {
  const fs::path sample = testing::sample_dir("skirmish");
  const fs::path out = testing::test_output("referee-camera-refused");
  const std::string nobody = "http://127.0.0.1:" + std::to_string(diskref::testing::free_loopback_port()) + "/video";
  struct Case {
    std::vector<std::string> extra;
    std::string said;
  };
  const std::vector<Case> cases{
      {{"--camera", nobody}, "127.0.0.1"},
      {{"--camera", nobody, "--realtime"}, "--realtime"},
      {{"--camera", nobody, (sample / "video.mp4").string()}, "--camera"},
      {{"--follow-inputs", (out / "x.jsonl").string(), (sample / "video.mp4").string()}, "--follow-inputs"},
  };
  int n = 0;
  for (const Case& c : cases) {
    const fs::path dir = out / std::to_string(n++);
    std::vector<std::string> args{"referee"};
    for (const std::string& a : testing::sample_setup_args(sample)) args.push_back(a);
    for (const std::string& a : c.extra) args.push_back(a);
    for (const std::string& a :
         {std::string("--out"), (dir / "log.json").string(), std::string("--record"), (dir / "session").string()})
      args.push_back(a);
    ChildProcess referee(diskref_program(), args, out / ("stderr-" + std::to_string(n) + ".txt"));
    const std::optional<int> status = referee.wait(std::chrono::seconds(120));
    ASSERT_TRUE(status.has_value()) << c.said;
    EXPECT_EQ(*status, 2) << referee.log_text();
    EXPECT_NE(referee.log_text().find(c.said), std::string::npos) << referee.log_text();
    EXPECT_FALSE(fs::exists(dir / "log.json")) << c.said;
    EXPECT_FALSE(fs::exists(dir / "session")) << c.said;
  }
}

}  // namespace
}  // namespace diskref::pipeline
