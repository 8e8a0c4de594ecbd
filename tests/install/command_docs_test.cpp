// What the package installs beside the program, written by the program from its own command line:
// a man page per command that every subcommand and option of `--help` appears in and that mandoc
// finds nothing wrong with, a bash completion that completes subcommands, options and files, and a
// version that names the commit.
#include <set>
#include <sstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "tests/calibration/command_runner.h"

namespace diskref {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::MatchesRegex;

// The subcommands `diskref --help` lists (CLI11's "Subcommands:" block).
std::vector<std::string> listed_subcommands(const std::string& help) {
  std::vector<std::string> names;
  std::istringstream in(
      help.substr(help.find("Subcommands:") == std::string::npos ? help.size() : help.find("Subcommands:")));
  std::string line;
  std::getline(in, line);
  while (std::getline(in, line) && line.rfind("  ", 0) == 0) {
    std::istringstream words(line);
    std::string name;
    words >> name;
    names.push_back(name);
  }
  return names;
}

// The long options a --help text lists ("  --calib TEXT ...", "  -h,--help ...").
std::set<std::string> listed_options(const std::string& help) {
  std::set<std::string> options;
  std::istringstream in(help);
  for (std::string line; std::getline(in, line);) {
    const auto start = line.find_first_not_of(' ');
    if (start == std::string::npos || start < 2 || line[start] != '-') continue;
    for (auto at = line.find("--", start); at != std::string::npos && at < line.find("  ", start);
         at = line.find("--", at + 2)) {
      const auto end = line.find_first_of(" ,=", at);
      options.insert(line.substr(at, end - at));
    }
  }
  return options;
}

// A man page's text as a reader sees it: roff's \- is a hyphen.
std::string as_read(std::string page) {
  for (auto at = page.find("\\-"); at != std::string::npos; at = page.find("\\-", at)) page.erase(at, 1);
  return page;
}

// The options of `options` a page's text does not name.
std::vector<std::string> missing_options(const std::string& page_text, const std::set<std::string>& options) {
  std::vector<std::string> missing;
  for (const auto& o : options)
    if (page_text.find(o) == std::string::npos) missing.push_back(o);
  return missing;
}

class CommandDocs : public testing::CommandTest {};

TEST_F(CommandDocs, EverySubcommandAndOptionHasItsManPageAndMandocFindsNothingWrong) {
  ASSERT_EQ(run("--write-man-pages " + path("man")).status, 0);
  const testing::CommandRun help = run("--help");
  const auto subs = listed_subcommands(help.out);
  ASSERT_GE(subs.size(), 10u) << help.out;
  std::vector<std::pair<std::string, std::string>> commands{{"diskref", ""}};
  for (const auto& s : subs) commands.push_back({"diskref-" + s, s});
  for (const auto& [page, sub] : commands) {
    const fs::path file = fs::path(path("man")) / (page + ".1");
    ASSERT_TRUE(fs::is_regular_file(file)) << page;
    const std::string text = as_read(testing::slurp(file));
    const std::set<std::string> options = listed_options(run(sub + " --help").out);
    EXPECT_FALSE(options.empty()) << sub;
    EXPECT_THAT(missing_options(text, options), ::testing::IsEmpty()) << page;
    if (!sub.empty()) {
      EXPECT_THAT(testing::slurp(fs::path(path("man")) / "diskref.1"), HasSubstr("diskref\\-" + sub));
    }
    const int lint =
        std::system(("mandoc -T lint -W warning '" + file.string() + "' > " + path("lint.txt") + " 2>&1").c_str());
    EXPECT_EQ(lint, 0) << page << ":\n" << testing::slurp(path("lint.txt"));
  }
}

TEST_F(CommandDocs, APageThatLostAnOptionIsCaught) {
  // The check above can fail: the referee's page with its --calib taken out lacks exactly that.
  ASSERT_EQ(run("--write-man-pages " + path("man")).status, 0);
  std::string text = as_read(testing::slurp(fs::path(path("man")) / "diskref-referee.1"));
  const auto options = listed_options(run("referee --help").out);
  ASSERT_TRUE(options.count("--calib"));
  EXPECT_THAT(missing_options(text, options), ::testing::IsEmpty());
  for (auto at = text.find("--calib"); at != std::string::npos; at = text.find("--calib")) text.erase(at, 7);
  EXPECT_THAT(missing_options(text, options), ::testing::ElementsAre("--calib"));
}

// What bash would offer after `diskref WORDS…` (the last word being completed).
std::string complete(const std::string& script, const std::string& words, const std::string& dir) {
  const std::string command =
      "cd '" + dir + "' && bash -c 'source \"" + script + "\"; COMP_WORDS=(" + words +
      "); COMP_CWORD=$((${#COMP_WORDS[@]} - 1)); _diskref; printf \"%s\\n\" \"${COMPREPLY[@]}\"'";
  FILE* pipe = ::popen(command.c_str(), "r");
  std::string out;
  char buffer[4096];
  for (std::size_t n; pipe != nullptr && (n = std::fread(buffer, 1, sizeof buffer, pipe)) > 0;) out.append(buffer, n);
  if (pipe != nullptr) ::pclose(pipe);
  return out;
}

TEST_F(CommandDocs, BashCompletesSubcommandsOptionsAndFiles) {
  ASSERT_EQ(run("--write-bash-completion " + path("diskref.bash")).status, 0);
  const std::string script = path("diskref.bash");
  std::ofstream(path("game.json")) << "{}";
  EXPECT_EQ(complete(script, "diskref ref", dir_.string()), "referee\n");
  EXPECT_THAT(complete(script, "diskref referee --ca", dir_.string()), HasSubstr("--calib\n"));
  EXPECT_THAT(complete(script, "diskref referee --game ga", dir_.string()), HasSubstr("game.json"));
  EXPECT_THAT(complete(script, "diskref referee ga", dir_.string()), HasSubstr("game.json"));
  // A subcommand's subcommands (diskref setup kit …), and no option of another command.
  EXPECT_THAT(complete(script, "diskref setup k", dir_.string()), HasSubstr("kit"));
  EXPECT_THAT(complete(script, "diskref check --ca", dir_.string()), ::testing::Not(HasSubstr("--calib")));
}

TEST_F(CommandDocs, TheVersionNamesTheCommitItWasBuiltFrom) {
  const testing::CommandRun r = run("--version");
  EXPECT_EQ(r.status, 0);
  // A checkout's build names its commit; a source tree without .git says so.
  const bool from_git = fs::exists(fs::path(DISKREF_SOURCE_DIR) / ".git");
  if (from_git) {
    EXPECT_THAT(r.out, MatchesRegex(
                           "diskref [0-9]+\\.[0-9]+\\.[0-9]+ \\(commit [0-9a-f]{12}( with uncommitted changes)?\\)\n"));
  } else {
    EXPECT_THAT(r.out, HasSubstr("built from a source tree without .git"));
  }
}

}  // namespace
}  // namespace diskref
