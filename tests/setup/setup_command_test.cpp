// The setup's commands as a user runs them without a screen: `diskref plan` (the table of cameras
// and heights in docs/guide/first-table.md), `diskref setup kit`, `setup status` and the next
// command each says, the steps refused in the wrong order, and bad input named with exit status 2.
// (The camera steps run on rendered tables in the library's tests and, end to end, in the
// screen's.)

#include <regex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/calibration/command_runner.h"

namespace diskref {
namespace {

using testing::CommandRun;
using SetupCommand = testing::CommandTest;

std::string game() {
  return std::string(DISKREF_SOURCE_DIR) + "/sample_videos/skirmish/game.json";
}

TEST_F(SetupCommand, PlanPrintsTheReadmeTableOneRowPerCameraAndHeight) {
  const CommandRun r =
      run("plan --camera-resolution 1920x1080 --camera-resolution 3840x2160 --camera-fov 70 --camera-height 600 "
          "--camera-height 900 --camera-height 1200 --disks " +
          std::string(DISKREF_SOURCE_DIR) + "/sample_videos/scenarios/disks-small-torpedoes.json --markdown");
  ASSERT_EQ(r.status, 0) << r.err;
  const std::regex row(
      R"(\| (1920x1080|3840x2160), 70° \| (60|90|120) cm \| [0-9.]+ \| [0-9.]+ mm \| [^|]+ \| [^|]+ \|)");
  int rows = 0;
  std::istringstream lines(r.out);
  for (std::string l; std::getline(lines, l);) rows += std::regex_match(l, row);
  EXPECT_EQ(rows, 6) << r.out;
  // 1080p from 1.2 m cannot read the 9.5 mm torpedo tags; 4K can.
  EXPECT_NE(r.out.find("| 1920x1080, 70° | 120 cm | 0.88 | 10.9 mm | play area, not every marker | torpedo 9.5 mm |"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("| 3840x2160, 70° | 120 cm | 0.44 | 5.5 mm | play area, not every marker | none |"),
            std::string::npos)
      << r.out;
}

TEST_F(SetupCommand, PlanSaysWhatToChangeForOneCamera) {
  const CommandRun r = run("plan --camera-resolution 1920x1080 --camera-fov 70 --camera-height 1000");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("0.729 mm per pixel at its centre"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("problem: the play area (914.4 x 914.4 mm) is not all in the picture\n  fix: raise the camera "
                       "to at least 1389 mm"),
            std::string::npos)
      << r.out;
  const CommandRun bad = run("plan --camera-resolution 1920x --camera-fov 70 --camera-height 1000");
  EXPECT_EQ(bad.status, 2);
  EXPECT_NE(bad.err.find("--camera-resolution: expected WIDTHxHEIGHT"), std::string::npos) << bad.err;
  EXPECT_EQ(run("plan --camera-fov 70").status, 2);
}

TEST_F(SetupCommand, KitThenStatusThenStepsInOrder) {
  const std::string dir = path("mytable");
  CommandRun r = run("setup kit " + dir + " --game " + game() +
                     " --play-area 600x500 --camera-resolution 1920x1080 --camera-fov 70 "
                     "--camera-height 950");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find("wrote " + dir + "/table.json, " + dir + "/disks.json and " + dir + "/kit.pdf"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("next: diskref setup calibrate " + dir), std::string::npos) << r.out;
  r = run("setup status " + dir);
  ASSERT_EQ(r.status, 0);
  EXPECT_NE(r.out.find("Kit          done: 9 disks, corner markers of 40 mm, 7 pages printed"), std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find("Calibration  not done"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("next: diskref setup calibrate " + dir), std::string::npos) << r.out;
  // The disks step before the table's: refused, saying what comes next.
  r = run("setup disks " + dir + " " + std::string(DISKREF_SOURCE_DIR) + "/sample_videos/duel/video.mp4");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("the Table step is not done yet"), std::string::npos) << r.err;
  // Another game into the same folder.
  r = run("setup kit " + dir + " --game " + std::string(DISKREF_SOURCE_DIR) + "/sample_videos/skirmish/inputs.jsonl");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("this setup is for"), std::string::npos) << r.err;
}

TEST_F(SetupCommand, BadInputIsNamed) {
  struct Case {
    std::string arguments, message;
  };
  const Case cases[] = {
      {"setup kit " + path("a"), "no setup here yet: start one with the game file (--game GAME.json)"},
      {"setup kit " + path("b") + " --game " + path("missing.json"), "missing.json: game file not found"},
      {"setup kit " + path("c") + " --game " + game() + " --play-area 5x5", "--play-area: expected WIDTHxHEIGHT in mm"},
      {"setup kit " + path("d") + " --game " + game() + " --camera-fov 70", "give all three"},
      {"setup kit " + path("e") + " --game " + game() + " --board charuco:7x5:30:40",
       "--board: a ChArUco marker must be > 0 and smaller than the square"},
      {"setup status " + path("f"), "no setup here yet"},
  };
  for (const Case& c : cases) {
    const CommandRun r = run(c.arguments);
    EXPECT_EQ(r.status, 2) << c.arguments << "\n" << r.err;
    EXPECT_NE(r.err.find(c.message), std::string::npos) << c.arguments << "\n" << r.err;
  }
}

// Help where it is needed: `diskref --help` and every subcommand's (the setup's steps too) end with
// an example.
TEST_F(SetupCommand, EveryHelpGivesAnExample) {
  const CommandRun top = run("--help");
  ASSERT_EQ(top.status, 0);
  EXPECT_NE(top.out.find("Examples:\n  diskref ui "), std::string::npos) << top.out;
  EXPECT_NE(top.out.find("diskref ui --setup mytable --game game.json --camera 0"), std::string::npos) << top.out;
  // The subcommands, as diskref lists them when given none.
  const CommandRun none = run("");
  const auto at = none.err.find("subcommands: ");
  ASSERT_NE(at, std::string::npos) << none.err;
  std::string list = none.err.substr(at + 13, none.err.find(" (diskref --help", at) - at - 13);
  std::vector<std::string> subs;
  for (std::size_t from = 0; from < list.size();) {
    const std::size_t comma = list.find(", ", from);
    subs.push_back(list.substr(from, comma == std::string::npos ? std::string::npos : comma - from));
    from = comma == std::string::npos ? list.size() : comma + 2;
  }
  EXPECT_GE(subs.size(), 12u) << list;
  for (const char* step : {"setup kit", "setup calibrate", "setup table", "setup disks", "setup status"})
    subs.push_back(step);
  for (const std::string& sub : subs) {
    const CommandRun r = run(sub + " --help");
    EXPECT_EQ(r.status, 0) << sub;
    EXPECT_NE(r.out.find("Example"), std::string::npos) << sub << ":\n" << r.out;
    EXPECT_NE(r.out.find("diskref " + sub.substr(0, sub.find(' '))), std::string::npos) << sub << ":\n" << r.out;
  }
}

}  // namespace
}  // namespace diskref
