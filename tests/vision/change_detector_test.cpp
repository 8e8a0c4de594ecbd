// Change detection: nothing for an unchanged (or uniformly brightened) frame, nor for a webcam's
// light changing smoothly across the rows and from frame to frame (mains flicker, auto-exposure);
// a region around what moved.
#include "vision/change_detector.h"

#include <cmath>
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

// A webcam's table at 1080p: dark mat with bright tags and pale wood at the sides, sensor noise.
cv::Mat webcam_table(int seed) {
  cv::Mat grey(1080, 1920, CV_8U, cv::Scalar(35));
  cv::rectangle(grey, cv::Rect(0, 0, 260, 1080), cv::Scalar(150), cv::FILLED);
  cv::rectangle(grey, cv::Rect(1660, 0, 260, 1080), cv::Scalar(150), cv::FILLED);
  cv::RNG layout(5);
  for (int k = 0; k < 40; ++k) {
    const cv::Point at(layout.uniform(300, 1600), layout.uniform(40, 1000));
    cv::rectangle(grey, cv::Rect(at.x, at.y, 60, 60), cv::Scalar(225), cv::FILLED);
    cv::rectangle(grey, cv::Rect(at.x + 15, at.y + 15, 20, 20), cv::Scalar(20), cv::FILLED);
  }
  cv::RNG rng(static_cast<uint64_t>(seed));
  cv::Mat noise(grey.size(), CV_8S);
  rng.fill(noise, cv::RNG::NORMAL, 0, 2);
  cv::add(grey, noise, grey, cv::noArray(), CV_8U);
  return grey;
}

// Mains flicker through a rolling shutter: each row's light times 1 + amplitude * cos(phase),
// `cycles` swings over the frame's height; and an overall gain (auto-exposure).
cv::Mat lit(const cv::Mat& grey, double amplitude, double cycles, double phase, double gain = 1.0) {
  cv::Mat out(grey.size(), CV_8U);
  for (int v = 0; v < grey.rows; ++v) {
    const double light = gain * (1 + amplitude * std::cos(2 * CV_PI * cycles * v / grey.rows + phase));
    grey.row(v).convertTo(out.row(v), CV_8U, light);
  }
  return out;
}

TEST(ChangeDetector, AFlickerRippleRollingThroughTheRowsIsNoChange) {
  // A 3 % ripple, 3.3 swings over the frame, a third of a swing further each frame (50 Hz light
  // at 30 frames a second).
  ChangeDetector detector;
  detector.update(lit(webcam_table(1), 0.03, 3.3, 0.0));
  for (int k = 1; k <= 6; ++k) {
    const ChangeResult r = detector.update(lit(webcam_table(1 + k), 0.03, 3.3, k * 2 * CV_PI / 3));
    EXPECT_TRUE(r.regions.empty()) << "frame " << k << ": " << r.regions.size() << " regions";
  }
  // The same frames compared as before (one brightness shift for the whole frame, a threshold in
  // grey levels only) do change: the test shows what matching the light takes away.
  ChangeDetectorOptions global_only;
  global_only.match_row_light = false;
  global_only.relative_threshold = 0;
  ChangeDetector before(global_only);
  before.update(lit(webcam_table(1), 0.03, 3.3, 0.0));
  EXPECT_FALSE(before.update(lit(webcam_table(2), 0.03, 3.3, 2 * CV_PI / 3)).regions.empty());
}

TEST(ChangeDetector, ABlockAVideoCodecKeptFromAnEarlierFrameUnderFlickerIsNoChange) {
  // H.264 keeps a block that changed little as it was (a skip block): under a ripple the block
  // keeps the old light while the rest of its rows take the new one, a few per cent apart.
  cv::Mat table = webcam_table(1);
  cv::rectangle(table, cv::Rect(300, 300, 60, 60), cv::Scalar(225), cv::FILLED);  // a white tag's margin
  // Rows 320-335 are where the ripple moves most between the two frames.
  const cv::Mat before = lit(table, 0.03, 3.3, 0.0);
  cv::Mat after = lit(table, 0.03, 3.3, 2 * CV_PI / 3);
  // Blocks of several macroblocks (a lone one is a speck: the next test).
  for (const cv::Rect block : {cv::Rect(312, 312, 40, 32), cv::Rect(1600, 640, 48, 32), cv::Rect(96, 96, 32, 32)})
    before(block).copyTo(after(block));
  ChangeDetector detector;
  detector.update(before);
  EXPECT_TRUE(detector.update(after).regions.empty());
  // With a threshold in grey levels only, the white block kept in the old light is a change.
  ChangeDetectorOptions levels_only;
  levels_only.relative_threshold = 0;
  ChangeDetector strict(levels_only);
  strict.update(before);
  EXPECT_FALSE(strict.update(after).regions.empty());
}

