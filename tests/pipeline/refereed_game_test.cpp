// The game as every way in feeds it (pipeline/refereed_game.h): when preloaded and submitted
// inputs are given, with what time, where they are said to come from, and the end.

#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "pipeline/refereed_game.h"
#include "sample_game.h"

namespace diskref::pipeline {
namespace {

using testing::SampleGame;

std::vector<model::TrackFrame> shifted(std::vector<model::TrackFrame> frames, double by) {
  for (model::TrackFrame& f : frames) f.t += by;
  return frames;
}

TEST(RefereedGame, PlaysTheSampleAsTheRefereeAloneDoes) {
  SampleGame s;
  const std::filesystem::path given = testing::test_output("refereed-game") / "given.jsonl";
  RefereedGameOptions options;
  options.inputs_out = given;
  RefereedGame game(s.make_referee(), s.inputs, options);
  for (const model::TrackFrame& f : s.frames) game.on_frame(f);
  game.finish();
  EXPECT_EQ(game.log_json(), s.referee_alone_log(s.inputs));
  // Every input given is written, in the order given, and replays to the same log.
  const std::vector<referee::Input> written = referee::load_inputs(given);
  ASSERT_EQ(written.size(), s.inputs.size());
  EXPECT_EQ(game.log_json(), s.referee_alone_log(written));
}

// A camera's clock is its driver's: its first frame is at 5000 s. A timed --inputs file counts
// from the first frame, so the game is the one the file gives over frames starting at 0.
TEST(RefereedGame, ALiveSourcesInputsCountFromItsFirstFrame) {
  SampleGame s;
  const double clock = 5000.0;
  RefereedGameOptions live;
  live.inputs_from_first_frame = true;
  RefereedGame game(s.make_referee(), s.inputs, live);
  for (const model::TrackFrame& f : shifted(s.frames, clock)) game.on_frame(f);
  game.finish();

  std::vector<referee::Input> moved = s.inputs;
  for (referee::Input& in : moved) in.t += clock;
  referee::Referee alone = s.make_referee();
  for (const referee::Input& in : moved) alone.add_input(in);
  for (const model::TrackFrame& f : shifted(s.frames, clock)) alone.feed(f);
  alone.finish();
  EXPECT_EQ(game.log_json(), alone.log_json());

  // Without it, every input (t 1.0 to 25 s) falls due at once, at the first frame: not the game.
  RefereedGame unshifted(s.make_referee(), s.inputs);
  for (const model::TrackFrame& f : shifted(s.frames, clock)) unshifted.on_frame(f);
  unshifted.finish();
  EXPECT_NE(unshifted.log_json(), alone.log_json());
}

TEST(RefereedGame, ASubmittedInputIsGivenAtTheNextFrameWithItsTimeAndPlace) {
  SampleGame s;
  std::vector<referee::Input> later(s.inputs.begin() + 1, s.inputs.end());
  RefereedGame game(s.make_referee(), later);
  std::size_t i = 0;
  for (; s.frames[i].t < 0.9; ++i) game.on_frame(s.frames[i]);
  nlohmann::json line = referee::input_to_json(s.inputs[0]);
  line["t"] = 99.0;  // replaced: a submitted input is timed by the frame it is given before
  game.submit(line, "standard input: line 1");
  EXPECT_EQ(game.queued(), 1u);
  game.on_frame(s.frames[i]);
  EXPECT_EQ(game.queued(), 0u);
  game.read_referee([&](const referee::Referee& r) {
    ASSERT_FALSE(r.inputs().empty());
    EXPECT_DOUBLE_EQ(r.inputs().front().t, s.frames[i].t);
    EXPECT_EQ(r.inputs().front().where, "standard input: line 1");
  });
}

TEST(RefereedGame, TheEndGivesWhatIsStillDueAndThenIgnoresFrames) {
  SampleGame s;
  RefereedGame game(s.make_referee(), s.inputs);
  game.on_frame(s.frames.front());
  game.submit(nlohmann::json{{"do", "initiative"}}, "typed");
  game.finish();
  EXPECT_TRUE(game.finished());
  std::size_t given = 0;
  game.read_referee([&](const referee::Referee& r) { given = r.inputs().size(); });
  EXPECT_EQ(given, s.inputs.size() + 1) << "the preloaded inputs and the one typed as the source ended";
  const nlohmann::json at_end = game.log_json();
  game.on_frame(s.frames.back());
  game.finish();
  EXPECT_EQ(game.log_json(), at_end);
}

TEST(RefereedGame, AFrameBackInTimeIsIgnoredAndSaidOnce) {
  SampleGame s;
  RefereedGame game(s.make_referee(), s.inputs);
  std::vector<GameMoment> moments;
  game.set_observer([&](const referee::Referee&, const GameMoment& m) { moments.push_back(m); });
  for (std::size_t i = 0; i < 60; ++i) game.on_frame(s.frames[i]);
  ASSERT_EQ(moments.size(), 60u);
  for (std::size_t i = 10; i < 20; ++i) game.on_frame(s.frames[i]);  // a seek back
  ASSERT_EQ(moments.size(), 61u) << "said once, not once a frame";
  EXPECT_NE(moments.back().note.find("went back"), std::string::npos) << moments.back().note;
  game.on_frame(s.frames[60]);
  ASSERT_EQ(moments.size(), 62u);
  EXPECT_TRUE(moments.back().note.empty());
  game.finish();
  EXPECT_TRUE(moments.back().finished);
}

TEST(RefereedGame, AnInputsFileThatCannotBeWrittenIsNamed) {
  SampleGame s;
  RefereedGameOptions options;
  options.inputs_out = "/nonexistent-dir/given.jsonl";
  try {
    RefereedGame game(s.make_referee(), s.inputs, options);
    FAIL() << "opened";
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/given.jsonl"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace diskref::pipeline
