// `diskref referee` as a user runs it (spec §9), on the bundled skirmish sample: from its ground
// truth (the tracks a perfect tracker would give), and from its video through the tracker, with
// the same game and inputs. The game's expected course is the sample's story (docs/guide/refereeing.md,
// "The sample game"): every move read with its flips, the beam in range, the collision and where the
// enterprise is put down, the torpedo launched into it, the Full Stop, turn 2.
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/calibration/command_runner.h"

namespace diskref::testing {
namespace {

namespace fs = std::filesystem;

fs::path sample() {
  return fs::path(DISKREF_SOURCE_DIR) / "sample_videos" / "skirmish";
}

std::string files(const fs::path& s = sample()) {
  return "--table " + (s / "table.json").string() + " --disks " + (s / "disks.json").string() + " --game " +
         (s / "game.json").string() + " --inputs " + (s / "inputs.jsonl").string();
}

nlohmann::json read(const std::string& file) {
  return nlohmann::json::parse(slurp(file));
}

// The table-read entries of a log: what was read, by whom, and its flips.
struct Reading {
  std::string what;  // "move enterprise", "execute tderet"
  double t = 0;
  std::size_t flips = 0;
  nlohmann::json end;
  nlohmann::json verdicts;
};
std::vector<Reading> readings(const nlohmann::json& log) {
  std::vector<Reading> out;
  for (const auto& e : log["log"]) {
    if (!e.contains("observed") || !e.contains("action")) continue;
    Reading r;
    r.what = e["action"]["do"].get<std::string>() + " " + e["action"].value("ship", e["action"].value("disk", ""));
    r.t = e["t"];
    r.flips = e["observed"].contains("landings") ? e["observed"]["landings"].size() : 0;
    if (e["observed"].contains("end")) r.end = e["observed"]["end"];
    r.verdicts = e["observed"]["verdicts"];
    out.push_back(r);
  }
  return out;
}

const nlohmann::json& ship(const nlohmann::json& log, const std::string& id) {
  for (const auto& s : log["final_state"]["ships"])
    if (s["id"] == id) return s;
  throw std::runtime_error("no ship " + id);
}

class RefereeCommand : public CommandTest {};

TEST_F(RefereeCommand, TheSampleGameFromItsTruthFollowsTheStory) {
  CommandRun r = run("referee --tracks " + (sample() / "truth.jsonl").string() + " " + files() + " --out " +
                     path("log.json") + " --script-out " + path("script.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json log = read(path("log.json"));
  EXPECT_EQ(log["refused"], 0);
  EXPECT_FALSE(log.contains("waiting")) << log["waiting"].dump();
  for (const auto& e : log["log"]) EXPECT_FALSE(e.contains("warning")) << e.dump();
  std::vector<Reading> read = readings(log);
  std::vector<std::pair<std::string, std::size_t>> expected = {
      {"execute enterprise", 0},  // the Change Heading, turned in place
      {"move enterprise", 2},    {"move tderet", 3},     {"execute enterprise", 0},  // the beam's range
      {"move enterprise", 2},    {"execute tderet", 2},                              // into the tderet; the torpedo
      {"move tderet", 3},        {"move enterprise", 0},                             // ...; Full Stop
      {"move tderet", 3}};
  ASSERT_EQ(read.size(), expected.size());
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(read[i].what, expected[i].first) << i;
    EXPECT_EQ(read[i].flips, expected[i].second) << read[i].what << " at " << read[i].t;
  }
  // The beam in range; the collision; the torpedo's contact.
  EXPECT_EQ(read[3].verdicts[0]["kind"], "range");
  EXPECT_EQ(read[3].verdicts[0]["call"], "yes");
  bool collided = false, struck = false;
  for (const auto& v : read[4].verdicts) collided = collided || (v["kind"] == "overlap" && v["call"] == "yes");
  for (const auto& v : read[5].verdicts)
    struck = struck || (v["kind"] == "torpedo_contact" && v["with"] == "enterprise" && v["call"] == "yes");
  EXPECT_TRUE(collided);
  EXPECT_TRUE(struck);
  // The books: the enterprise hit by the collision (hull) and the torpedo (shields), stopped; the
  // tderet's shields raised again; turn 2 begins.
  EXPECT_EQ(ship(log, "enterprise")["hull"], 6);
  EXPECT_EQ(ship(log, "enterprise")["shields"], 5);
  EXPECT_EQ(ship(log, "enterprise")["speed"], 0);
  EXPECT_EQ(ship(log, "tderet")["shields"], 7);
  EXPECT_EQ(log["final_state"]["turn"], 2);

  // The game as a play script replays to the same final state.
  CommandRun played = run("play " + path("script.json"));
  ASSERT_EQ(played.status, 0) << played.err;
  nlohmann::json play = nlohmann::json::parse(played.out);
  EXPECT_EQ(play["final_state"], log["final_state"]);
}

// --story: the log an entry a line, in time order, as a person reads it.
TEST_F(RefereeCommand, TheStoryIsTheLogALineAnEntry) {
  CommandRun r = run("referee --tracks " + (sample() / "truth.jsonl").string() + " " + files() + " --out " +
                     path("log.json") + " --story --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json log = read(path("log.json"));
  std::vector<std::string> lines;
  for (std::size_t at = 0, next; at < r.out.size(); at = next + 1) {
    next = r.out.find('\n', at);
    if (next == std::string::npos) next = r.out.size();
    lines.push_back(r.out.substr(at, next - at));
  }
  ASSERT_EQ(lines.size(), log["log"].size());
  EXPECT_NE(lines[0].find("the table as the game begins: enterprise at (260.0, 380.0) mm"), std::string::npos)
      << lines[0];
  std::size_t flips = 0, contact = 0;
  for (std::size_t i = 0; i < lines.size(); ++i) {
    EXPECT_NE(lines[i].find(" s  "), std::string::npos) << lines[i];
    if (lines[i].find("enterprise flips 2 times") != std::string::npos) ++flips;
    if (lines[i].find("torpedo-1 torpedo_contact enterprise at flip 2: yes (margin -3.") != std::string::npos)
      ++contact;
  }
  EXPECT_EQ(flips, 2u);
  EXPECT_EQ(contact, 1u);
}

// A video that ends mid-move (here its tracks, cut 0.6 s into the enterprise's first flips): the
// referee says what it still waited for, and the books keep the ship where it was.
TEST_F(RefereeCommand, AVideoThatEndsMidMoveSaysWhatWasWaitedFor) {
  std::ifstream in(sample() / "truth.jsonl");
  std::ofstream cut(path("cut.jsonl"));
  for (std::string line; std::getline(in, line);) {
    if (nlohmann::json::parse(line)["t"].get<double>() > 4.2) break;
    cut << line << "\n";
  }
  cut.close();
  CommandRun r = run("referee --tracks " + path("cut.jsonl") + " " + files() + " --out " + path("log.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.err.find("still waiting: "), std::string::npos) << r.err;
  nlohmann::json log = read(path("log.json"));
  ASSERT_TRUE(log.contains("waiting"));
  EXPECT_NE(log["waiting"].dump().find("enterprise"), std::string::npos) << log["waiting"].dump();
  const nlohmann::json& enterprise = ship(log, "enterprise");
  EXPECT_NEAR(enterprise["pose"]["x"].get<double>(), 260.0, 1e-6);
  EXPECT_NEAR(enterprise["pose"]["y"].get<double>(), 380.0, 1e-6);
  for (const Reading& reading : readings(log)) EXPECT_NE(reading.what, "move enterprise");
}

// A camera gap (spec §9 "camera gaps"), made by taking frames out of the truth. Across the tderet's
// move, the move is read from the table after the gap and the game ends as without it; over the
// enterprise's whole move, the enterprise is found moved unseen, never a move. The gap is said
// once, in the log, the story, a replay of the recording and the report.
TEST_F(RefereeCommand, ACameraGapIsSaidOnceAndTheTableIsReadAgainAfterIt) {
  auto without_frames = [&](double from, double to, const std::string& name) {
    std::ifstream in(sample() / "truth.jsonl");
    std::ofstream out(path(name));
    for (std::string line; std::getline(in, line);) {
      const double t = nlohmann::json::parse(line)["t"].get<double>();
      if (t <= from || t >= to) out << line << "\n";
    }
  };
  auto warnings_of = [](const nlohmann::json& log, const std::string& kind) {
    std::vector<nlohmann::json> out;
    for (const auto& e : log["log"])
      if (e.contains("warning") && e["warning"]["kind"] == kind) out.push_back(e);
    return out;
  };
  CommandRun r =
      run("referee --tracks " + (sample() / "truth.jsonl").string() + " " + files() + " --out " + path("whole.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json whole = read(path("whole.json"));

  without_frames(6.3, 7.6, "across.jsonl");
  r = run("referee --tracks " + path("across.jsonl") + " " + files() + " --out " + path("across.json") + " --record " +
          path("rec") + " --story --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json across = read(path("across.json"));
  EXPECT_EQ(across["final_state"], whole["final_state"]);
  ASSERT_EQ(warnings_of(across, "camera_gap").size(), 1u);
  EXPECT_TRUE(warnings_of(across, "moved_unseen").empty());
  const nlohmann::json gap = warnings_of(across, "camera_gap")[0]["warning"];
  EXPECT_NEAR(gap["from"].get<double>(), 6.3, 1e-3);
  EXPECT_NEAR(gap["to"].get<double>(), 7.6, 1e-3);
  const std::vector<Reading> read_whole = readings(whole), read_across = readings(across);
  ASSERT_EQ(read_across.size(), read_whole.size());
  for (std::size_t i = 0; i < read_whole.size(); ++i) {
    EXPECT_EQ(read_across[i].what, read_whole[i].what);
    EXPECT_EQ(read_across[i].flips, read_whole[i].flips) << read_whole[i].what;
  }
  const std::string said = "WARNING camera_gap: no frame for 1.30 s (6.30 s to 7.60 s)";
  EXPECT_NE(r.out.find(said), std::string::npos) << r.out;
  r = run("referee --session " + path("rec") + " --out " + path("again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(path("again.json"))["log"], across["log"]);
  r = run("report " + path("rec") + " --out " + path("report.html") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::string page = slurp(path("report.html"));
  EXPECT_NE(page.find("<section class=\"ruling warning\""), std::string::npos);
  EXPECT_NE(page.find(said), std::string::npos);

  // A longer allowance (--camera-gap-s): 1.3 s without frames is no gap, and a replay of the
  // recording keeps the allowance it was made with.
  r = run("referee --tracks " + path("across.jsonl") + " " + files() + " --out " + path("lenient.json") +
          " --camera-gap-s 2 --record " + path("rec-lenient") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_TRUE(warnings_of(read(path("lenient.json")), "camera_gap").empty());
  r = run("referee --session " + path("rec-lenient") + " --out " + path("lenient-again.json") + " --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_EQ(read(path("lenient-again.json"))["log"], read(path("lenient.json"))["log"]);
  r = run("referee --tracks " + path("across.jsonl") + " " + files() + " --out " + path("x.json") +
          " --camera-gap-s 0");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("--camera-gap-s: must be between 0.1 and 3600 s"), std::string::npos) << r.err;

  without_frames(3.4, 5.3, "over.jsonl");
  r = run("referee --tracks " + path("over.jsonl") + " " + files() + " --out " + path("over.json") +
          " --story --quiet");
  ASSERT_EQ(r.status, 0) << r.err;
  const nlohmann::json over = read(path("over.json"));
  ASSERT_EQ(warnings_of(over, "moved_unseen").size(), 1u);
  const nlohmann::json unseen = warnings_of(over, "moved_unseen")[0];
  EXPECT_EQ(unseen["warning"]["disk"], "enterprise");
  ASSERT_EQ(unseen["warning"]["disks"].size(), 1u);
  bool displaced = false;
  for (const Reading& reading : readings(over)) {
    if (reading.t == unseen["t"].get<double>()) {
      EXPECT_NE(reading.what, "move enterprise") << "never a move";
    }
    displaced = displaced || (reading.what == "displaced enterprise" && reading.t == unseen["t"].get<double>());
  }
  EXPECT_TRUE(displaced) << "the books take where it was found";
  EXPECT_NE(r.out.find("WARNING moved_unseen: moved while the camera was away (3.40 s to 5.30 s): enterprise "),
            std::string::npos)
      << r.out;
}

TEST_F(RefereeCommand, BadInputIsNamedAndExitsTwo) {
  // A game file naming a disk the registry lacks.
  nlohmann::json game = read((sample() / "game.json").string());
  game["ships"][1]["id"] = "kobayashi";
  game["data"] = {(fs::path(DISKREF_SOURCE_DIR) / "data" / "rules").string()};
  std::ofstream(path("game.json")) << game.dump();
  std::string base = "referee --tracks " + (sample() / "truth.jsonl").string() + " --table " +
                     (sample() / "table.json").string() + " --disks " + (sample() / "disks.json").string() + " --out " +
                     path("log.json");
  CommandRun r = run(base + " --game " + path("game.json"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("kobayashi"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("game.json"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("log.json"))) << "nothing written for bad input";
  // Inputs out of time order, and a move entered by hand.
  std::ofstream(path("late.jsonl")) << "{\"t\": 5, \"do\": \"initiative\"}\n{\"t\": 2, \"do\": \"initiative\"}\n";
  r = run(base + " --game " + (sample() / "game.json").string() + " --inputs " + path("late.jsonl"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("late.jsonl: line 2"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("time order"), std::string::npos) << r.err;
  std::ofstream(path("move.jsonl"))
      << "{\"t\": 5, \"do\": \"move\", \"player\": \"diana\", \"ship\": \"enterprise\"}\n";
  r = run(base + " --game " + (sample() / "game.json").string() + " --inputs " + path("move.jsonl"));
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("read from the table"), std::string::npos) << r.err;
}

TEST_F(RefereeCommand, AnInputForAShipThatIsNotActingIsALoggedRefusal) {
  // The tderet's reveal given first, while the enterprise holds the option: refused, logged, the
  // game goes on to the same end.
  std::ifstream in(sample() / "inputs.jsonl");
  std::ofstream out(path("inputs.jsonl"));
  std::string line;
  int n = 0;
  while (std::getline(in, line)) {
    out << line << "\n";
    if (++n == 5)
      out << R"({"t": 1.2, "do": "reveal_order", "player": "owen", "ship": "tderet"})"
          << "\n";
  }
  out.close();
  fs::path s = sample();
  CommandRun r = run("referee --tracks " + (s / "truth.jsonl").string() + " --table " + (s / "table.json").string() +
                     " --disks " + (s / "disks.json").string() + " --game " + (s / "game.json").string() +
                     " --inputs " + path("inputs.jsonl") + " --out " + path("log.json"));
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json log = read(path("log.json"));
  EXPECT_EQ(log["refused"], 1);
  bool found = false;
  for (const auto& e : log["log"])
    if (e.contains("refused")) found = e["refused"]["kind"] == "not_your_option";
  EXPECT_TRUE(found);
  EXPECT_EQ(log["final_state"]["turn"], 2);
}

// The same game through the tracker: every move read with the same flips, its end within 1 mm of
// the truth's, the same calls, the same books.
TEST_F(RefereeCommand, TheSampleVideoThroughTheTrackerRulesAsItsTruthDoes) {
  fs::path s = sample();
  CommandRun truth =
      run("referee --tracks " + (s / "truth.jsonl").string() + " " + files() + " --out " + path("truth.json"));
  ASSERT_EQ(truth.status, 0) << truth.err;
  CommandRun video = run("referee " + (s / "video.mp4").string() + " --calib " + (s / "camera.json").string() + " " +
                         files() + " --out " + path("video.json") + " --quiet");
  ASSERT_EQ(video.status, 0) << video.err;
  nlohmann::json a = read(path("truth.json"));
  nlohmann::json b = read(path("video.json"));
  std::vector<Reading> ra = readings(a), rb = readings(b);
  ASSERT_EQ(ra.size(), rb.size());
  for (std::size_t i = 0; i < ra.size(); ++i) {
    EXPECT_EQ(ra[i].what, rb[i].what);
    EXPECT_EQ(ra[i].flips, rb[i].flips) << ra[i].what;
    if (!ra[i].end.is_null() && !rb[i].end.is_null()) {
      double d = std::hypot(ra[i].end["x"].get<double>() - rb[i].end["x"].get<double>(),
                            ra[i].end["y"].get<double>() - rb[i].end["y"].get<double>());
      EXPECT_LT(d, 1.0) << ra[i].what << " ends " << d << " mm from the truth";
    }
    std::map<std::string, std::string> calls;
    for (const auto& v : ra[i].verdicts) calls[v["kind"].get<std::string>() + v["with"].get<std::string>()] = v["call"];
    for (const auto& v : rb[i].verdicts) {
      auto it = calls.find(v["kind"].get<std::string>() + v["with"].get<std::string>());
      if (it == calls.end()) continue;
      if (std::fabs(v["margin_mm"].get<double>()) > 2 * v["sigma_mm"].get<double>()) {
        EXPECT_EQ(v["call"], it->second) << ra[i].what << " " << v.dump();
      }
    }
  }
  // The books agree but for where the disks lie (within a millimetre).
  nlohmann::json fa = a["final_state"], fb = b["final_state"];
  for (std::size_t i = 0; i < fa["ships"].size(); ++i) {
    for (const char* k : {"x", "y"})
      EXPECT_NEAR(fa["ships"][i]["pose"][k].get<double>(), fb["ships"][i]["pose"][k].get<double>(), 1.0);
    fa["ships"][i].erase("pose");
    fb["ships"][i].erase("pose");
  }
  EXPECT_EQ(fa, fb);
}

}  // namespace
}  // namespace diskref::testing
