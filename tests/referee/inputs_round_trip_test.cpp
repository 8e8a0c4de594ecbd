// Every sample game's inputs, rewritten in the other style spec §9 allows, referee to the same
// books and the same rulings: the drops an entered action took (from `drops` lines, or read from
// the counters on the table) given on the action's own line instead, and back again as `drops`
// lines of their own. `diskref referee` from each sample's ground truth (`--tracks`): seconds, no
// rendering.
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/calibration/command_runner.h"

namespace diskref::testing {
namespace {

namespace fs = std::filesystem;

std::vector<fs::path> sample_games() {
  std::vector<fs::path> out;
  for (const auto& d : fs::directory_iterator(fs::path(DISKREF_SOURCE_DIR) / "sample_videos"))
    if (fs::exists(d.path() / "inputs.jsonl") && fs::exists(d.path() / "truth.jsonl")) out.push_back(d.path());
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<nlohmann::json> read_lines(const fs::path& file) {
  std::vector<nlohmann::json> out;
  std::ifstream in(file);
  for (std::string line; std::getline(in, line);)
    if (line.find_first_not_of(" \t\r") != std::string::npos) out.push_back(nlohmann::json::parse(line));
  return out;
}

void write_lines(const fs::path& file, const std::vector<nlohmann::json>& lines) {
  std::ofstream out(file);
  for (const auto& l : lines) out << l.dump() << "\n";
}

bool is_entered_action(const nlohmann::json& line) {
  static const std::set<std::string> own = {"drops", "counter", "decide", "choose", "leave_in_place", "correct"};
  return !own.count(line.at("do").get<std::string>());
}

// The entries whose first input is an entered action that took drops: (that input, the entry).
std::vector<std::pair<std::size_t, nlohmann::json>> actions_with_drops(const std::vector<nlohmann::json>& lines,
                                                                       const nlohmann::json& log) {
  std::vector<std::pair<std::size_t, nlohmann::json>> out;
  for (const auto& e : log.at("log")) {
    if (!e.contains("action") || !e.contains("inputs") || e.contains("refused")) continue;
    const std::size_t first = e.at("inputs").at(0);
    if (is_entered_action(lines.at(first)) && !e.at("action").value("drops", nlohmann::json::array()).empty())
      out.emplace_back(first, e);
  }
  return out;
}

// Drops on the action: each entered action carries every drop it took; the `drops` and `counter`
// lines it took them from go.
std::vector<nlohmann::json> drops_on_the_action(const std::vector<nlohmann::json>& lines, const nlohmann::json& log) {
  std::vector<nlohmann::json> out = lines;
  std::set<std::size_t> gone;
  for (const auto& [first, e] : actions_with_drops(lines, log)) {
    out[first]["drops"] = e.at("action").at("drops");
    for (std::size_t k : e.at("inputs").get<std::vector<std::size_t>>())
      if (k != first && (lines.at(k).at("do") == "drops" || lines.at(k).at("do") == "counter")) gone.insert(k);
  }
  std::vector<nlohmann::json> kept;
  for (std::size_t i = 0; i < out.size(); ++i)
    if (!gone.count(i)) kept.push_back(out[i]);
  return kept;
}

// Drops as their own lines: off the action, onto a `drops` line at the moment its entry was made
// (when the table had shown what the action waited for), in time order.
std::vector<nlohmann::json> drops_as_lines(const std::vector<nlohmann::json>& lines, const nlohmann::json& log) {
  std::vector<nlohmann::json> out = lines;
  for (const auto& [first, e] : actions_with_drops(lines, log)) {
    if (!lines.at(first).contains("drops")) continue;
    out[first].erase("drops");
    out.push_back({{"t", e.at("t")}, {"do", "drops"}, {"drops", e.at("action").at("drops")}});
  }
  std::stable_sort(out.begin(), out.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a.at("t").get<double>() < b.at("t").get<double>();
  });
  return out;
}

// The rulings of a log: every action entry and warning, without when it was made, which inputs it
// took and how its drops were read (what differs between the styles by design).
std::vector<nlohmann::json> rulings(const nlohmann::json& log) {
  std::vector<nlohmann::json> out;
  for (nlohmann::json e : log.at("log")) {
    if (e.contains("waiting") || e.contains("correction") || e.contains("setup")) continue;
    for (const char* k : {"t", "inputs", "reading", "drops_read"}) e.erase(k);
    out.push_back(e);
  }
  return out;
}

// "(the wait said in the log at 9.50 s)"
std::string fmt_s(double t) {
  char text[64];
  std::snprintf(text, sizeof text, "(the wait said in the log at %.2f s)", t);
  return text;
}

class InputsRoundTrip : public CommandTest {
 protected:
  nlohmann::json referee(const fs::path& game, const fs::path& inputs, const std::string& name) {
    CommandRun r =
        run("referee --tracks " + (game / "truth.jsonl").string() + " --table " + (game / "table.json").string() +
            " --disks " + (game / "disks.json").string() + " --game " + (game / "game.json").string() + " --inputs " +
            inputs.string() + " --out " + path(name) + " --quiet");
    EXPECT_EQ(r.status, 0) << game << " " << name << ": " << r.err;
    return nlohmann::json::parse(slurp(path(name)));
  }
};

TEST_F(InputsRoundTrip, EverySampleGameRefereesTheSameWithItsDropsOnTheActionOrOnLinesOfTheirOwn) {
  const std::vector<fs::path> games = sample_games();
  ASSERT_GE(games.size(), 2u) << "the skirmish and the drops samples at least";
  for (const fs::path& game : games) {
    SCOPED_TRACE(game.filename().string());
    const std::vector<nlohmann::json> given = read_lines(game / "inputs.jsonl");
    const nlohmann::json as_given = referee(game, game / "inputs.jsonl", "given.json");

    const std::vector<nlohmann::json> on_action = drops_on_the_action(given, as_given);
    std::size_t carried = 0;
    for (const auto& l : on_action) carried += is_entered_action(l) && l.contains("drops");
    EXPECT_GT(carried, 0u) << "every sample has an entered action that takes drops";
    write_lines(path("on_action.jsonl"), on_action);
    const nlohmann::json carried_log = referee(game, path("on_action.jsonl"), "on_action.json");

    const std::vector<nlohmann::json> as_lines = drops_as_lines(on_action, carried_log);
    for (const auto& l : as_lines) EXPECT_FALSE(is_entered_action(l) && l.contains("drops")) << l.dump();
    write_lines(path("as_lines.jsonl"), as_lines);
    const nlohmann::json lines_log = referee(game, path("as_lines.jsonl"), "as_lines.json");

    for (const nlohmann::json* other : {&carried_log, &lines_log}) {
      EXPECT_EQ((*other)["final_state"], as_given["final_state"]);
      EXPECT_EQ((*other)["refused"], as_given["refused"]);
      EXPECT_EQ((*other).value("waiting", nlohmann::json()), as_given.value("waiting", nlohmann::json()));
      const std::vector<nlohmann::json> mine = rulings(*other), theirs = rulings(as_given);
      ASSERT_EQ(mine.size(), theirs.size());
      for (std::size_t i = 0; i < mine.size(); ++i) EXPECT_EQ(mine[i], theirs[i]) << i;
    }
    // Drops given on their actions leave only the drops of what the table shows (a move's
    // collision check) to wait for.
    for (const auto& e : carried_log.at("log")) {
      if (e.contains("waiting") && e["waiting"]["for"] == "drops") {
        EXPECT_FALSE(e.contains("inputs")) << e.dump();
      }
    }
  }
}

// The game, on the skirmish: the beam's drops given late, after the enterprise has moved on
// the table. The wait is in the log (and so in a replay of the recording, and in the report) from
// the moment the attack began waiting; the enterprise's motion meanwhile is its move, never out of
// turn; the books end as when the drops came in time.
TEST_F(InputsRoundTrip, DropsGivenLateStallTheGameVisiblyAndTheMoveMadeMeanwhileIsStillAMove) {
  const fs::path game = fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
  const std::vector<nlohmann::json> given = read_lines(game / "inputs.jsonl");
  const nlohmann::json in_time = referee(game, game / "inputs.jsonl", "given.json");
  // The beam's drops line, and when the enterprise's next move (the one into the tderet) was read:
  // the wait for its collision check.
  std::size_t beam_drops = given.size();
  double beam_t = 0;
  for (const auto& e : in_time.at("log"))
    if (e.contains("action") && e["action"].contains("attack") && e["action"]["attack"] == "beam") {
      beam_drops = e.at("inputs").at(1);
      beam_t = given.at(e.at("inputs").at(0).get<std::size_t>()).at("t");
    }
  ASSERT_LT(beam_drops, given.size());
  double moved_t = 0;
  for (const auto& e : in_time.at("log"))
    if (e.contains("waiting") && e["waiting"].contains("drop") && e["waiting"]["drop"]["purpose"] == "collision")
      moved_t = e.at("t");
  ASSERT_GT(moved_t, given[beam_drops].at("t").get<double>()) << "the move is read after the beam's drops were due";
  std::vector<nlohmann::json> late = given;
  late[beam_drops]["t"] = moved_t;  // given as the table settled after the move, before its collision check
  // Owen, meanwhile, reveals his order too early: refused, naming the wait.
  late.push_back({{"t", beam_t + 0.1}, {"do", "reveal_order"}, {"player", "owen"}, {"ship", "tderet"}});
  std::stable_sort(late.begin(), late.end(), [](const nlohmann::json& a, const nlohmann::json& b) {
    return a.at("t").get<double>() < b.at("t").get<double>();
  });
  write_lines(path("late.jsonl"), late);
  CommandRun r =
      run("referee --tracks " + (game / "truth.jsonl").string() + " --table " + (game / "table.json").string() +
          " --disks " + (game / "disks.json").string() + " --game " + (game / "game.json").string() + " --inputs " +
          path("late.jsonl") + " --out " + path("late.json") + " --record " + path("rec") + " --story --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json log = nlohmann::json::parse(slurp(path("late.json")));
  EXPECT_EQ(log["final_state"], in_time["final_state"]);
  EXPECT_EQ(log["refused"], 1);
  std::size_t reveal_line = 0;
  for (std::size_t i = 0; i < late.size(); ++i)
    if (late[i].at("do") == "reveal_order" && late[i].at("t").get<double>() == beam_t + 0.1) reveal_line = i + 1;
  std::string refusal;
  for (const auto& e : log.at("log"))
    if (e.contains("refused"))
      refusal = e["refused"]["kind"].get<std::string>() + ": " + e["refused"]["reason"].get<std::string>();
  EXPECT_EQ(refusal.rfind("wrong_step: " + path("late.jsonl") + ": line " + std::to_string(reveal_line) +
                              ": waiting for drops: needs a damage drop for tderet",
                          0),
            0u)
      << refusal;
  EXPECT_NE(refusal.find(fmt_s(beam_t)), std::string::npos) << refusal;
  for (const auto& e : log.at("log")) {
    if (e.contains("warning")) {
      EXPECT_NE(e["warning"]["kind"], "out_of_turn") << e.dump();
    }
  }
  const nlohmann::json* wait = nullptr;
  for (const auto& e : log.at("log"))
    if (!wait && e.contains("waiting") && e["waiting"].contains("drop") && e["waiting"]["drop"]["purpose"] == "damage")
      wait = &e;
  ASSERT_NE(wait, nullptr) << "the stall is in the log";
  EXPECT_NEAR(wait->at("t").get<double>(), beam_t, 1e-6) << "from the moment the beam began waiting";
  EXPECT_EQ(wait->at("waiting").at("disk"), "enterprise");
  EXPECT_NE(r.out.find("WAITING for the referee: drops: needs a damage drop for tderet"), std::string::npos) << r.out;

  // The recording replayed (--session) says the same, entry for entry.
  r = run("referee --session " + path("rec") + " --out " + path("again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(path("again.json")))["log"], log["log"]);
  // The report shows the stall where it began.
  r = run("report " + path("rec") + " --out " + path("report.html") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = slurp(path("report.html"));
  EXPECT_NE(page.find("<section class=\"ruling waiting\""), std::string::npos);
  EXPECT_NE(page.find("WAITING for the referee: drops: needs a damage drop for tderet"), std::string::npos);
}

}  // namespace
}  // namespace diskref::testing
