#include "engine/model/table_spec.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::model {
namespace {

using ::testing::HasSubstr;

const char* kSpecExample = R"({
  "play_area_mm": [914.4, 914.4],
  "corner_markers": [
    {"id": 0, "center_mm": [-45, -45],     "size_mm": 40},
    {"id": 1, "center_mm": [959.4, -45],   "size_mm": 40},
    {"id": 2, "center_mm": [959.4, 959.4], "size_mm": 40},
    {"id": 3, "center_mm": [-45, 959.4],   "size_mm": 40}
  ]
})";

std::string error_of(const std::string& text) {
  auto doc = nlohmann::json::parse(text);
  try {
    parse_table(io::JsonCursor(doc, "table.json"));
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

TEST(TableSpec, ParsesTheSpecExample) {
  auto doc = nlohmann::json::parse(kSpecExample);
  TableSpec t = parse_table(io::JsonCursor(doc, "table.json"));
  EXPECT_DOUBLE_EQ(t.play_area_mm.x, 914.4);
  EXPECT_DOUBLE_EQ(t.corner_markers[2].center_mm.x, 959.4);
  EXPECT_DOUBLE_EQ(t.corner_markers[3].size_mm, 40);
  EXPECT_EQ(table_to_json(t), table_to_json(default_table()));
}

TEST(TableSpec, CornerOrderFollowsApriltag) {
  // apriltag returns bottom-left, bottom-right, top-right, top-left of the upright bitmap; seen
  // from above with the marker's +x along table +x, that winds counter-clockwise from (-,-).
  CornerMarker m{0, {100, 200}, 40};
  auto c = m.corners_mm();
  EXPECT_DOUBLE_EQ(c[0].x, 80);
  EXPECT_DOUBLE_EQ(c[0].y, 180);
  EXPECT_DOUBLE_EQ(c[1].x, 120);
  EXPECT_DOUBLE_EQ(c[2].y, 220);
  EXPECT_DOUBLE_EQ(c[3].x, 80);
  double area2 = 0;
  for (int i = 0; i < 4; ++i) area2 += geom::cross(c[i], c[(i + 1) % 4]);
  EXPECT_GT(area2, 0) << "counter-clockwise";
}

TEST(TableSpec, RefusesBadFiles) {
  EXPECT_THAT(error_of(R"({"play_area_mm": [914.4], "corner_markers": []})"),
              HasSubstr("table.json: play_area_mm: must be an array of 2 numbers"));
  EXPECT_THAT(error_of(R"({"play_area_mm": [914.4, -1], "corner_markers": []})"),
              HasSubstr("play_area_mm[1]: must be between 10 and 20000 mm, what a play area's side"));
  std::string dup = kSpecExample;
  dup.replace(dup.find("\"id\": 3"), 7, "\"id\": 2");
  EXPECT_THAT(error_of(dup), HasSubstr("corner_markers[3].id: corner marker id 2 listed twice"));
  std::string inside = kSpecExample;
  inside.replace(inside.find("[-45, -45]"), 10, "[100, 100]");
  EXPECT_THAT(error_of(inside), HasSubstr("corner_markers[0].center_mm: corner marker must lie outside"));
  std::string zero = kSpecExample;
  zero.replace(zero.find("\"size_mm\": 40"), 13, "\"size_mm\": 0");
  EXPECT_THAT(error_of(zero), HasSubstr("corner_markers[0].size_mm: must be between 1 and 2000 mm"));
}

std::string moved(std::string text, const std::string& from, const std::string& to) {
  text.replace(text.find(from), from.size(), to);
  return text;
}

TEST(TableSpec, RefusesMarkersThatCannotGiveATablePose) {
  // Two markers in one place.
  EXPECT_THAT(error_of(moved(kSpecExample, "[959.4, -45]", "[-45, -45]")),
              HasSubstr("corner_markers[1].center_mm: corner marker 1 overlaps corner marker 0"));
  // Three in a line (marker 2 moved onto the line from 1 to... the x axis).
  EXPECT_THAT(error_of(moved(kSpecExample, "[959.4, 959.4]", "[1959.4, -45]")), HasSubstr("lie (nearly) in a line"));
  // Two swapped: the markers go round clockwise.
  std::string swapped = moved(kSpecExample, "[959.4, -45]", "[X]");
  swapped = moved(moved(swapped, "[-45, 959.4]", "[959.4, -45]"), "[X]", "[-45, 959.4]");
  EXPECT_THAT(error_of(swapped), HasSubstr("turn clockwise (two markers swapped?)"));
  // A coordinate no table has.
  EXPECT_THAT(error_of(moved(kSpecExample, "[-45, -45]", "[-1e307, -45]")),
              HasSubstr("corner_markers[0].center_mm[0]: must be between -100000 and 100000 mm"));
}

TEST(TableSpec, PlayAreaContainment) {
  TableSpec t = default_table();
  EXPECT_TRUE(t.in_play_area({0, 0}));
  EXPECT_TRUE(t.in_play_area({914.4, 457}));
  EXPECT_FALSE(t.in_play_area({914.41, 457}));
  EXPECT_FALSE(t.in_play_area({-0.01, 457}));
}

}  // namespace
}  // namespace diskref::model