TEST(ChangeDetector, ASpeckTheSizeOfACodecBlockJustOverItsThresholdIsNoChangeButMoreIs) {
  const cv::Mat table = webcam_table(1);
  auto changes = [&](const cv::Rect& block, int levels) {
    ChangeDetector detector;
    detector.update(table);
    cv::Mat after = webcam_table(2);
    after(block) += cv::Scalar(levels);
    return !detector.update(after).regions.empty();
  };
  // On the dark mat (threshold 8 grey levels): one 16 x 16 block quantized 12 levels brighter.
  EXPECT_FALSE(changes(cv::Rect(800, 200, 16, 16), 12));
  EXPECT_FALSE(changes(cv::Rect(808, 200, 16, 16), 12)) << "straddling two shrunk pixels";
  // Twice the threshold is no codec's noise; nor is a patch larger than a block.
  EXPECT_TRUE(changes(cv::Rect(800, 200, 16, 16), 40));
  EXPECT_TRUE(changes(cv::Rect(800, 200, 48, 48), 12));
}

TEST(ChangeDetector, AnAutoExposureStepIsNoChange) {
  ChangeDetector detector;
  detector.update(webcam_table(1));
  for (double gain : {0.96, 0.92, 0.88, 0.92, 1.0, 1.1})
    EXPECT_TRUE(detector.update(lit(webcam_table(2), 0.0, 0.0, 0.0, gain)).regions.empty()) << gain;
}

TEST(ChangeDetector, ADiskMovingUnderFlickerIsAChange) {
  ChangeDetector detector;
  cv::Mat a = webcam_table(1), b = webcam_table(2);
  cv::circle(a, {900, 500}, 45, cv::Scalar(225), cv::FILLED);
  cv::circle(a, {900, 500}, 15, cv::Scalar(20), cv::FILLED);
  cv::circle(b, {960, 500}, 45, cv::Scalar(225), cv::FILLED);
  cv::circle(b, {960, 500}, 15, cv::Scalar(20), cv::FILLED);
  detector.update(lit(a, 0.03, 3.3, 0.0));
  const ChangeResult r = detector.update(lit(b, 0.03, 3.3, 2 * CV_PI / 3, 0.92));
  ASSERT_FALSE(r.regions.empty());
  cv::Rect all;
  for (const auto& region : r.regions) all = all.area() ? (all | region) : region;
  EXPECT_TRUE(all.contains({870, 500}));
  EXPECT_TRUE(all.contains({990, 500}));
  EXPECT_LT(all.area(), 400 * 300) << "only where the disk was and is";
}

TEST(ChangeDetector, AHandComingInAtTheEdgeWhileTheExposureStepsIsAChange) {
  // A hand covering a band of rows from the image's left edge across the wood and onto the mat
  // (less than half a row): the rows' light is matched by the rest of each row.
  ChangeDetector detector;
  const cv::Mat table = webcam_table(1);
  detector.update(lit(table, 0.03, 3.3, 0.0));
  cv::Mat hand = webcam_table(2);
  cv::rectangle(hand, cv::Rect(0, 450, 700, 160), cv::Scalar(170), cv::FILLED);
  const ChangeResult r = detector.update(lit(hand, 0.03, 3.3, 2 * CV_PI / 3, 0.9));
  ASSERT_FALSE(r.regions.empty());
  cv::Rect all;
  for (const auto& region : r.regions) all = all.area() ? (all | region) : region;
  EXPECT_TRUE(all.contains({650, 530}));
}

TEST(RowLight, GivesEachRowsLightAgainstTheReference) {
  const cv::Mat table = webcam_table(1);
  cv::Mat small, brighter;
  cv::resize(table, small, {240, 135}, 0, 0, cv::INTER_AREA);
  cv::resize(lit(table, 0.05, 2.0, 0.0, 0.9), brighter, {240, 135}, 0, 0, cv::INTER_AREA);
  const cv::Mat gains = row_light(brighter, small);
  ASSERT_EQ(gains.rows, 135);
  for (int v = 0; v < gains.rows; ++v) {
    const double expected = 0.9 * (1 + 0.05 * std::cos(2 * CV_PI * 2.0 * (v + 0.5) / 135));
    EXPECT_NEAR(gains.at<float>(v), expected, 0.01) << "row " << v;
  }
}

}  // namespace
}  // namespace diskref::vision
