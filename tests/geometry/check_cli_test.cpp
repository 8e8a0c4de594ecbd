// `build/diskref check` end to end: the spec example file gives the spec's numbers on stdout
// with exit status 0; a broken scene gives exit status 2 and a message naming the file and path.

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <nlohmann/json.hpp>

namespace {

struct CommandResult {
  int status = -1;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream in(p);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// `diskref ARGS` (ARGS as a shell would split them).
CommandResult run_diskref(const std::string& args) {
  auto dir = std::filesystem::temp_directory_path() / ("diskref-check-test-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  std::string command = std::string(DISKREF_BINARY_DIR) + "/diskref " + args + " > '" + (dir / "out").string() +
                        "' 2> '" + (dir / "err").string() + "'";
  CommandResult r;
  int raw = std::system(command.c_str());
  r.status = WIFEXITED(raw) ? WEXITSTATUS(raw) : -1;
  r.out = slurp(dir / "out");
  r.err = slurp(dir / "err");
  std::filesystem::remove_all(dir);
  return r;
}

CommandResult run_check(const std::string& scene) {
  return run_diskref("check '" + scene + "'");
}

TEST(CheckCommand, SpecExampleScene) {
  CommandResult r = run_check(std::string(DISKREF_SOURCE_DIR) + "/data/scenes/spec-example.json");
  ASSERT_EQ(r.status, 0) << r.err;
  EXPECT_NE(r.out.find(R"({"id": "q1", "in_range": true, "gap_mm": 69.65, "reach_mm": 92.46, "margin_mm": 22.81)"),
            std::string::npos)
      << r.out;
  EXPECT_NE(r.out.find(R"({"id": "q2", "overlap": false, "separation_mm": 69.65)"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find(R"("landings": [{"x": 100, "y": 257.2, "heading": 90}, {"x": 100, "y": 314.4, "heading": 90}, )"
                       R"({"x": 100, "y": 371.6, "heading": 90}], "torpedo_contacts": [], "end_overlaps": ["tderet"], )"
                       R"("leaves_play_area": false)"),
            std::string::npos)
      << r.out;
}

TEST(CheckCommand, BrokenSceneNamesFileAndPath) {
  auto file = std::filesystem::temp_directory_path() / ("diskref-bad-scene-" + std::to_string(::getpid()) + ".json");
  std::ofstream(file) << R"({"disks": [
    {"name": "a", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 60}, "x": 0, "y": 0, "heading": 0},
    {"name": "b", "kind": "ship", "shape": {"type": "circle", "diameter_mm": 60}, "x": 0, "y": 0, "heading": 0},
    {"name": "c", "kind": "ship", "shape": {"type": "flatted_circle", "diameter_mm": 60, "flat_to_flat_mm": 70},
     "x": 0, "y": 0, "heading": 0}], "questions": []})";
  CommandResult r = run_check(file.string());
  std::filesystem::remove(file);
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find(file.string()), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("disks[2].shape.flat_to_flat_mm"), std::string::npos) << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(CheckCommand, MissingFile) {
  CommandResult r = run_check("/nonexistent/scene.json");
  EXPECT_EQ(r.status, 2);
  EXPECT_NE(r.err.find("/nonexistent/scene.json"), std::string::npos) << r.err;
}

// Command-line mistakes are bad input like bad files: status 2 and the reason, whatever the
// parser's own code; asking for help is not a mistake.
TEST(CheckCommand, CommandLineMistakesExitWithStatus2) {
  CommandResult missing = run_diskref("check");
  EXPECT_EQ(missing.status, 2);
  EXPECT_NE(missing.err.find("scene"), std::string::npos) << missing.err;
  CommandResult unknown = run_diskref("check --no-such-option x.json");
  EXPECT_EQ(unknown.status, 2);
  EXPECT_NE(unknown.err.find("--no-such-option"), std::string::npos) << unknown.err;
  EXPECT_EQ(run_diskref("no-such-command").status, 2);
  CommandResult help = run_diskref("--help");
  EXPECT_EQ(help.status, 0);
  EXPECT_NE(help.out.find("check"), std::string::npos);
}

}  // namespace
