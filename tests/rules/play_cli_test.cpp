// `diskref play` end to end: the example scripts and bad scripts, through the real program.

#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

namespace {

struct CliRun {
  int status = -1;
  std::string out;
  std::string err;
};

CliRun play(const std::string& args) {
  // One file per test process: CTest runs these tests in parallel processes.
  const std::string err_file =
      (std::filesystem::temp_directory_path() / ("diskref_play_cli_test." + std::to_string(::getpid()) + ".err"))
          .string();
  const std::string command = std::string(DISKREF_BINARY_DIR) + "/diskref play " + args + " 2>" + err_file;
  CliRun run;
  FILE* pipe = popen(command.c_str(), "r");
  if (pipe == nullptr) return run;
  std::array<char, 4096> buffer{};
  for (std::size_t n; (n = std::fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) run.out.append(buffer.data(), n);
  int raw = pclose(pipe);
  run.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  std::ifstream err(err_file);
  std::ostringstream text;
  text << err.rdbuf();
  run.err = text.str();
  std::filesystem::remove(err_file);
  return run;
}

const std::string kScripts = std::string(DISKREF_SOURCE_DIR) + "/data/scripts/";
const std::string kBad = std::string(DISKREF_SOURCE_DIR) + "/tests/rules/bad_scripts/";

TEST(PlayCli, TheDuelPrintsItsLogAndFinalStateAsJson) {
  CliRun r = play(kScripts + "diana_owen_duel.json");
  ASSERT_EQ(r.status, 0) << r.err;
  nlohmann::json out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out["refused"], 0);
  EXPECT_EQ(out["final_state"]["step"], "game_over");
  EXPECT_EQ(out["final_state"]["winner"], "federation");
  EXPECT_EQ(out["log"].size(), 33u);
  bool bridge = false;
  for (const auto& entry : out["log"])
    for (const auto& e : entry.value("events", nlohmann::json::array()))
      bridge = bridge || (e["event"] == "critical" && e["crit"] == "bridge");
  EXPECT_TRUE(bridge);
}

TEST(PlayCli, EveryExampleScriptRuns) {
  for (const char* name :
       {"charles_picard.json", "boarding_christian_julie_matt.json", "virtual_skirmish.json", "registry_shapes.json"}) {
    CliRun r = play(kScripts + name);
    EXPECT_EQ(r.status, 0) << name << ": " << r.err;
    EXPECT_TRUE(nlohmann::json::accept(r.out)) << name;
    EXPECT_TRUE(nlohmann::json::parse(r.out).contains("final_state")) << name;
  }
}

TEST(PlayCli, ARefusedActionIsLoggedAndTheGameGoesOn) {
  CliRun r = play(kScripts + "charles_picard.json");
  ASSERT_EQ(r.status, 0);
  nlohmann::json out = nlohmann::json::parse(r.out);
  EXPECT_EQ(out["refused"], 1);
  EXPECT_EQ(out["log"][6]["refused"]["kind"], "order_not_available");
  EXPECT_TRUE(out["log"][8].contains("events")) << "the actions after the refusal still apply";
  EXPECT_NE(r.err.find("1 action(s) refused"), std::string::npos);
  EXPECT_EQ(play("--strict " + kScripts + "charles_picard.json").status, 1);
}

TEST(PlayCli, TextLogAndPlayerView) {
  CliRun text = play("--text " + kScripts + "diana_owen_duel.json");
  ASSERT_EQ(text.status, 0);
  EXPECT_NE(text.out.find("tderet takes 2 damage from beam from enterprise: shields 7 -> 5"), std::string::npos);
  EXPECT_NE(text.out.find("winner: federation"), std::string::npos);
  CliRun owen = play("--as owen " + kScripts + "diana_owen_duel.json");
  ASSERT_EQ(owen.status, 0) << owen.err;
  nlohmann::json seen = nlohmann::json::parse(owen.out);
  EXPECT_EQ(seen["log"][2]["action"]["orders"], "hidden") << "Diana's orders, placed face down";
  EXPECT_TRUE(seen["log"][3]["action"]["orders"].is_array()) << "Owen's own orders";
  EXPECT_EQ(seen["final_state"]["viewer"], "owen");
  CliRun view = play("--as owen " + kScripts + "charles_picard.json");
  EXPECT_EQ(view.status, 2);
  EXPECT_NE(view.err.find("no player \"owen\""), std::string::npos);
}

TEST(PlayCli, BadScriptsExitTwoNamingFilePlaceAndProblem) {
  CliRun action = play(kBad + "unknown_action.json");
  EXPECT_EQ(action.status, 2);
  EXPECT_NE(action.err.find("diskref play: " + kBad + "unknown_action.json: actions[1].do: \"warp\" is not an action"),
            std::string::npos)
      << action.err;
  CliRun data = play(kBad + "bad_data_file.json");
  EXPECT_EQ(data.status, 2);
  EXPECT_NE(data.err.find("bad_data/ships.json: ships[0].hull: must be an integer between 1 and 100 (got -1)"),
            std::string::npos)
      << data.err;
  CliRun broken = play(kBad + "broken.json");
  EXPECT_EQ(broken.status, 2);
  EXPECT_NE(broken.err.find("broken.json: is not valid JSON"), std::string::npos) << broken.err;
  EXPECT_TRUE(action.out.empty()) << "nothing on stdout for a bad script";
}

}  // namespace
