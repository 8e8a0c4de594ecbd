// The live game behind `diskref ui --game`, without a window: the skirmish sample's ground-truth
// tracks fed frame by frame as the worker feeds them, its inputs preloaded or given "at the
// screen". Checked against the headless referee (`diskref referee`'s library) on the same frames.

#include <filesystem>
#include <fstream>
#include <thread>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/jsonl.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/rules/state_json.h"
#include "net/http_access.h"
#include "tests/support/qr_read.h"
#include "ui/live_game.h"

namespace diskref::ui {
namespace {

namespace fs = std::filesystem;

fs::path sample() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
}

fs::path out_dir() {
  fs::path d = fs::path(DISKREF_BINARY_DIR) / "test-output" / "live-game";
  fs::create_directories(d);
  return d;
}

struct Sample {
  model::TableSpec table = model::load_table(sample() / "table.json");
  model::DiskRegistry registry = model::load_disk_registry(sample() / "disks.json");
  std::vector<model::TrackFrame> frames = model::load_track_jsonl(sample() / "truth.jsonl");

  referee::Referee make_referee() const {
    return referee::Referee(referee::load_game_file(sample() / "game.json", table, registry), table, registry);
  }
  // The headless referee: every input given up front, as `diskref referee` does.
  nlohmann::json headless_log(const std::vector<referee::Input>& inputs) const {
    referee::Referee r = make_referee();
    for (const referee::Input& in : inputs) r.add_input(in);
    for (const model::TrackFrame& f : frames) r.feed(f);
    r.finish();
    return r.log_json();
  }
};

const ShipShown& ship(const GameView& v, const std::string& id) {
  for (const ShipShown& s : v.ships)
    if (s.id == id) return s;
  throw std::runtime_error(id + " not shown");
}

TEST(LiveGame, PlaysTheSampleWithItsInputsAsTheHeadlessRefereeDoes) {
  Sample s;
  fs::path recorded = out_dir() / "recorded.jsonl";
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  LiveGame game(s.make_referee(), inputs, recorded);
  for (const model::TrackFrame& f : s.frames) game.on_frame(f);
  game.finish();

  std::shared_ptr<const GameView> v = game.view();
  EXPECT_EQ(v->turn.turn, 2);
  EXPECT_EQ(ship(*v, "enterprise").hull, 6);
  EXPECT_EQ(ship(*v, "enterprise").shields, 5);
  EXPECT_EQ(ship(*v, "enterprise").speed, 0);
  EXPECT_EQ(ship(*v, "tderet").shields, 7);
  // The log as shown: numbered entries with their text, the beam's range among them.
  bool beam = false;
  for (const GameLogLine& l : v->log) beam = beam || l.text.find("in range") != std::string::npos;
  EXPECT_TRUE(beam);
  EXPECT_FALSE(v->refusal);

  nlohmann::json live = game.log_json();
  EXPECT_EQ(live, s.headless_log(inputs));
  // The recording replays to the same log.
  EXPECT_EQ(live, s.headless_log(referee::load_inputs(recorded)));
}

TEST(LiveGame, AnInputFromTheScreenIsRecordedWithTheFrameItWasGivenAt) {
  Sample s;
  fs::path recorded = out_dir() / "screen.jsonl";
  // The first five inputs at the screen instead of from the file.
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  std::vector<referee::Input> later(inputs.begin() + 5, inputs.end());
  LiveGame game(s.make_referee(), later, recorded);
  bool given = false;
  double given_at = 0;
  for (const model::TrackFrame& f : s.frames) {
    if (!given && f.t >= 1.0) {
      for (std::size_t i = 0; i < 5; ++i) {
        nlohmann::json line = referee::input_to_json(inputs[i]);
        line.erase("t");
        game.submit(line);
      }
      EXPECT_EQ(game.view()->queued, 5u);  // shown as waiting before the worker takes them
      given = true;
      given_at = f.t;
    }
    game.on_frame(f);
  }
  game.finish();
  std::vector<referee::Input> replay = referee::load_inputs(recorded);
  ASSERT_EQ(replay.size(), inputs.size());
  EXPECT_DOUBLE_EQ(replay[0].t, given_at);
  EXPECT_EQ(game.view()->turn.turn, 2);
  EXPECT_EQ(game.log_json(), s.headless_log(replay));
}

TEST(LiveGame, ARefusedInputIsShownWithItsReasonAndChangesNothing) {
  Sample s;
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  LiveGame plain(s.make_referee(), inputs, std::nullopt);
  LiveGame refused(s.make_referee(), inputs, std::nullopt);
  bool given = false;
  for (const model::TrackFrame& f : s.frames) {
    plain.on_frame(f);
    // Initiative again in the middle of phase 1: not this step's.
    if (!given && f.t >= 3.5) {
      rules::GameState before = refused.view()->state;
      refused.submit({{"do", "initiative"}});
      refused.on_frame(f);
      given = true;
      std::shared_ptr<const GameView> v = refused.view();
      ASSERT_TRUE(v->refusal);
      EXPECT_NE(v->refusal->text.find("refused (wrong_step)"), std::string::npos) << v->refusal->text;
      EXPECT_EQ(rules::state_to_json(v->state), rules::state_to_json(before));
      continue;
    }
    refused.on_frame(f);
  }
  plain.finish();
  refused.finish();
  EXPECT_EQ(rules::state_to_json(refused.view()->state), rules::state_to_json(plain.view()->state));
}

TEST(LiveGame, UndoDropsTheLastInputAndTheGameReplaysWithoutIt) {
  Sample s;
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  std::vector<referee::Input> first(inputs.begin(), inputs.begin() + 5);  // Steps One and Two, initiative
  LiveGame game(s.make_referee(), first, std::nullopt);
  std::size_t i = 0;
  for (; i < s.frames.size() && s.frames[i].t < 1.4; ++i) game.on_frame(s.frames[i]);
  std::shared_ptr<const GameView> v = game.view();
  ASSERT_EQ(v->state.phase.stage, rules::PhaseStage::ships);
  ASSERT_EQ(v->undoable, std::optional<std::size_t>(4));
  game.submit(undo_line(*v->undoable));
  game.on_frame(s.frames[i]);
  v = game.view();
  EXPECT_EQ(v->state.phase.stage, rules::PhaseStage::initiative);
  EXPECT_EQ(v->undoable, std::optional<std::size_t>(3));  // the undo itself is not undone by the next undo
  ASSERT_FALSE(v->choices.empty());
  EXPECT_EQ(v->choices.front().label, "initiative");
}

// A wrong drop found later: the beam's entry in the log offers its drops input to fix; the fix,
// edited (3 hits were 1) and given, replays the game with it.
TEST(LiveGame, AnInputAnEntryTookCanBeFixedFromTheLog) {
  Sample s;
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  LiveGame game(s.make_referee(), inputs, std::nullopt);
  std::size_t i = 0;
  for (; i < s.frames.size() && s.frames[i].t < 11.0; ++i) game.on_frame(s.frames[i]);
  std::shared_ptr<const GameView> v = game.view();
  const GameLogLine* beam = nullptr;
  for (const GameLogLine& l : v->log)
    if (l.text.find("fires its beam") != std::string::npos) beam = &l;
  ASSERT_NE(beam, nullptr);
  const std::pair<std::size_t, nlohmann::json>* drops = nullptr;
  for (const auto& in : beam->inputs)
    if (in.second.at("do") == "drops") drops = &in;
  ASSERT_NE(drops, nullptr) << "the beam's entry took the drops input";
  EXPECT_EQ(drops->second.at("drops").at(0).at("hits"), 3);
  const int shields_before = ship(*v, "tderet").shields;
  nlohmann::json fix = fix_line(drops->first, drops->second);
  fix["with"]["drops"][0]["hits"] = 1;  // what the referee edits in the free line
  game.submit(fix);
  game.on_frame(s.frames[i]);
  v = game.view();
  EXPECT_EQ(ship(*v, "tderet").shields, shields_before + 2) << "one hit instead of three";
}

// Corrections given at the screen (a fix of an earlier drop, then an undo of a later input) are
// recorded as spec §9 lines: the headless referee replays the recording to the very same log,
// the corrections' entries (and what they replaced) included.
TEST(LiveGame, CorrectionsAtTheScreenReplayHeadlessToTheSameLog) {
  Sample s;
  fs::path recorded = out_dir() / "corrected.jsonl";
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  LiveGame game(s.make_referee(), inputs, recorded);
  bool fixed = false, undone = false;
  for (const model::TrackFrame& f : s.frames) {
    if (!fixed && f.t >= 11.0) {
      std::shared_ptr<const GameView> v = game.view();
      for (const GameLogLine& l : v->log)
        for (const auto& in : l.inputs)
          if (!fixed && in.second.at("do") == "drops") {
            nlohmann::json fix = fix_line(in.first, in.second);
            fix["with"]["drops"][0]["hits"] = 1;
            game.submit(fix);
            fixed = true;
          }
      ASSERT_TRUE(fixed) << "no drop to fix by 11 s";
    }
    if (!undone && f.t >= 27.0) {
      std::shared_ptr<const GameView> v = game.view();
      ASSERT_TRUE(v->undoable);
      game.submit(undo_line(*v->undoable));
      undone = true;
    }
    game.on_frame(f);
  }
  game.finish();
  ASSERT_TRUE(fixed && undone);
  nlohmann::json live = game.log_json();
  int corrections = 0;
  for (const nlohmann::json& e : live.at("log")) corrections += e.contains("correction") ? 1 : 0;
  EXPECT_EQ(corrections, 2) << live.dump();
  const nlohmann::json headless = s.headless_log(referee::load_inputs(recorded));
  EXPECT_EQ(live, headless);
  if (live != headless) {  // for the failure's reader: both logs beside the recording
    std::ofstream(out_dir() / "corrected-live.json") << live.dump(1);
    std::ofstream(out_dir() / "corrected-headless.json") << headless.dump(1);
  }
}

TEST(LiveGame, AsksForTheDropTheActionWaitsFor) {
  Sample s;
  std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  LiveGame game(s.make_referee(), inputs, std::nullopt);
  std::vector<std::string> labels;
  for (const model::TrackFrame& f : s.frames) {
    game.on_frame(f);
    std::shared_ptr<const GameView> v = game.view();
    if (v->expecting.need == referee::Expectation::Need::drops && v->expecting.drop &&
        v->expecting.drop->purpose == "damage") {
      for (const InputChoice& c : v->choices) labels.push_back(c.label);
      break;
    }
  }
  ASSERT_FALSE(labels.empty()) << "the beam never waited for its damage drop";
  EXPECT_EQ(labels.front(), "0 hits");
  EXPECT_NE(std::find(labels.begin(), labels.end(), "3 hits"), labels.end());
}

TEST(LiveGame, TheBeamsRangeIsShownUntilTheNextMove) {
  Sample s;
  LiveGame game(s.make_referee(), referee::load_inputs(sample() / "inputs.jsonl"), std::nullopt);
  std::size_t i = 0;
  for (; s.frames[i].t < 10.0; ++i) game.on_frame(s.frames[i]);
  std::shared_ptr<const GameView> v = game.view();
  ASSERT_TRUE(v->last_attack);
  EXPECT_EQ(v->last_attack->observed.disk, "enterprise");
  EXPECT_EQ(v->last_attack->observed.verdicts.front().with, "tderet");
  EXPECT_EQ(v->last_attack->observed.verdicts.front().call, referee::Call::yes);
  for (; s.frames[i].t < 16.0; ++i) game.on_frame(s.frames[i]);  // enterprise has moved since
  EXPECT_FALSE(game.view()->last_attack);
  EXPECT_EQ(game.view()->last_move->observed.disk, "enterprise");
}

TEST(LiveGame, AFrameBackInTimeIsNotRefereedAgain) {
  Sample s;
  LiveGame game(s.make_referee(), {}, std::nullopt);
  for (std::size_t i = 0; i < 40; ++i) game.on_frame(s.frames[i]);
  ASSERT_TRUE(game.view()->note.empty());
  game.on_frame(s.frames[3]);
  EXPECT_NE(game.view()->note.find("went back"), std::string::npos);
  EXPECT_DOUBLE_EQ(game.view()->t, s.frames[39].t);
}

}  // namespace
}  // namespace diskref::ui

