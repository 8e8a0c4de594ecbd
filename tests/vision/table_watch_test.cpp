// The watch over the play area: a hand held still is seen, a moved disk is not foreign, a
// brightness shift is nothing (nor flicker or an exposure step since the settle), and what never
// changes becomes part of the table.
#include "vision/table_watch.h"

#include <cmath>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

namespace diskref::vision {
namespace {

// A shrunk table (240 x 135): grey felt with a little texture, the play area inside a margin.
struct SmallTable {
  cv::Mat felt = cv::Mat(135, 240, CV_8U);
  cv::Mat play = cv::Mat::zeros(135, 240, CV_8U);
  cv::Mat nothing_changed = cv::Mat::zeros(135, 240, CV_8U);
  cv::Mat no_disks = cv::Mat::zeros(135, 240, CV_8U);
  SmallTable() {
    cv::RNG rng(7);
    rng.fill(felt, cv::RNG::UNIFORM, 90, 110);
    cv::rectangle(play, cv::Rect(20, 10, 200, 115), cv::Scalar(255), cv::FILLED);
  }
  cv::Mat with_blob(cv::Point at, int radius, int grey) const {
    cv::Mat out = felt.clone();
    cv::circle(out, at, radius, cv::Scalar(grey), cv::FILLED);
    return out;
  }
};

TEST(TableWatch, AHandHeldStillIsForeignUntilItGoes) {
  SmallTable table;
  TableWatch watch;
  auto no_disks = [&] { return table.no_disks; };
  EXPECT_FALSE(watch.update(0.0, table.felt, table.nothing_changed, table.play, no_disks).foreign);
  const cv::Mat hand = table.with_blob({120, 60}, 15, 170);
  // The frame it came in changed; the frames it is held still did not, and it is still there.
  for (int k = 1; k <= 30; ++k) {
    const TableWatchResult r = watch.update(k / 30.0, hand, table.nothing_changed, table.play, no_disks);
    EXPECT_TRUE(r.foreign) << k;
    EXPECT_TRUE(r.foreign_box.contains({120, 60}));
  }
  EXPECT_FALSE(watch.update(1.1, table.felt, table.nothing_changed, table.play, no_disks).foreign);
}

TEST(TableWatch, ForeignThingsAreGivenPartByPart) {
  SmallTable table;
  TableWatch watch;
  auto no_disks = [&] { return table.no_disks; };
  watch.adopt(table.felt);
  cv::Mat two = table.with_blob({60, 40}, 4, 200);              // a counter on its edge, small...
  cv::circle(two, {160, 90}, 18, cv::Scalar(170), cv::FILLED);  // ...and a hand, large
  const TableWatchResult r = watch.update(0.5, two, table.nothing_changed, table.play, no_disks);
  ASSERT_TRUE(r.foreign);
  ASSERT_EQ(r.foreign_parts.size(), 2u);
  const cv::Rect& a = r.foreign_parts[0].contains({60, 40}) ? r.foreign_parts[0] : r.foreign_parts[1];
  const cv::Rect& b = r.foreign_parts[0].contains({60, 40}) ? r.foreign_parts[1] : r.foreign_parts[0];
  EXPECT_TRUE(a.contains({60, 40}));
  EXPECT_LE(a.width, 12);
  EXPECT_TRUE(b.contains({160, 90}));
  EXPECT_GE(b.width, 34);
  EXPECT_EQ(r.foreign_box, a | b);
}

TEST(TableWatch, WhereDisksLieNowOrLayThenIsNotForeignNorIsABrightnessShift) {
  SmallTable table;
  TableWatch watch;
  const cv::Mat before = table.with_blob({60, 40}, 6, 230);  // a white disk
  watch.adopt(before);
  const cv::Mat after = table.with_blob({100, 40}, 6, 230);  // it flipped along
  cv::Mat disks = cv::Mat::zeros(before.size(), CV_8U);
  cv::circle(disks, {60, 40}, 8, cv::Scalar(255), cv::FILLED);
  cv::circle(disks, {100, 40}, 8, cv::Scalar(255), cv::FILLED);
  bool asked = false;
  const TableWatchResult r = watch.update(1.0, after, table.nothing_changed, table.play, [&] {
    asked = true;
    return disks;
  });
  EXPECT_TRUE(asked);
  EXPECT_FALSE(r.foreign);
  // Unexplained, the same picture is foreign.
  EXPECT_TRUE(watch.update(1.1, after, table.nothing_changed, table.play, [&] { return table.no_disks; }).foreign);
  // A global brightness change is no difference, and the disks are not even asked for. (The
  // camera's exposure scales every grey level alike: a tenth more light is a tenth more on the
  // white disk as on the felt.)
  watch.adopt(before);
  const cv::Mat brighter = before * 1.1;
  asked = false;
  EXPECT_FALSE(watch
                   .update(1.2, brighter, table.nothing_changed, table.play,
                           [&] {
                             asked = true;
                             return disks;
                           })
                   .foreign);
  EXPECT_FALSE(asked);
  // Outside the play area nothing counts.
  const cv::Mat beside = table.with_blob({8, 130}, 5, 200);
  watch.adopt(table.felt);
  EXPECT_FALSE(watch.update(1.3, beside, table.nothing_changed, table.play, [&] { return table.no_disks; }).foreign);
}

TEST(TableWatch, WhatHasNotChangedForTheAbsorbTimeBecomesTheTable) {
  SmallTable table;
  TableWatchOptions options;
  options.absorb_after_s = 2.0;
  TableWatch watch(options);
  auto no_disks = [&] { return table.no_disks; };
  watch.update(0.0, table.felt, table.nothing_changed, table.play, no_disks);
  const cv::Mat counter = table.with_blob({150, 90}, 4, 30);  // something dropped on the table
  cv::Mat landed = cv::Mat::zeros(table.felt.size(), CV_8U);
  cv::circle(landed, {150, 90}, 5, cv::Scalar(255), cv::FILLED);
  EXPECT_TRUE(watch.update(1.0, counter, landed, table.play, no_disks).foreign);  // it fell: changing here
  EXPECT_TRUE(watch.update(2.9, counter, table.nothing_changed, table.play, no_disks).foreign);
  EXPECT_FALSE(watch.update(3.0, counter, table.nothing_changed, table.play, no_disks).foreign) << "still for 2 s";
  EXPECT_FALSE(watch.update(3.1, counter, table.nothing_changed, table.play, no_disks).foreign);
}

TEST(TableWatch, WhatWasTakenInAndGoesAgainLeavesNoGhost) {
  SmallTable table;
  TableWatchOptions options;
  options.absorb_after_s = 2.0;
  TableWatch watch(options);
  auto no_disks = [&] { return table.no_disks; };
  watch.update(0.0, table.felt, table.nothing_changed, table.play, no_disks);
  const cv::Mat hand = table.with_blob({120, 60}, 15, 170);
  cv::Mat moved = cv::Mat::zeros(table.felt.size(), CV_8U);
  cv::circle(moved, {120, 60}, 16, cv::Scalar(255), cv::FILLED);
  EXPECT_TRUE(watch.update(1.0, hand, moved, table.play, no_disks).foreign);
  EXPECT_FALSE(watch.update(3.1, hand, table.nothing_changed, table.play, no_disks).foreign)
      << "held perfectly still: taken in";
  // It goes: the table shows as it was when it settled, which is nothing foreign.
  EXPECT_FALSE(watch.update(3.2, table.felt, moved, table.play, no_disks).foreign);
  EXPECT_FALSE(watch.update(3.3, table.felt, table.nothing_changed, table.play, no_disks).foreign);
  // Something new where it was is still seen.
  EXPECT_TRUE(watch.update(3.4, table.with_blob({120, 60}, 5, 20), moved, table.play, no_disks).foreign);
}

// The light of a small frame changed row by row: a ripple of `amplitude`, `cycles` swings over
// its height, and a gain.
cv::Mat relit(const cv::Mat& small, double amplitude, double cycles, double phase, double gain) {
  cv::Mat out(small.size(), CV_8U);
  for (int v = 0; v < small.rows; ++v)
    small.row(v).convertTo(out.row(v), CV_8U,
                           gain * (1 + amplitude * std::cos(2 * CV_PI * cycles * v / small.rows + phase)));
  return out;
}

TEST(TableWatch, FlickerAndAnExposureStepSinceTheSettleAreNotForeign) {
  SmallTable table;
  TableWatch watch;
  auto no_disks = [&] { return table.no_disks; };
  cv::Mat bright = table.felt + cv::Scalar(100);  // pale felt: a 3 % ripple is 6 grey levels
  watch.adopt(relit(bright, 0.03, 3.3, 0.0, 1.0));
  for (int k = 1; k <= 5; ++k)
    EXPECT_FALSE(watch
                     .update(k / 30.0, relit(bright, 0.03, 3.3, k * 2.1, k % 2 ? 0.9 : 1.0), table.nothing_changed,
                             table.play, no_disks)
                     .foreign)
        << k;
  // A hand at the play area's edge in the same light is.
  cv::Mat hand = bright.clone();
  cv::circle(hand, {22, 70}, 12, cv::Scalar(120), cv::FILLED);
  const TableWatchResult r =
      watch.update(0.3, relit(hand, 0.03, 3.3, 1.0, 0.9), table.nothing_changed, table.play, no_disks);
  EXPECT_TRUE(r.foreign);
  EXPECT_TRUE(r.foreign_box.contains({24, 70}));
}

}  // namespace
}  // namespace diskref::vision
