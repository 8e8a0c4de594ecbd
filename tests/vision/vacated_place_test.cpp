// Whether a disk out of sight has left its last place (vision/vacated_place.h): the picture there
// is the table's again where the disk's own picture differed from it; a disk still there, one
// covered by a hand, one hidden under a disk seen now, or one the colour of the table is not said
// to have left.
#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "vision/vacated_place.h"

namespace diskref::vision {
namespace {

// A 120 x 120 region of felt (grey 60, with a little sensor noise), a 60-pixel disk in its middle.
struct Place {
  cv::Mat table, own, none;
  Place() {
    table = cv::Mat(120, 120, CV_8U);
    cv::randn(table, 60, 3);
    own = cv::Mat::zeros(table.size(), CV_8U);
    cv::circle(own, {60, 60}, 30, cv::Scalar(255), cv::FILLED);
    none = cv::Mat::zeros(table.size(), CV_8U);
  }
  // The table with a white disk on it carrying a dark square (its tag's black cells), and noise.
  cv::Mat with_disk(int seed) const {
    cv::Mat m = table.clone();
    cv::circle(m, {60, 60}, 30, cv::Scalar(235), cv::FILLED);
    cv::rectangle(m, cv::Rect(45, 45, 30, 30), cv::Scalar(25), cv::FILLED);
    return noisy(m, seed);
  }
  cv::Mat bare(int seed) const { return noisy(table, seed); }
  static cv::Mat noisy(const cv::Mat& m, int seed) {
    cv::RNG rng(static_cast<std::uint64_t>(seed));
    cv::Mat noise(m.size(), CV_16S);
    rng.fill(noise, cv::RNG::NORMAL, 0, 3);
    cv::Mat out;
    cv::add(m, noise, out, cv::noArray(), CV_8U);
    return out;
  }
};

TEST(VacatedPlace, TheTableSeenAgainWhereTheDiskShowedIsAPlaceLeft) {
  const Place p;
  const VacatedPlace left = place_vacated(p.bare(2), p.with_disk(1), p.table, p.own, p.none, 0, 0);
  EXPECT_TRUE(left.vacated);
  EXPECT_EQ(left.open, left.own);
  EXPECT_GT(left.shown, left.own / 2) << "the white disk differs from the felt nearly everywhere";
  EXPECT_LE(left.still_differing, left.shown / 20);

  EXPECT_FALSE(place_vacated(p.with_disk(2), p.with_disk(1), p.table, p.own, p.none, 0, 0).vacated) << "still there";
  // Turned over, or its tag missed: the disk is there, another picture of it.
  cv::Mat turned = p.with_disk(2);
  cv::rectangle(turned, cv::Rect(50, 40, 20, 40), cv::Scalar(235), cv::FILLED);
  EXPECT_FALSE(place_vacated(turned, p.with_disk(1), p.table, p.own, p.none, 0, 0).vacated);
}

TEST(VacatedPlace, AHandOverItOrADiskOverMostOfItSaysNothing) {
  const Place p;
  cv::Mat hand = p.bare(2);
  cv::circle(hand, {70, 50}, 45, cv::Scalar(140), cv::FILLED);
  EXPECT_FALSE(place_vacated(hand, p.with_disk(1), p.table, p.own, p.none, 0, 0).vacated);
  // A disk seen now covers all but a sliver: too little is open to say anything...
  cv::Mat hidden = cv::Mat::zeros(p.table.size(), CV_8U);
  cv::circle(hidden, {72, 60}, 34, cv::Scalar(255), cv::FILLED);
  const VacatedPlace covered = place_vacated(p.bare(2), p.with_disk(1), p.table, p.own, hidden, 0, 0);
  EXPECT_FALSE(covered.vacated);
  EXPECT_LT(covered.open, covered.own * 3 / 10);
  // ...while one over a third of it leaves the rest to tell, even with that disk's white showing
  // (hidden pixels are not looked at).
  hidden.setTo(0);
  cv::circle(hidden, {100, 60}, 30, cv::Scalar(255), cv::FILLED);
  cv::Mat beside = p.bare(2);
  beside.setTo(235, hidden);
  EXPECT_TRUE(place_vacated(beside, p.with_disk(1), p.table, p.own, hidden, 0, 0).vacated);
}

TEST(VacatedPlace, ADiskTheColourOfTheTableLeavesNoEvidence) {
  const Place p;
  cv::Mat dark = p.table.clone();
  cv::circle(dark, {60, 60}, 30, cv::Scalar(64), cv::FILLED);
  const VacatedPlace r = place_vacated(p.bare(2), Place::noisy(dark, 1), p.table, p.own, p.none, 0, 0);
  EXPECT_FALSE(r.vacated);
  EXPECT_LT(r.shown, 40);
}

TEST(VacatedPlace, TheLightsChangeIsTakenOutOfEachPicture) {
  const Place p;
  cv::Mat brighter, darker;
  p.bare(2).convertTo(brighter, CV_8U, 1.0, 25);
  EXPECT_TRUE(place_vacated(brighter, p.with_disk(1), p.table, p.own, p.none, 25, 0).vacated);
  EXPECT_FALSE(place_vacated(brighter, p.with_disk(1), p.table, p.own, p.none, 0, 0).vacated)
      << "the shift not taken out: the felt around differs as much as a hand would, nothing is said";
  // The disk's own picture taken in dimmer light: its white still stands out from the felt.
  p.with_disk(1).convertTo(darker, CV_8U, 1.0, -20);
  EXPECT_TRUE(place_vacated(p.bare(2), darker, p.table, p.own, p.none, 0, -20).vacated);
  EXPECT_FALSE(place_vacated(darker, darker, p.table, p.own, p.none, -20, -20).vacated) << "still there, dimmer";
}

TEST(VacatedPlace, PicturesOfDifferentSizesOrKindsAreRefused) {
  const Place p;
  EXPECT_THROW(place_vacated(p.bare(1)(cv::Rect(0, 0, 60, 60)), p.with_disk(1), p.table, p.own, p.none, 0, 0), std::invalid_argument);
  cv::Mat colour;
  cv::cvtColor(p.bare(1), colour, cv::COLOR_GRAY2BGR);
  EXPECT_THROW(place_vacated(colour, p.with_disk(1), p.table, p.own, p.none, 0, 0), std::invalid_argument);
}

}  // namespace
}  // namespace diskref::vision
