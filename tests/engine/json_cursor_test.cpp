#include "engine/io/json_cursor.h"

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::io {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(JsonCursor, NamesFileAndPathOfAMissingMember) {
  auto doc = nlohmann::json::parse(R"({"disks": [{"name": "a"}, {"kind": "ship"}]})");
  JsonCursor root(doc, "scene.json");
  EXPECT_EQ(error_of([&] { root.at("disks").at(1).at("name").string(); }),
            "scene.json: disks[1]: missing required member \"name\"");
}

TEST(JsonCursor, RefusesNaNAndWrongTypes) {
  // JSON has no NaN literal, but nlohmann can hold one from a program; both paths must refuse.
  nlohmann::json doc = {{"x", std::nan("")}, {"y", "12"}};
  JsonCursor root(doc, "f.json");
  EXPECT_THAT(error_of([&] { root.at("x").number(); }), HasSubstr("x: must be a finite number"));
  EXPECT_THAT(error_of([&] { root.at("y").number(); }), HasSubstr("y: must be a number, not a string"));
}

TEST(JsonCursor, RangeChecks) {
  auto doc = nlohmann::json::parse(R"({"neg": -1, "zero": 0, "frac": 2.5, "big": 7})");
  JsonCursor root(doc, "f.json");
  EXPECT_THAT(error_of([&] { root.at("neg").positive_number(); }), HasSubstr("neg: must be > 0 (got -1)"));
  EXPECT_THAT(error_of([&] { root.at("zero").positive_number(); }), HasSubstr("must be > 0"));
  EXPECT_EQ(root.at("zero").non_negative_number(), 0.0);
  EXPECT_THAT(error_of([&] { root.at("frac").integer(); }), HasSubstr("frac: must be an integer"));
  EXPECT_THAT(error_of([&] { root.at("big").int_in(0, 5); }), HasSubstr("between 0 and 5 (got 7)"));
  EXPECT_EQ(root.at("big").int_in(0, 7), 7);
}

TEST(JsonCursor, UnknownMembersAreNamed) {
  auto doc = nlohmann::json::parse(R"({"diamter_mm": 3})");
  JsonCursor root(doc, "f.json", "shape");
  EXPECT_THAT(error_of([&] {
                root.allow_only({"type", "diameter_mm"});
              }),
              HasSubstr("shape: unknown member \"diamter_mm\" (allowed: type, diameter_mm)"));
}

TEST(JsonCursor, OneOfListsChoices) {
  auto doc = nlohmann::json::parse(R"({"kind": "starbase"})");
  JsonCursor root(doc, "f.json");
  EXPECT_THAT(error_of([&] {
                root.at("kind").one_of({"ship", "torpedo"});
              }),
              HasSubstr("kind: \"starbase\" is not one of: ship, torpedo"));
}

TEST(JsonCursor, NullCountsAsAbsentAndDefaultsApply) {
  auto doc = nlohmann::json::parse(R"({"a": null, "b": 4})");
  JsonCursor root(doc, "f.json");
  EXPECT_FALSE(root.has("a"));
  EXPECT_EQ(root.number_or("a", 9.0), 9.0);
  EXPECT_EQ(root.number_or("b", 9.0), 4.0);
}

TEST(JsonFiles, MissingFileAndSyntaxErrorsNameTheFile) {
  EXPECT_THAT(error_of([] { read_json_file("/nonexistent/table.json"); }),
              HasSubstr("/nonexistent/table.json: cannot be opened"));
  auto path =
      std::filesystem::temp_directory_path() / ("diskref_json_cursor_bad." + std::to_string(::getpid()) + ".json");
  std::ofstream(path) << "{\n  \"a\": 1,\n  \"b\": ]\n}";
  std::string message = error_of([&] { read_json_file(path); });
  EXPECT_THAT(message, HasSubstr(path.string() + ": is not valid JSON"));
  EXPECT_THAT(message, HasSubstr("line 3"));
  std::filesystem::remove(path);
}

TEST(JsonFiles, NumbersNoDoubleHoldsAreInputErrors) {
  EXPECT_THAT(error_of([] { parse_json_text(R"({"x": 1e999})", "big.json"); }),
              HasSubstr("big.json: is not usable JSON"));
}

}  // namespace
}  // namespace diskref::io
