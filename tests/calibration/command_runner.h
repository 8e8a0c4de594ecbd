#pragma once
// Test support: running build/diskref as a user does, in a scratch directory of the test's own,
// with its exit status, stdout and stderr.

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <gtest/gtest.h>

namespace diskref::testing {

struct CommandRun {
  int status = -1;
  std::string out, err;
  std::string last_line() const {
    std::string text = out;
    while (!text.empty() && text.back() == '\n') text.pop_back();
    auto at = text.rfind('\n');
    return at == std::string::npos ? text : text.substr(at + 1);
  }
};

inline std::string slurp(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fixture with a scratch directory (removed afterwards) and `run("calibrate ...")`.
class CommandTest : public ::testing::Test {
 protected:
  std::filesystem::path dir_ =
      std::filesystem::temp_directory_path() /
      ("diskref-" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()) + "-" +
       std::to_string(::getpid()));
  void SetUp() override { std::filesystem::create_directories(dir_); }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Runs `build/diskref ARGUMENTS` (arguments as a shell would split them).
  CommandRun run(const std::string& arguments) {
    CommandRun r;
    std::string command = (std::filesystem::path(DISKREF_BINARY_DIR) / "diskref").string() + " " + arguments + " > " +
                          (dir_ / "out.txt").string() + " 2> " + (dir_ / "err.txt").string();
    int status = std::system(command.c_str());
    r.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
    r.out = slurp(dir_ / "out.txt");
    r.err = slurp(dir_ / "err.txt");
    return r;
  }
  std::string path(const std::string& name) const { return (dir_ / name).string(); }
};

}  // namespace diskref::testing
