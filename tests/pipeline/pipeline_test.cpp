// The one pipeline (pipeline/pipeline.h): tracked frames to the game and the recording, stopped
// from outside, finished once; a recording it made replays to the game it refereed.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "pipeline/game_replay.h"
#include "pipeline/pipeline.h"
#include "recording/game_recording.h"
#include "sample_game.h"

namespace diskref::pipeline {
namespace {

using testing::SampleGame;

TEST(Pipeline, RefereesAndRecordsTheTracksAndTheRecordingReplaysToTheSameGame) {
  SampleGame s;
  const std::filesystem::path dir = testing::test_output("pipeline-record") / "session";
  auto game = std::make_shared<RefereedGame>(s.make_referee(), s.inputs);
  {
    Pipeline pipe(nullptr, game, testing::recorder_for(s, dir));
    pipe.run_tracks(s.frames);
    pipe.finish();
    EXPECT_EQ(pipe.stats().frames, static_cast<long long>(s.frames.size()));
    EXPECT_FALSE(pipe.recorder()->failed()) << pipe.recorder()->failure();
  }
  EXPECT_EQ(game->log_json(), s.referee_alone_log(s.inputs));
  const recording::GameRecording recorded = recording::load_game_recording(dir);
  EXPECT_TRUE(recorded.warnings.empty()) << recorded.warnings.front();
  EXPECT_EQ(recorded.session.frames.size(), s.frames.size());
  const ReplayedGame replayed = replay_game(recorded);
  ASSERT_TRUE(replayed.matches_recorded_log.has_value());
  EXPECT_TRUE(*replayed.matches_recorded_log);
  EXPECT_EQ(replayed.log_json, game->log_json());
}

TEST(Pipeline, StopEndsTheRunAfterTheFrameInHandAndTheGameStillEndsWhole) {
  SampleGame s;
  auto game = std::make_shared<RefereedGame>(s.make_referee(), s.inputs);
  Pipeline pipe(nullptr, game, nullptr);
  long long seen = 0;
  game->set_observer([&](const referee::Referee&, const GameMoment& m) {
    if (!m.finished && ++seen == 100) pipe.stop();
  });
  pipe.run_tracks(s.frames);
  EXPECT_TRUE(pipe.stopped());
  EXPECT_EQ(pipe.stats().frames, 100);
  pipe.finish();
  EXPECT_TRUE(game->finished());
  // Stopped early, the inputs still due are given at the end, as when a video ends early.
  std::size_t given = 0;
  game->read_referee([&](const referee::Referee& r) { given = r.inputs().size(); });
  EXPECT_EQ(given, s.inputs.size());
}

// An exception on the way (a bad frame, a full disk) still closes the recording whole: the
// pipeline's end runs when it goes out of scope.
TEST(Pipeline, ARecordingIsClosedWholeWhenThePipelineIsLeftByAnException) {
  SampleGame s;
  const std::filesystem::path dir = testing::test_output("pipeline-unwound") / "session";
  auto game = std::make_shared<RefereedGame>(s.make_referee(), s.inputs);
  try {
    Pipeline pipe(nullptr, game, testing::recorder_for(s, dir));
    pipe.run_tracks(std::vector<model::TrackFrame>(s.frames.begin(), s.frames.begin() + 200));
    throw std::runtime_error("something on the way");
  } catch (const std::runtime_error&) {
  }
  EXPECT_TRUE(game->finished());
  EXPECT_TRUE(std::filesystem::exists(dir / "ended.json"));
  const recording::GameRecording recorded = recording::load_game_recording(dir);
  EXPECT_EQ(recorded.session.frames.size(), 200u);
  EXPECT_TRUE(recorded.warnings.empty()) << recorded.warnings.front();
}

}  // namespace
}  // namespace diskref::pipeline
