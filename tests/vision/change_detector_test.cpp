// Change detection: nothing for an unchanged (or uniformly brightened) frame; a region around
// what moved.
#include "vision/change_detector.h"

#include <random>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

namespace diskref::vision {
namespace {

cv::Mat noisy_table(int seed) {
  cv::Mat grey(720, 1280, CV_8U, cv::Scalar(110));
  cv::RNG rng(static_cast<uint64_t>(seed));
  cv::Mat noise(grey.size(), CV_8S);
  rng.fill(noise, cv::RNG::NORMAL, 0, 3);  // sensor noise, 3 grey levels
  cv::add(grey, noise, grey, cv::noArray(), CV_8U);
  return grey;
}

TEST(ChangeDetector, FirstFrameHasNothingToCompare) {
  ChangeDetector detector;
  ChangeResult r = detector.update(noisy_table(1));
  EXPECT_TRUE(r.first_frame);
  EXPECT_TRUE(r.regions.empty());
  EXPECT_EQ(r.scale, 1280 / 240);
}

TEST(ChangeDetector, SensorNoiseAndABrightnessShiftAreNotChange) {
  ChangeDetector detector;
  detector.update(noisy_table(1));
  EXPECT_TRUE(detector.update(noisy_table(2)).regions.empty());
  cv::Mat brighter = noisy_table(3) + cv::Scalar(25);
  EXPECT_TRUE(detector.update(brighter).regions.empty());
}

TEST(ChangeDetector, AMovedObjectGivesARegionAroundBothPlaces) {
  ChangeDetector detector;
  cv::Mat a = noisy_table(1), b = noisy_table(2);
  cv::circle(a, {400, 300}, 30, cv::Scalar(230), cv::FILLED);
  cv::circle(b, {460, 300}, 30, cv::Scalar(230), cv::FILLED);
  detector.update(a);
  ChangeResult r = detector.update(b);
  ASSERT_FALSE(r.regions.empty());
  cv::Rect all;
  for (const auto& region : r.regions) all = all.area() ? (all | region) : region;
  // Covers where the disk left and where it arrived (the overlap of the two discs did not change).
  EXPECT_TRUE(all.contains({372, 300}));
  EXPECT_TRUE(all.contains({488, 300}));
  EXPECT_TRUE(all.contains({430, 275}));
  EXPECT_LT(all.area(), 200 * 120);
  EXPECT_GT(ChangeDetector::changed_fraction(r, cv::Mat(r.changed_small.size(), CV_8U, cv::Scalar(255))), 0.0);
}

TEST(ChangeDetector, ARegionThatStopsChangingIsReportedAsEnded) {
  ChangeDetector detector;
  cv::Mat still = noisy_table(1);
  cv::Mat hand = still.clone();
  cv::circle(hand, {700, 400}, 60, cv::Scalar(200), cv::FILLED);
  detector.update(still);
  ChangeResult r = detector.update(hand);  // the hand comes
  EXPECT_FALSE(r.regions.empty());
  EXPECT_TRUE(r.ended_regions.empty()) << "still changing: nothing to search yet";
  r = detector.update(hand);  // the hand rests
  EXPECT_TRUE(r.regions.empty());
  ASSERT_FALSE(r.ended_regions.empty());
  EXPECT_TRUE(r.ended_regions.front().contains({700, 400}));
  r = detector.update(still);  // the hand leaves: changing again
  EXPECT_FALSE(r.regions.empty());
  r = detector.update(still);  // and quiet: what it left is to be searched
  ASSERT_FALSE(r.ended_regions.empty());
  EXPECT_TRUE(r.ended_regions.front().contains({700, 400}));
  for (int i = 0; i < 3; ++i) r = detector.update(still);
  EXPECT_TRUE(r.ended_regions.empty()) << "ended only for a couple of frames";
}

}  // namespace
}  // namespace diskref::vision
