// What nlohmann::json takes silently and diskref refuses: a member given twice (the last would
// win), nesting without end; and input files that are no files.
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"

namespace diskref::io {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::string& text) {
  try {
    parse_json_text(text, "disks.json");
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsonText, MemberGivenTwiceIsRefusedWithItsPlace) {
  const std::string text = "{\"disks\": [{\"tags\": [{\"id\": 1,\n  \"size_mm\": 24,\n  \"size_mm\": 30}]}]}";
  EXPECT_THAT(error_of(text),
              HasSubstr("disks.json: disks[0].tags[0]: line 3, column 3: member \"size_mm\" given twice"));
}

TEST(JsonText, SameNameInDifferentObjectsIsFine) {
  EXPECT_EQ(error_of(R"({"a": {"x": 1}, "b": {"x": 2}, "c": [{"x": 1}, {"x": 2}]})"), "(no error)");
  EXPECT_EQ(parse_json_text(R"({"a": {"x": 1}, "b": [{"x": 2}]})", "f")["b"][0]["x"], 2);
}

TEST(JsonText, DuplicateAfterANestedObjectIsFound) {
  EXPECT_THAT(error_of(R"({"x": 1, "y": {"x": 3}, "x": 2})"), HasSubstr("member \"x\" given twice"));
  EXPECT_THAT(error_of(R"({"list": [1, [2, {"k": 1, "k": 2}]]})"), HasSubstr("list[1][1]: "));
}

TEST(JsonText, DeepNestingIsRefused) {
  std::string deep(kMaxJsonDepth + 5, '[');
  deep += std::string(kMaxJsonDepth + 5, ']');
  EXPECT_THAT(error_of(deep), HasSubstr("nest deeper than 64 levels"));
  std::string fine(10, '[');
  fine += std::string(10, ']');
  EXPECT_EQ(error_of(fine), "(no error)");
}

TEST(JsonFile, ADirectoryIsCalledADirectory) {
  const auto dir = std::filesystem::temp_directory_path() / ("diskref-json-dir-" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  try {
    read_json_file(dir);
    ADD_FAILURE() << "a directory was read";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("is a directory, not a JSON file"));
  }
  std::filesystem::remove_all(dir);
}

TEST(JsonFile, ADeviceIsRefused) {
  try {
    read_json_file("/dev/zero");  // would never end
    ADD_FAILURE() << "/dev/zero was read";
  } catch (const InputError& e) {
    EXPECT_THAT(e.what(), HasSubstr("/dev/zero: is not a regular file"));
  }
}

}  // namespace
}  // namespace diskref::io