namespace diskref::ui {
namespace {

// --serve/--mqtt behind the screen: every ruling of the live game goes out on the feed as the
// referee makes it, and what the network says (the broker lost, then back) is the screen's
// status line, in red while it is trouble.
TEST(LiveGame, AReplayedGameTakenBackIsAsItWasThen) {
  // `diskref ui --replay`: the video sought back to a moment, the game is as it was at that moment.
  Sample s;
  const std::vector<referee::Input> inputs = referee::load_inputs(sample() / "inputs.jsonl");
  LiveGame game(s.make_referee(), inputs, std::nullopt);
  game.enable_rewind([&s] { return s.make_referee(); }, s.frames);
  for (const model::TrackFrame& f : s.frames) game.on_frame(f);
  game.finish();
  const GameView end = *game.view();
  ASSERT_EQ(end.turn.turn, 2);

  // Back to a third of the way: as a game played only that far.
  const std::size_t back_to = s.frames.size() / 3;
  game.on_frame(s.frames[back_to]);
  const GameView then = *game.view();
  LiveGame reference(s.make_referee(), inputs, std::nullopt);
  for (std::size_t i = 0; i <= back_to; ++i) reference.on_frame(s.frames[i]);
  const GameView expected = *reference.view();
  EXPECT_LT(then.log.size(), end.log.size());
  ASSERT_EQ(then.log.size(), expected.log.size());
  for (std::size_t i = 0; i < then.log.size(); ++i) EXPECT_EQ(then.log[i].text, expected.log[i].text) << i;
  EXPECT_EQ(rules::state_to_json(then.state), rules::state_to_json(expected.state));
  // And on again to the end: the end as before.
  for (std::size_t i = back_to + 1; i < s.frames.size(); ++i) game.on_frame(s.frames[i]);
  game.finish();
  EXPECT_EQ(game.log_json(), s.headless_log(inputs));
}

TEST(LiveGame, ItsRulingsGoOutOnTheFeedAndTheNetworkSaysSoOnTheScreen) {
  Sample s;
  auto feed = std::make_unique<net::LiveFeed>(net::LiveFeedOptions{}, s.table, s.registry, nullptr);
  net::FeedHub& hub = feed->hub();
  auto notes = std::make_shared<NetworkNotes>();
  LiveGame game(s.make_referee(), referee::load_inputs(sample() / "inputs.jsonl"), std::nullopt, std::move(feed),
                notes);
  const std::size_t half = s.frames.size() / 2;
  for (std::size_t i = 0; i < half; ++i) game.on_frame(s.frames[i]);
  EXPECT_EQ(game.view()->network, "");
  // Said on the broker's thread.
  std::thread([&] {
    notes->say("MQTT: the broker at 127.0.0.1:1883 is lost (refused); refereeing goes on, reconnecting");
  }).join();
  game.on_frame(s.frames[half]);
  EXPECT_TRUE(game.view()->network_trouble);
  EXPECT_NE(game.view()->network.find("is lost"), std::string::npos);
  notes->say("MQTT: the broker at 127.0.0.1:1883 is back; the table's state is sent again");
  for (std::size_t i = half + 1; i < s.frames.size(); ++i) game.on_frame(s.frames[i]);
  game.finish();
  EXPECT_FALSE(game.view()->network_trouble);
  EXPECT_NE(game.view()->network.find("is back"), std::string::npos);

  const nlohmann::json snapshot = hub.snapshot().message;
  const nlohmann::json log = game.log_json();
  ASSERT_EQ(snapshot["rulings"].size(), log["log"].size());
  for (std::size_t i = 0; i < log["log"].size(); ++i) EXPECT_EQ(snapshot["rulings"][i]["t"], log["log"][i]["t"]) << i;
  EXPECT_EQ(snapshot["game"]["turn"]["turn"], 2);
}

// --serve beyond loopback behind the screen: the screen is given the address a phone opens, with
// the token the feed requires, and a QR code that reads as that address; on loopback, nothing.
TEST(LiveGame, BeyondLoopbackTheScreenIsGivenTheFeedsAddressWithItsTokenAndItsQrCode) {
  Sample s;
  net::LiveFeedOptions wide;
  wide.serve.emplace();
  wide.serve->listen = net::Endpoint{"0.0.0.0", 0};
  wide.serve->token = net::new_access_token();
  const std::string token = wide.serve->token;
  LiveGame game(s.make_referee(), {}, std::nullopt,
                std::make_unique<net::LiveFeed>(wide, s.table, s.registry, nullptr));
  ASSERT_TRUE(game.feed_access());
  const net::FeedAccess& a = *game.feed_access();
  EXPECT_TRUE(a.token_needed);
  EXPECT_EQ(a.listen_host, "0.0.0.0");
  EXPECT_EQ(a.url.rfind("http://", 0), 0u) << a.url;
  EXPECT_NE(a.url.find("?token=" + token), std::string::npos) << a.url;
  EXPECT_EQ(testing::read_qr(a.qr), a.url);

  // --serve-public: the plain address, open to all.
  net::LiveFeedOptions open = wide;
  open.serve->public_read = true;
  LiveGame public_game(s.make_referee(), {}, std::nullopt,
                       std::make_unique<net::LiveFeed>(open, s.table, s.registry, nullptr));
  ASSERT_TRUE(public_game.feed_access());
  EXPECT_FALSE(public_game.feed_access()->token_needed);
  EXPECT_EQ(public_game.feed_access()->url.find("token"), std::string::npos);
  EXPECT_EQ(testing::read_qr(public_game.feed_access()->qr), public_game.feed_access()->url);

  net::LiveFeedOptions local;
  local.serve.emplace();
  LiveGame local_game(s.make_referee(), {}, std::nullopt,
                      std::make_unique<net::LiveFeed>(local, s.table, s.registry, nullptr));
  EXPECT_FALSE(local_game.feed_access());
  EXPECT_FALSE(LiveGame(s.make_referee(), {}, std::nullopt).feed_access());
}

// The feed's notice, said to the screen's status line: its terminal QR code (half blocks the
// screen's font has not) is left out, and the line says where the screen's code is.
TEST(NetworkNotes, TheNoticesTerminalQrCodeIsLeftOutAndTheScreensCodeNamed) {
  NetworkNotes notes;
  notes.say(
      "the live feed: listening beyond this machine (0.0.0.0): a token is required; open "
      "http://192.0.2.2:8090/?token=ab (the token is kept by the browser), or scan:\n"
      "\u2588\u2588\u2580\u2584\n\u2588\u2588\u2588\u2588");
  bool trouble = true;
  long long serial = 0;
  const std::string shown = notes.latest(trouble, serial);
  EXPECT_EQ(shown,
            "the live feed: listening beyond this machine (0.0.0.0): a token is required; open "
            "http://192.0.2.2:8090/?token=ab (the token is kept by the browser), or scan the code over the table "
            "view ([Q] shows or hides it)");
  EXPECT_FALSE(trouble);
  notes.say("MQTT: the broker at 127.0.0.1:1883 is lost (refused); reconnecting");
  EXPECT_EQ(notes.latest(trouble, serial), "MQTT: the broker at 127.0.0.1:1883 is lost (refused); reconnecting");
  EXPECT_TRUE(trouble);
}

}  // namespace
}  // namespace diskref::ui
