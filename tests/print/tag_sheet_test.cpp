// The tag sheet library (print/tag_sheet.h, print/print_files.h) without the command: the fit
// and readability checks against the spec's numbers, sheets that do not fit a page, and the PNG
// with its resolution. The printed sheet itself is measured in tags_command_test.cpp.

#include <cmath>
#include <numbers>
#include <stdexcept>
#include <string>

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "print/print_files.h"
#include "print/tag_sheet.h"

namespace diskref::print {
namespace {

using ::testing::HasSubstr;

// A ship with a tag on each face (the down face's id 100 more), both `tag_mm`.
model::DiskSpec ship(const std::string& name, int tag_id, double tag_mm, double offset_deg = 0) {
  model::DiskSpec d;
  d.name = name;
  d.shape = geom::FlattedCircle{63.5, 57.2};
  d.tags = {model::TagSpec{tag_id, model::Face::up, tag_mm, offset_deg},
            model::TagSpec{tag_id + 100, model::Face::down, tag_mm, offset_deg}};
  return d;
}

// Spec §2: "a 63.5 mm disk takes at most a 24.9 mm tag" (the printed 1.8 x size square's corners
// reach the circle: 1.8 s / 2 * sqrt(2) = 31.75 mm).
TEST(TagFit, TheLargestTagOnAShipIsTheSpecsFigure) {
  EXPECT_NEAR(model::largest_fitting_tag_mm(geom::FlattedCircle{63.5, 57.2}, model::TagSpec{10, model::Face::up, 1, 0}),
              63.5 / 2 / 0.9 / std::numbers::sqrt2, 0.01);
  // Turned by 45 degrees the square's corners point at the flats and the sides at the arc.
  double turned =
      model::largest_fitting_tag_mm(geom::FlattedCircle{63.5, 57.2}, model::TagSpec{10, model::Face::up, 1, 45});
  EXPECT_NEAR(turned, 57.2 / 2 / 0.9 / std::numbers::sqrt2, 0.01);
  EXPECT_NEAR(model::largest_fitting_tag_mm(geom::Rect{88.9, 25.4}, model::TagSpec{60, model::Face::up, 1, 0}),
              25.4 / 1.8, 0.01);
}

TEST(TagWarnings, ATagTooBigForItsDiskNamesTheDiskTheTagAndTheLargestThatFits) {
  // Built in code, past the registry loader (which refuses such a tag with an input error).
  model::DiskRegistry registry({ship("enterprise", 10, 24.0), ship("reliant", 16, 26.0)});
  auto warnings = tag_warnings(registry, nullptr, std::nullopt);
  ASSERT_EQ(warnings.size(), 2u);  // both of reliant's faces
  EXPECT_THAT(warnings[0], HasSubstr("reliant up: tag 16: printed tag (46.8 mm square"));
  EXPECT_THAT(warnings[0], HasSubstr("the largest that fits is 24.9 mm"));
  EXPECT_THAT(warnings[1], HasSubstr("reliant down: tag 116: printed tag (46.8 mm square"));
}

TEST(TagWarnings, AShipOrTorpedoWithOneFaceTaggedIsSaid) {
  model::DiskSpec one = ship("defiant", 14, 24.0);
  one.tags.pop_back();
  model::DiskSpec torpedo = ship("torpedo-1", 40, 9.5);
  torpedo.kind = model::DiskKind::torpedo;
  torpedo.shape = geom::Circle{25.4};
  torpedo.tags.erase(torpedo.tags.begin());
  model::DiskSpec planet = ship("moon", 70, 20.0);
  planet.kind = model::DiskKind::planet;
  planet.tags.pop_back();  // a planet does not flip: one face is all it needs
  auto warnings =
      tag_warnings(model::DiskRegistry({one, torpedo, planet, ship("enterprise", 10, 24.0)}), nullptr, std::nullopt);
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_EQ(warnings[0],
            "defiant: a ship flips, but it has a tag on its up face only: after an odd number of flips it is not seen; "
            "give its other face a tag of its own (diskref setup kit makes both)");
  EXPECT_THAT(warnings[1], HasSubstr("torpedo-1: a torpedo flips, but it has a tag on its down face only"));
}

TEST(TagWarnings, PixelsPerCellAreTheTagsCellOverTheGroundSampleDistance) {
  // 1920 px over 90 degrees: f = 960 px; from 1000 mm a 24 mm tag (4.8 mm cells) spans 4.608 px a cell.
  ViewingCamera camera{{1920, 1080}, 90.0, 1000.0};
  EXPECT_NEAR(pixels_per_cell(model::TagSpec{10, model::Face::up, 24, 0}, camera), 4.608, 1e-9);
  // Twice as high, half the pixels; and the warning starts below 2.5 px a cell.
  camera.height_mm = 2000;
  EXPECT_NEAR(pixels_per_cell(model::TagSpec{10, model::Face::up, 24, 0}, camera), 2.304, 1e-9);
  model::DiskRegistry registry({ship("enterprise", 10, 24.0)});
  model::TableSpec table;
  table.play_area_mm = {900, 900};
  table.corner_markers = {model::CornerMarker{0, {-45, -45}, 40}, model::CornerMarker{1, {945, -45}, 40},
                          model::CornerMarker{2, {945, 945}, 40}, model::CornerMarker{3, {-45, 945}, 40}};
  auto warnings = tag_warnings(registry, &table, camera);
  ASSERT_EQ(warnings.size(), 2u);  // both faces; the 40 mm markers have 3.84 px a cell
  EXPECT_THAT(warnings[0], HasSubstr("enterprise up: tag 10 (24 mm) has 2.30 px per cell seen from 2000 mm"));
  EXPECT_THAT(warnings[1], HasSubstr("enterprise down: tag 110 (24 mm) has 2.30 px per cell"));
  EXPECT_THAT(warnings[0], HasSubstr("a tag of at least 26.1 mm"));
  camera.height_mm = 1800;  // 2.56 px a cell
  EXPECT_TRUE(tag_warnings(registry, &table, camera).empty());
}

TEST(TagSheets, SomethingLargerThanThePageIsNamed) {
  model::DiskSpec planet;
  planet.name = "jupiter";
  planet.kind = model::DiskKind::planet;
  planet.shape = geom::Circle{250};
  planet.tags = {model::TagSpec{70, model::Face::up, 80, 0}};
  SheetOptions options;
  options.dpi = 72;
  options.board.reset();
  try {
    tag_sheets(model::DiskRegistry({planet}), nullptr, options);
    FAIL() << "a 250 mm planet was put on an A4 page";
  } catch (const std::invalid_argument& e) {
    EXPECT_THAT(e.what(), HasSubstr("\"jupiter up\" (252 x 252 mm) does not fit on a 210 x 297 mm page"));
  }
  options.page_width_mm = 297;
  options.page_height_mm = 420;  // A3 takes it
  EXPECT_EQ(tag_sheets(model::DiskRegistry({planet}), nullptr, options).size(), 1u);
}

TEST(PrintFiles, APngWithItsDpiDecodesToTheSameImage) {
  cv::Mat image(40, 30, CV_8UC3);
  cv::randu(image, 0, 256);
  std::vector<uint8_t> png = png_with_dpi(image, 300);
  cv::Mat back = cv::imdecode(png, cv::IMREAD_UNCHANGED);
  ASSERT_EQ(back.size(), image.size());
  EXPECT_EQ(cv::norm(back, image, cv::NORM_INF), 0.0);
  // pHYs right after the 8-byte signature and the 25-byte IHDR chunk: 11811 pixels per metre.
  std::string type(png.begin() + 37, png.begin() + 41);
  EXPECT_EQ(type, "pHYs");
  EXPECT_EQ((png[41] << 24) | (png[42] << 16) | (png[43] << 8) | png[44], 11811);
}

}  // namespace
}  // namespace diskref::print
