// What the Photo tab shows of a ruling: the call in the words of the live dispute panel, the
// margin with ± kCallSigmas sigma, the notes and the unseen disks, from the ruling's JSON alone.

#include <gtest/gtest.h>

#include "ui/photo_result.h"

namespace diskref::ui {
namespace {

nlohmann::json ruling_with(nlohmann::json answer) {
  return {{"photo",
           {{"source", "table.jpg"},
            {"size", {4000, 3000}},
            {"frame", "origin at enterprise's centre, +x along its tag's +x, mm"},
            {"camera",
             {{"model", "Pixel 7"},
              {"focal_px", 3120.4},
              {"focal_from", "exif"},
              {"tilt_deg", 31.6},
              {"distance_mm", 642.0}}}}},
          {"disks", {{{"name", "enterprise"}}, {{"name", "ktinga"}}}},
          {"unseen", {"torpedo-1"}},
          {"answers", {std::move(answer)}},
          {"notes", {"the tags are 14 px wide: range known only to +- 2.3 mm; hold the phone closer"}}};
}

TEST(PhotoResult, ARangeShowsItsCallAndMarginWithTheBandOfTheLivePanel) {
  const PhotoShown s = photo_shown(ruling_with({{"id", "q1"},
                                                {"in_range", true},
                                                {"gap_mm", 60.0},
                                                {"reach_mm", 92.46},
                                                {"margin_mm", 32.46},
                                                {"decisive_margin_mm", 32.46},
                                                {"sigma_mm", 0.4},
                                                {"call", "yes"}}));
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_EQ(s.answers[0].call, referee::Call::yes);
  EXPECT_EQ(s.answers[0].headline, "IN RANGE");
  EXPECT_EQ(s.answers[0].detail, "margin +32.46 mm \u00b1 0.80");
  EXPECT_EQ(s.answers[0].lines.front(), "gap 60.00 mm   reach 92.46 mm   margin +32.46 mm");
  EXPECT_EQ(s.source, "table.jpg");
  EXPECT_EQ(s.size, "4000 x 3000 px");
  EXPECT_EQ(s.frame, "origin at enterprise's centre, +x along its tag's +x, mm");
  EXPECT_EQ(s.camera, "Pixel 7; focal 3120 px (exif); 32 deg from above, 642 mm away");
  EXPECT_EQ(s.disks_seen, (std::vector<std::string>{"enterprise", "ktinga"}));
  EXPECT_EQ(s.unseen, (std::vector<std::string>{"torpedo-1"}));
  ASSERT_EQ(s.notes.size(), 1u);
  EXPECT_NE(s.notes[0].find("hold the phone closer"), std::string::npos);
}

TEST(PhotoResult, AMarginInsideTheUncertaintyIsTooCloseToCall) {
  const PhotoShown s = photo_shown(ruling_with({{"id", "q1"},
                                                {"in_range", false},
                                                {"gap_mm", 93.0},
                                                {"reach_mm", 92.46},
                                                {"margin_mm", -0.54},
                                                {"sigma_mm", 2.3},
                                                {"call", "too close to call"}}));
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_EQ(s.answers[0].call, referee::Call::too_close);
  EXPECT_EQ(s.answers[0].headline, "TOO CLOSE TO CALL");
  EXPECT_EQ(s.answers[0].detail, "margin -0.54 mm \u00b1 4.60");
}

TEST(PhotoResult, OutOfRangeAndOverlap) {
  EXPECT_EQ(photo_shown(ruling_with({{"in_range", false}, {"margin_mm", -12.0}, {"sigma_mm", 0.3}, {"call", "no"}}))
                .answers.at(0)
                .headline,
            "OUT OF RANGE");
  const PhotoShown o =
      photo_shown(ruling_with({{"overlap", true}, {"separation_mm", -1.5}, {"sigma_mm", 0.2}, {"call", "yes"}}));
  EXPECT_EQ(o.answers.at(0).headline, "OVERLAPPING");
  EXPECT_EQ(o.answers.at(0).detail, "separation -1.50 mm \u00b1 0.40");
}

TEST(PhotoResult, AMoveSaysWhereItEndsAndWhatItHits) {
  const PhotoShown s = photo_shown(ruling_with(
      {{"landings", {{{"x", 100}, {"y", 257.2}, {"heading", 90}}, {{"x", 100}, {"y", 314.4}, {"heading", 90}}}},
       {"torpedo_contacts", nlohmann::json::array()},
       {"end_overlaps", {"tderet"}},
       {"decisive_margin_mm", -6.5},
       {"sigma_mm", 0.5},
       {"call", "yes"}}));
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_EQ(s.answers[0].headline, "ENDS ON tderet");
  EXPECT_EQ(s.answers[0].call, referee::Call::yes);
  EXPECT_EQ(s.answers[0].detail, "nearest contact -6.50 mm \u00b1 1.00");
  EXPECT_EQ(s.answers[0].lines.at(0), "lands at (100.0, 314.4) mm, heading 90 deg after 2 flips");
  EXPECT_EQ(s.answers[0].lines.at(2), "ends overlapping: tderet");
  // Without a call (nothing to touch): clear.
  EXPECT_EQ(photo_shown(ruling_with({{"landings", {{{"x", 1}, {"y", 2}, {"heading", 0}}}},
                                     {"end_overlaps", nlohmann::json::array()}}))
                .answers.at(0)
                .headline,
            "ENDS CLEAR");
}

TEST(PhotoResult, AQuestionOnADiskNotInThePhotoCannotBeTold) {
  const PhotoShown s = photo_shown(ruling_with({{"id", "q1"}, {"call", "cannot tell"}, {"unseen", {"torpedo-1"}}}));
  ASSERT_EQ(s.answers.size(), 1u);
  EXPECT_FALSE(s.answers[0].call);
  EXPECT_EQ(s.answers[0].headline, "CANNOT TELL");
  EXPECT_EQ(s.answers[0].detail, "not in the photo: torpedo-1");
}

TEST(PhotoResult, ARulingWithoutAnswersShowsTheDisksAlone) {
  const PhotoShown s =
      photo_shown(nlohmann::json::parse(R"({"disks": [{"name": "ktinga"}], "unseen": [], "answers": []})"));
  EXPECT_TRUE(s.answers.empty());
  EXPECT_EQ(s.disks_seen, std::vector<std::string>{"ktinga"});
  EXPECT_TRUE(photo_shown(nlohmann::json()).answers.empty());  // nothing at all: nothing shown, no throw
}

TEST(PhotoResult, CallsAreReadInBothSpellings) {
  EXPECT_EQ(parse_call("too_close"), referee::Call::too_close);
  EXPECT_EQ(parse_call("no"), referee::Call::no);
  EXPECT_FALSE(parse_call("maybe"));
}

}  // namespace
}  // namespace diskref::ui
