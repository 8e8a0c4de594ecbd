// A small foreign part looked at pixel by pixel: what no known disk explains is found with its
// boundary, however noisy the camera; what a disk explains, what the table showed, and specks are not.
#include "vision/foreign_shapes.h"

#include <random>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

namespace diskref::vision {
namespace {

constexpr int kSize = 120;

cv::Mat felt(int level = 40) {
  return cv::Mat(kSize, kSize, CV_8U, cv::Scalar(level));
}

// Gaussian sensor noise of `sigma` grey levels, the same seed giving the same noise.
cv::Mat noisy(const cv::Mat& clean, double sigma, unsigned seed) {
  cv::Mat noise(clean.size(), CV_16S);
  std::mt19937 rng(seed);
  std::normal_distribution<double> n(0, sigma);
  for (int y = 0; y < noise.rows; ++y)
    for (int x = 0; x < noise.cols; ++x) noise.at<short>(y, x) = static_cast<short>(std::lround(n(rng)));
  cv::Mat out;
  cv::add(clean, noise, out, cv::noArray(), CV_8U);
  return out;
}

// Whether every point of `outline` lies on the boundary of `pixels` (in it, with a neighbour out of it).
bool on_boundary(const std::vector<cv::Point>& outline, const cv::Mat& pixels) {
  for (const cv::Point& p : outline) {
    if (pixels.at<uchar>(p) == 0) return false;
    bool edge = false;
    for (int dy = -1; dy <= 1; ++dy)
      for (int dx = -1; dx <= 1; ++dx) {
        const cv::Point q = p + cv::Point(dx, dy);
        if (q.x < 0 || q.y < 0 || q.x >= pixels.cols || q.y >= pixels.rows || pixels.at<uchar>(q) == 0) edge = true;
      }
    if (!edge) return false;
  }
  return true;
}

TEST(ForeignShapes, ARimOutsideAKnownDiskIsFoundAndTheDiskItselfIsNot) {
  const cv::Mat background = felt();
  cv::Mat now = background.clone();
  // A lower disk (white) and an upper one over most of it (white too): the upper one is known.
  cv::circle(now, {55, 60}, 25, cv::Scalar(220), cv::FILLED, cv::LINE_AA);
  cv::circle(now, {65, 60}, 25, cv::Scalar(200), cv::FILLED, cv::LINE_AA);
  cv::Mat explained = cv::Mat::zeros(now.size(), CV_8U);
  cv::circle(explained, {65, 60}, 28, cv::Scalar(255), cv::FILLED);
  const std::vector<ForeignShape> shapes = foreign_shapes(now, background, explained, 0);
  ASSERT_EQ(shapes.size(), 1u);
  // The rim: outside the upper disk's footprint, inside the lower disk (and its blurred edge).
  for (const cv::Point& p : shapes[0].outline) {
    EXPECT_LE(cv::norm(cv::Point2d(p) - cv::Point2d(55, 60)), 25 + 2.5) << p;
    EXPECT_GE(cv::norm(cv::Point2d(p) - cv::Point2d(65, 60)), 28 - 1) << p;
  }
  EXPECT_LE(cv::boundingRect(shapes[0].outline).x, 55 - 25 + 1) << "all the way out to the lower disk's edge";
  EXPECT_TRUE(on_boundary(shapes[0].outline, shapes[0].pixels));
  EXPECT_EQ(cv::countNonZero(shapes[0].pixels & explained), 0) << "nothing a known disk explains";
}

TEST(ForeignShapes, TwoSeparateThingsAreTwoShapes) {
  const cv::Mat background = felt();
  cv::Mat now = background.clone();
  cv::rectangle(now, cv::Rect(10, 10, 4, 30), cv::Scalar(200), cv::FILLED);  // a counter on its edge
  cv::rectangle(now, cv::Rect(80, 70, 20, 20), cv::Scalar(10), cv::FILLED);  // something darker than the felt
  EXPECT_EQ(foreign_shapes(now, background, {}, 0).size(), 2u);
}

TEST(ForeignShapes, NoiseALightChangeAndSpecksAreNothing) {
  const cv::Mat background = noisy(felt(), 6, 1);
  // The same table in another frame: other noise, 20 levels brighter all over (the shift given).
  cv::Mat now = noisy(felt(60), 6, 2);
  EXPECT_TRUE(foreign_shapes(now, background, {}, 20).empty());
  // A pixel off by 60 levels (a codec's speck) is no thing; a crumb of four bright ones is.
  now.at<uchar>(50, 50) = static_cast<uchar>(now.at<uchar>(50, 50) + 60);
  EXPECT_TRUE(foreign_shapes(now, background, {}, 20).empty());
  cv::rectangle(now, cv::Rect(90, 90, 2, 2), cv::Scalar(250), cv::FILLED);
  EXPECT_EQ(foreign_shapes(now, background, {}, 20).size(), 1u);
  // Without the shift the whole region differs by 20 levels, which is taken for its noise level:
  // only what stands out of that is found (so the caller gives the shift it measured).
  const std::vector<ForeignShape> unshifted = foreign_shapes(now, background, {}, 0);
  ASSERT_EQ(unshifted.size(), 1u);
  EXPECT_LT(cv::countNonZero(unshifted[0].pixels), 30);
}

TEST(ForeignShapes, ANoisyCameraRaisesTheThresholdButKeepsAClearThing) {
  const cv::Mat clean = felt();
  cv::Mat with = clean.clone();
  cv::circle(with, {60, 60}, 10, cv::Scalar(200), cv::FILLED);
  // Noise of 12 levels a pixel: far over the 10-level floor after the 3 x 3 mean of its magnitude.
  const std::vector<ForeignShape> shapes = foreign_shapes(noisy(with, 12, 3), noisy(clean, 12, 4), {}, 0);
  ASSERT_EQ(shapes.size(), 1u);
  const cv::Rect box = cv::boundingRect(shapes[0].outline);
  EXPECT_NEAR(box.x + box.width / 2.0, 60, 2);
  EXPECT_NEAR(box.width, 21, 4);
}

TEST(ForeignShapes, WhatTheDisksExplainWhollyLeavesNothing) {
  const cv::Mat background = felt();
  cv::Mat now = background.clone();
  cv::circle(now, {60, 60}, 20, cv::Scalar(220), cv::FILLED, cv::LINE_AA);
  cv::Mat explained = cv::Mat::zeros(now.size(), CV_8U);
  cv::circle(explained, {60, 60}, 23, cv::Scalar(255), cv::FILLED);
  EXPECT_TRUE(foreign_shapes(now, background, explained, 0).empty());
  // Explained everywhere: nothing to look at.
  explained.setTo(cv::Scalar(255));
  EXPECT_TRUE(foreign_shapes(now, background, explained, 0).empty());
}

TEST(ForeignShapes, RegionsOfDifferentSizesOrTypesAreRefused) {
  EXPECT_THROW(foreign_shapes(felt(), cv::Mat(10, 10, CV_8U), {}, 0), std::invalid_argument);
  EXPECT_THROW(foreign_shapes(felt(), felt(), cv::Mat(10, 10, CV_8U), 0), std::invalid_argument);
  cv::Mat colour(kSize, kSize, CV_8UC3);
  EXPECT_THROW(foreign_shapes(colour, felt(), {}, 0), std::invalid_argument);
}

}  // namespace
}  // namespace diskref::vision
