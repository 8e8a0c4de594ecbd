// The bounds of what is physically possible (engine/model/bounds.h): each reader takes a value at
// its bounds, refuses one just past them (and the 1e307s and NaNs that are valid JSON but no
// measurement), naming the file, the JSON path and the bound.
#include "engine/model/bounds.h"

#include <functional>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"

namespace diskref::model::bounds {
namespace {

using ::testing::HasSubstr;

std::string error_of(const std::function<double(const io::JsonCursor&)>& read, const nlohmann::json& value) {
  nlohmann::json doc = {{"v", value}};
  try {
    read(io::JsonCursor(doc, "f.json").at("v"));
  } catch (const io::InputError& e) {
    return e.what();
  }
  return "(no error)";
}

double value_of(const std::function<double(const io::JsonCursor&)>& read, const nlohmann::json& value) {
  nlohmann::json doc = {{"v", value}};
  return read(io::JsonCursor(doc, "f.json").at("v"));
}

TEST(Bounds, CoordinatesWithin100Metres) {
  EXPECT_EQ(value_of(coordinate_mm, -kMaxCoordinateMm), -kMaxCoordinateMm);
  EXPECT_EQ(value_of(coordinate_mm, kMaxCoordinateMm), kMaxCoordinateMm);
  EXPECT_THAT(error_of(coordinate_mm, 1e307),
              HasSubstr("f.json: v: must be between -100000 and 100000 mm, what a place on or around a table can "
                        "physically be (got 1e+307)"));
  EXPECT_THAT(error_of(coordinate_mm, -100000.5), HasSubstr("between -100000 and 100000 mm"));
}

TEST(Bounds, SizesThicknessTagsAngles) {
  EXPECT_EQ(value_of(size_mm, kMinSizeMm), kMinSizeMm);
  EXPECT_THAT(error_of(size_mm, 0), HasSubstr("a disk's or a template's size"));
  EXPECT_THAT(error_of(size_mm, 5001), HasSubstr("between 0.1 and 5000 mm"));
  EXPECT_EQ(value_of(thickness_mm, 0), 0);
  EXPECT_THAT(error_of(thickness_mm, 2e6), HasSubstr("what a disk's thickness can physically be (got 2e+06)"));  // 2 km
  EXPECT_THAT(error_of(tag_size_mm, 0.5), HasSubstr("between 1 and 2000 mm"));
  EXPECT_EQ(value_of(angle_deg, -36000), -36000);
  EXPECT_THAT(error_of(angle_deg, 1e300), HasSubstr("100 turns either way"));
  EXPECT_THAT(error_of(play_area_side_mm, 5), HasSubstr("a play area's side"));
}

TEST(Bounds, UncertaintiesTolerancesTimesFrames) {
  EXPECT_EQ(value_of(sigma_mm, 0), 0);
  EXPECT_THAT(error_of(sigma_mm, -0.5), HasSubstr("what a position's uncertainty can physically be (got -0.5)"));
  EXPECT_THAT(error_of(tolerance_mm, 1001), HasSubstr("a tolerance on the table"));
  EXPECT_EQ(value_of(time_s, kMaxTimeS), kMaxTimeS);
  EXPECT_THAT(error_of(time_s, 1e300), HasSubstr("a time into a session"));
  EXPECT_THAT(error_of(time_s, -1), HasSubstr("between 0 and 1e+07 s"));
  EXPECT_THAT(error_of(quality_figure, 1e4), HasSubstr("a fit's error"));
  EXPECT_THAT(error_of([](const io::JsonCursor& c) { return static_cast<double>(frame_index(c)); }, -3),
              HasSubstr("v: must be a frame number between 0 and 1000000000 (got -3)"));
  EXPECT_THAT(error_of([](const io::JsonCursor& c) { return static_cast<double>(image_side_px(c)); }, 99999),
              HasSubstr("between 16 and 16384"));
}

TEST(Bounds, NotANumberIsNotWithinAnyBound) {
  EXPECT_FALSE(within(std::nan(""), -1e9, 1e9));
  EXPECT_TRUE(within(3, 3, 3));
}

}  // namespace
}  // namespace diskref::model::bounds
