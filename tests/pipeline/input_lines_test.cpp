// The referee's inputs typed while a live game runs (pipeline/input_lines.h): from a pipe (as
// standard input is) and from a file followed as it grows; each line said taken or why not.

#include <unistd.h>

#include <condition_variable>
#include <fstream>
#include <mutex>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "pipeline/input_lines.h"
#include "sample_game.h"

namespace diskref::pipeline {
namespace {

using testing::SampleGame;

// What InputLines says, kept; a test waits (on a condition, not a clock) for the n-th saying.
class Sayings {
 public:
  InputLines::Say sink() {
    return [this](const std::string& line) {
      std::lock_guard lock(mutex_);
      lines_.push_back(line);
      changed_.notify_all();
    };
  }
  std::vector<std::string> wait_for(std::size_t n) {
    std::unique_lock lock(mutex_);
    // A generous bound only so that a broken reader fails the test instead of hanging it.
    changed_.wait_for(lock, std::chrono::seconds(30), [&] { return lines_.size() >= n; });
    return lines_;
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::string> lines_;
};

void write_all(int fd, const std::string& text) {
  ASSERT_EQ(::write(fd, text.data(), text.size()), static_cast<ssize_t>(text.size()));
}

TEST(InputLines, EachLineFromAPipeIsTakenOrRefusedWithItsReason) {
  SampleGame s;
  auto game = std::make_shared<RefereedGame>(s.make_referee(), std::vector<referee::Input>{});
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  Sayings said;
  InputLines lines(fds[0], game, InputLinesOptions{}, said.sink());
  write_all(fds[1], "{\"do\": \"reveal\", \"player\": \"owen\"}\n");
  write_all(fds[1], "\n");  // a blank line is no input and no mistake
  write_all(fds[1], "{\"do\": \"reveal\", \"player\": \"owen\", \"t\": 3}\n");
  write_all(fds[1], "{\"do\": \"fly\"}\n");
  write_all(fds[1], "not json\n");
  write_all(fds[1], "[1, 2]\n");
  write_all(fds[1], "{\"do\": \"initiative\"}");  // the last line, without its newline
  ::close(fds[1]);
  const std::vector<std::string> out = said.wait_for(6);
  ASSERT_EQ(out.size(), 6u);
  EXPECT_EQ(out[0], "standard input: line 1: taken");
  EXPECT_NE(out[1].find("line 3: not taken: member \"t\""), std::string::npos) << out[1];
  EXPECT_NE(out[2].find("line 4: not taken"), std::string::npos) << out[2];
  EXPECT_NE(out[2].find("fly"), std::string::npos) << out[2];
  EXPECT_NE(out[3].find("line 5: not taken: not JSON"), std::string::npos) << out[3];
  EXPECT_NE(out[4].find("line 6: not taken: is not a JSON object"), std::string::npos) << out[4];
  EXPECT_EQ(out[5], "standard input: line 7: taken");
  lines.stop();
  EXPECT_TRUE(lines.ended());
  EXPECT_EQ(lines.lines_taken(), 2);
  EXPECT_EQ(lines.lines_refused(), 4);
  EXPECT_EQ(game->queued(), 2u);
  ::close(fds[0]);
}

TEST(InputLines, ALineLongerThanTheLimitIsRefusedWholeAndTheNextIsRead) {
  SampleGame s;
  auto game = std::make_shared<RefereedGame>(s.make_referee(), std::vector<referee::Input>{});
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  Sayings said;
  InputLinesOptions options;
  options.max_line_bytes = 1000;
  InputLines lines(fds[0], game, options, said.sink());
  std::thread writer([&] {
    write_all(fds[1], std::string(5000, 'x') + "\n{\"do\": \"initiative\"}\n");
    ::close(fds[1]);
  });
  const std::vector<std::string> out = said.wait_for(2);
  writer.join();
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0], "standard input: line 1: not taken: longer than 1000 bytes");
  EXPECT_EQ(out[1], "standard input: line 2: taken");
  EXPECT_EQ(game->queued(), 1u);
  lines.stop();
  ::close(fds[0]);
}

TEST(InputLines, AFollowedFileIsReadAsItGrowsAndItsEndIsNotTheEnd) {
  SampleGame s;
  auto game = std::make_shared<RefereedGame>(s.make_referee(), std::vector<referee::Input>{});
  const std::filesystem::path file = testing::test_output("input-lines") / "typed.jsonl";
  std::ofstream out(file);
  out << "{\"do\": \"reveal\", \"player\": \"owen\"}\n" << std::flush;
  Sayings said;
  std::unique_ptr<InputLines> lines = InputLines::follow_file(file, game, said.sink());
  EXPECT_EQ(said.wait_for(1).at(0), file.string() + ": line 1: taken");
  out << "{\"do\": \"initiative\"}\n" << std::flush;  // written later, by another program
  EXPECT_EQ(said.wait_for(2).at(1), file.string() + ": line 2: taken");
  EXPECT_FALSE(lines->ended());
  lines->stop();
  EXPECT_EQ(game->queued(), 2u);
}

TEST(InputLines, AFileThatCannotBeReadIsNamed) {
  SampleGame s;
  auto game = std::make_shared<RefereedGame>(s.make_referee(), std::vector<referee::Input>{});
  try {
    InputLines::follow_file("/nonexistent-dir/typed.jsonl", game, [](const std::string&) {});
    FAIL() << "opened";
  } catch (const io::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent-dir/typed.jsonl"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace diskref::pipeline
