// The virtual drop: a seeded PRNG in the game state. Monte-Carlo checks of the odds of fair counters
// (docs/rules.md, "Odds"), and replays that reproduce a game from its seed.

#include <cmath>
#include <cstdio>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/rules/context.h"
#include "engine/rules/criticals.h"
#include "engine/rules/drops.h"
#include "engine/rules/script.h"
#include "engine/rules/state_check.h"
#include "engine/rules/state_json.h"
#include "tests/rules/rules_test_support.h"

namespace diskref::rules::testing {
namespace {

// The fraction of critical checks on a fresh ship that give a critical, with virtual drops.
double critical_rate(bool hull_damage, double hit_odds, std::uint64_t seed, int trials) {
  GameData data = sample_data();
  data.parameters.hit_face_odds = hit_odds;
  GameState state;
  state.ships.push_back(ShipState{});
  state.ships[0].id = "target";
  state.ships[0].card = "tderet";
  state.drops.rng = rng_state_from_seed(seed);
  int criticals = 0;
  for (int i = 0; i < trials; ++i) {
    state.ships[0].crits.clear();
    std::vector<Event> events;
    VirtualDrops drops(state.drops.rng, hit_odds);
    Ctx ctx{state, data, drops, events, "", {}, {}};
    critical_check(ctx, state.ships[0], hull_damage);
    criticals += has_event<event::Critical>(events) ? 1 : 0;
  }
  return static_cast<double>(criticals) / trials;
}

void expect_within_four_sigma(double measured, double p, int trials) {
  double sigma = std::sqrt(p * (1 - p) / trials);
  std::printf("measured %.4f over %d trials, expected %.4f (1 sigma %.4f)\n", measured, trials, p, sigma);
  EXPECT_NEAR(measured, p, 4 * sigma) << "sigma " << sigma;
}

// "Criticals are unlikely." With fair counters, P(exactly one of five) = 5/32 after shield-only
// damage and P(one or two) = 15/32 after hull damage (docs/rules.md, "Odds").
TEST(VirtualDrops, CriticalChanceAfterShieldOnlyDamageIsFiveThirtySeconds) {
  const int trials = 20000;
  expect_within_four_sigma(critical_rate(false, 0.5, 7, trials), 5.0 / 32, trials);
}

TEST(VirtualDrops, CriticalChanceAfterHullDamageIsFifteenThirtySeconds) {
  const int trials = 20000;
  expect_within_four_sigma(critical_rate(true, 0.5, 11, trials), 15.0 / 32, trials);
}

TEST(VirtualDrops, FaceOddsAreConfigurable) {
  // P(hit face) = 0.6: exactly one critical of five = 5 * 0.4 * 0.6^4.
  const int trials = 20000;
  expect_within_four_sigma(critical_rate(false, 0.6, 13, trials), 5 * 0.4 * std::pow(0.6, 4), trials);
}

TEST(VirtualDrops, ExpectedBeamHitsAreHalfTheRating) {
  std::uint64_t rng = rng_state_from_seed(3);
  VirtualDrops drops(rng, 0.5);
  const int trials = 20000;
  double total = 0;
  for (int i = 0; i < trials; ++i) total += drops.drop({DropPurpose::damage, "t", 4, {}}).hits();
  double sigma = std::sqrt(4 * 0.25 / trials);  // binomial(4, 1/2) variance 1
  EXPECT_NEAR(total / trials, 2.0, 4 * sigma);
}

TEST(VirtualDrops, SameSeedSameDropsDifferentSeedDifferentDrops) {
  auto sequence = [](std::uint64_t seed) {
    std::uint64_t rng = rng_state_from_seed(seed);
    VirtualDrops drops(rng, 0.5);
    std::vector<bool> faces;
    for (int i = 0; i < 20; ++i) {
      auto out = drops.drop({DropPurpose::damage, "t", 5, {}}).critical;
      faces.insert(faces.end(), out.begin(), out.end());
    }
    return faces;
  };
  EXPECT_EQ(sequence(42), sequence(42));
  EXPECT_NE(sequence(42), sequence(43));
}

// A refused action leaves the PRNG where it was, so the same action gives the same drops again.
TEST(VirtualDrops, TheRngLivesInTheStateAndARefusalDoesNotAdvanceIt) {
  nlohmann::json setup = duel_setup(300, 300, 0, 300 + kFlip + 30, 300, 180, 0);
  setup["drops"] = {{"mode", "virtual"}, {"seed", 5}};
  Game g(setup);
  g.reveal_all();
  g.orders("diana", "enterprise", {"attack", "raise_shields", "change_speed"});
  g.orders("owen", "tderet", {"attack", "raise_shields", "change_speed"});
  const std::uint64_t before = g.state().drops.rng;
  g.play(R"({"do": "initiative"})");  // a tie: both drop, virtually
  EXPECT_NE(g.state().drops.rng, before);
  EXPECT_EQ(g.state().drops.made, 2);
  const std::uint64_t rng = g.state().drops.rng;
  const std::string first = g.state().phase.to_act.front();
  const std::string other = first == "enterprise" ? "tderet" : "enterprise";
  g.refused(R"({"do": "move", "player": ")" + std::string(other == "tderet" ? "owen" : "diana") + R"(", "ship": ")" +
                other + "\"}",
            RefusalKind::not_your_option);
  EXPECT_EQ(g.state().drops.rng, rng);
  // Seen drops given with an action are used first even in virtual mode.
  Game h(setup);
  h.start_duel(
      {"attack", "raise_shields", "change_speed"}, {"attack", "raise_shields", "change_speed"},
      R"({"do": "initiative", "drops": [{"subject": "enterprise", "hits": 0}, {"subject": "tderet", "hits": 5}]})");
  EXPECT_EQ(h.state().phase.to_act.front(), "tderet");
  EXPECT_EQ(h.state().drops.rng, before) << "no virtual drop was needed";
}

TEST(VirtualDrops, SeedSurvivesTheJsonRoundTrip) {
  GameState s;
  s.drops = {DropMode::virtual_drops, 0xfedcba9876543210ULL, 0x8000000000000001ULL, 12};
  nlohmann::json j = state_to_json(s);
  GameState back = state_from_json(io::JsonCursor(j, "x"));
  EXPECT_EQ(back.drops.seed, s.drops.seed);
  EXPECT_EQ(back.drops.rng, s.drops.rng);
  EXPECT_EQ(back.drops.made, 12);
}

// The log replays the game: the same script (setup, seed, actions) gives the same game, event for
// event, and a different seed gives a different one.
TEST(VirtualDrops, AVirtualGameReplaysIdenticallyFromItsSeed) {
  Script script = load_script(std::string(DISKREF_SOURCE_DIR) + "/data/scripts/virtual_skirmish.json");
  auto check = [](const GameState& state, const GameData& data) {
    for (const std::string& problem : state_problems(state, data)) ADD_FAILURE() << problem;
  };
  nlohmann::json first = play_result_to_json(run_script(script, check), std::nullopt);
  nlohmann::json second = play_result_to_json(run_script(script), std::nullopt);
  EXPECT_EQ(first, second);
  EXPECT_EQ(first["refused"], 1) << "the one deliberate refusal of the script";
  EXPECT_GT(first["final_state"]["drops"]["made"].get<int>(), 3);
  script.initial.drops.rng = rng_state_from_seed(2025);
  nlohmann::json other = play_result_to_json(run_script(script), std::nullopt);
  EXPECT_NE(first["final_state"]["drops"]["rng"], other["final_state"]["drops"]["rng"]);
}

}  // namespace
}  // namespace diskref::rules::testing
