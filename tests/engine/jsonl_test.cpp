// JSON lines: every line parsed and named by its number, blank lines skipped, and a last line cut
// short by a crash dropped with a note only where the caller says it may be.
#include "engine/io/jsonl.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "engine/io/input_error.h"

namespace diskref::io {
namespace {

using ::testing::HasSubstr;
namespace fs = std::filesystem;

fs::path write(const std::string& name, const std::string& text) {
  fs::path dir = fs::temp_directory_path() / ("diskref-jsonl-" + std::to_string(getpid()));
  fs::create_directories(dir);
  std::ofstream(dir / name, std::ios::binary) << text;
  return dir / name;
}

std::vector<long long> values(const fs::path& file, std::vector<std::string>* cut = nullptr) {
  std::vector<long long> out;
  read_jsonl(
      file, [&](const JsonCursor& c) { out.push_back(c.at("v").integer()); }, cut);
  return out;
}

TEST(Jsonl, ReadsEveryLineInOrderAndSkipsBlankOnes) {
  fs::path f = write("ok.jsonl", "{\"v\": 1}\n\n   \n{\"v\": 2}\r\n{\"v\": 3}");
  EXPECT_EQ(values(f), (std::vector<long long>{1, 2, 3}));
}

TEST(Jsonl, AnErrorNamesTheFileAndTheLine) {
  fs::path f = write("bad.jsonl", "{\"v\": 1}\n{\"v\": }\n{\"v\": 3}\n");
  try {
    values(f);
    FAIL() << "accepted a bad line";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("bad.jsonl: line 2"));
  }
  fs::path g = write("member.jsonl", "{\"v\": 1}\n{\"w\": 2}\n");
  try {
    values(g);
    FAIL() << "accepted a line without v";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("member.jsonl: line 2"));
  }
}

TEST(Jsonl, ALastLineCutShortIsDroppedOnlyWhenTheCallerAllowsIt) {
  fs::path f = write("cut.jsonl", "{\"v\": 1}\n{\"v\": 2}\n{\"v\": 3");
  std::vector<std::string> cut;
  EXPECT_EQ(values(f, &cut), (std::vector<long long>{1, 2}));
  ASSERT_EQ(cut.size(), 1u);
  EXPECT_THAT(cut[0], HasSubstr("line 3"));
  EXPECT_THROW(values(f), InputError) << "without the caller's leave, a cut line is an error";
  // A bad line that ends with its newline was not cut short: it is an error either way.
  fs::path g = write("middle.jsonl", "{\"v\": 1}\n{\"v\": \n{\"v\": 3}\n");
  EXPECT_THROW(values(g, &cut), InputError);
}

TEST(Jsonl, AMissingFileOrADirectoryIsNamed) {
  try {
    values("/nonexistent/x.jsonl");
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/nonexistent/x.jsonl"));
  }
  try {
    values(fs::temp_directory_path());
    FAIL();
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory"));
  }
}

TEST(Jsonl, ARecordingLookedAtAfterwardsSkipsBadLinesAndSaysWhich) {
  fs::path f = write("damaged.jsonl", "{\"v\": 1}\ngarbage here\n{\"v\": \"two\"}\n{\"v\": 4}\n{\"v\": 5}");
  std::vector<long long> out;
  std::vector<std::string> skipped;
  read_jsonl_skipping_bad_lines(
      f, [&](const JsonCursor& c) { out.push_back(c.at("v").integer()); }, skipped);
  EXPECT_EQ(out, (std::vector<long long>{1, 4, 5})) << "a complete last line is kept";
  ASSERT_EQ(skipped.size(), 2u);
  EXPECT_THAT(skipped[0], HasSubstr("damaged.jsonl: line 2"));
  EXPECT_THAT(skipped[0], HasSubstr("skipped"));
  EXPECT_THAT(skipped[1], HasSubstr("line 3"));
  skipped.clear();
  out.clear();
  f = write("cut.jsonl", "{\"v\": 1}\n{\"v\"");
  read_jsonl_skipping_bad_lines(
      f, [&](const JsonCursor& c) { out.push_back(c.at("v").integer()); }, skipped);
  EXPECT_EQ(out, (std::vector<long long>{1}));
  ASSERT_EQ(skipped.size(), 1u);
  EXPECT_THAT(skipped[0], HasSubstr("cut short"));
}

}  // namespace
}  // namespace diskref::io
