// Detection over regions: tags drawn at known corners are found in their regions with sub-pixel
// corners, one detection per tag even when regions overlap, nothing outside the regions.
#include "vision/tag_search.h"

#include <gtest/gtest.h>

extern "C" {
#include <apriltag/tagStandard41h12.h>
}

#include "vision_test_support.h"

namespace diskref::vision {
namespace {

struct DrawnTag {
  int id;
  std::array<cv::Point2d, 4> corners;
};

// A 1280x720 grey table with white disks carrying tags of several sizes and turns.
std::vector<DrawnTag> draw_scene(cv::Mat& grey) {
  grey = cv::Mat(720, 1280, CV_8U, cv::Scalar(70));
  apriltag_family_t* family = tagStandard41h12_create();
  std::vector<DrawnTag> tags;
  const struct {
    int id;
    cv::Point2d centre;
    double side;
    double angle_deg;
  } layout[] = {
      {10, {200, 200}, 40, 0}, {11, {500, 220}, 30, 33}, {40, {800, 400}, 16, -70}, {12, {1000, 600}, 25, 180}};
  for (const auto& l : layout) {
    cv::circle(grey, cv::Point(static_cast<int>(l.centre.x), static_cast<int>(l.centre.y)),
               static_cast<int>(l.side * 1.5), cv::Scalar(235), cv::FILLED, cv::LINE_AA);
    const double a = geom::deg_to_rad(l.angle_deg), h = l.side / 2;
    // Image y is down: the upright bitmap's bottom-left is at (-h, +h) before turning.
    const cv::Point2d local[4] = {{-h, h}, {h, h}, {h, -h}, {-h, -h}};
    DrawnTag t{l.id, {}};
    for (std::size_t k = 0; k < 4; ++k)
      t.corners[k] = l.centre + cv::Point2d(std::cos(a) * local[k].x - std::sin(a) * local[k].y,
                                            std::sin(a) * local[k].x + std::cos(a) * local[k].y);
    test::draw_tag(grey, family, l.id, t.corners);
    tags.push_back(t);
  }
  tagStandard41h12_destroy(family);
  return tags;
}

double worst_corner_error(const TagDetection& d, const DrawnTag& t) {
  double worst = 0;
  for (std::size_t k = 0; k < 4; ++k) worst = std::max(worst, cv::norm(d.corners[k] - t.corners[k]));
  return worst;
}

TEST(TagSearch, FindsEveryTagInTheWholeImageWithSubpixelCorners) {
  cv::Mat grey;
  auto drawn = draw_scene(grey);
  TagSearch search(DetectorOptions{});
  std::vector<SearchRegion> whole = {{cv::Rect(0, 0, grey.cols, grey.rows), 1.0}};
  auto found = search.detect(grey, whole);
  ASSERT_EQ(found.size(), drawn.size());
  for (const auto& t : drawn) {
    auto it = std::find_if(found.begin(), found.end(), [&](const TagDetection& d) { return d.id == t.id; });
    ASSERT_NE(it, found.end()) << t.id;
    EXPECT_LT(worst_corner_error(*it, t), 0.25) << t.id;
  }
}

TEST(TagSearch, OverlappingRegionsGiveOneDetectionPerTagAndNothingOutside) {
  cv::Mat grey;
  auto drawn = draw_scene(grey);
  TagSearch search(DetectorOptions{});
  // Three windows on tag 10 (two overlapping, one with coarser decimation), one on tag 40; tags
  // 11 and 12 lie in no window.
  std::vector<SearchRegion> regions = {{cv::Rect(130, 130, 140, 140), 1.0},
                                       {cv::Rect(150, 140, 130, 130), 2.0},
                                       {cv::Rect(120, 120, 160, 160), 1.5},
                                       {cv::Rect(760, 360, 80, 80), 1.0}};
  auto found = search.detect(grey, regions);
  ASSERT_EQ(found.size(), 2u);
  EXPECT_EQ(found[0].id, 10);
  EXPECT_EQ(found[1].id, 40);
  EXPECT_LT(worst_corner_error(found[0], drawn[0]), 0.25);
  EXPECT_LT(worst_corner_error(found[1], drawn[2]), 0.25);
}

TEST(TagSearch, MergesOnlyTheSameIdAtTheSamePlace) {
  TagDetection a;
  a.id = 5;
  a.center = {100, 100};
  a.decision_margin = 50;
  TagDetection b = a;
  b.center = {100.5, 100.5};
  b.decision_margin = 80;
  TagDetection c = a;
  c.center = {300, 100};
  TagDetection d = a;
  d.id = 6;
  auto merged = merge_duplicate_detections({a, b, c, d}, 2.0);
  ASSERT_EQ(merged.size(), 3u);
  EXPECT_EQ(merged[0].decision_margin, 80);  // the better of the two at one place
}

// apriltag 3.3.0's own worker pool crashed now and then on a detector's first call (a worker read
// the task list while it grew; apriltag_detector.h). Every search here is new, on two threads,
// with regions and enlarged looks shared out between its detectors: each finds the same tags. Run
// under the sanitizers, the old pool failed about one time in ten of these.
TEST(TagSearch, NewSearchesOnTwoThreadsFindTheSameTagsEveryTime) {
  cv::Mat grey;
  const std::vector<DrawnTag> drawn = draw_scene(grey);
  const std::vector<SearchRegion> regions = {{cv::Rect(0, 0, 1280, 720), 1.0}};
  const std::vector<SearchRegion> halves = {{cv::Rect(0, 0, 700, 720), 1.0}, {cv::Rect(600, 0, 680, 720), 2.0}};
  const std::vector<cv::Rect> looks = {cv::Rect(150, 150, 100, 100), cv::Rect(740, 340, 120, 120)};
  for (int run = 0; run < 30; ++run) {
    DetectorOptions options;
    options.threads = 2;
    TagSearch search(options);
    const std::vector<TagDetection> enlarged = search.detect_enlarged(grey, looks, 2);
    ASSERT_EQ(enlarged.size(), 2u) << "run " << run;
    EXPECT_EQ(enlarged[0].id, 10);
    EXPECT_EQ(enlarged[1].id, 40);
    ASSERT_EQ(search.detect(grey, regions).size(), drawn.size()) << "run " << run;
    ASSERT_EQ(search.detect(grey, halves).size(), drawn.size()) << "run " << run;
  }
  DetectorOptions no_threads;
  no_threads.library_threads = 0;
  EXPECT_THROW(AprilTagDetector{no_threads}, std::invalid_argument);
}

// A tag of 2 pixels a cell, softly focused: missed at the camera's resolution, found in the
// picture enlarged, its corners where they were drawn.
TEST(TagSearch, ASmallSoftTagMissedAsItIsIsFoundEnlargedWithItsCornersInPlace) {
  cv::Mat sharp(240, 320, CV_8U, cv::Scalar(60));
  const cv::Point2d centre(171.3, 118.6);
  cv::circle(sharp, cv::Point(171, 119), 16, cv::Scalar(235), cv::FILLED, cv::LINE_AA);
  const double h = 5.0, a = geom::deg_to_rad(27);
  const cv::Point2d local[4] = {{-h, h}, {h, h}, {h, -h}, {-h, -h}};
  DrawnTag t{40, {}};
  for (std::size_t k = 0; k < 4; ++k)
    t.corners[k] = centre + cv::Point2d(std::cos(a) * local[k].x - std::sin(a) * local[k].y,
                                        std::sin(a) * local[k].x + std::cos(a) * local[k].y);
  apriltag_family_t* family = tagStandard41h12_create();
  test::draw_tag(sharp, family, t.id, t.corners);
  tagStandard41h12_destroy(family);
  cv::Mat soft;
  cv::GaussianBlur(sharp, soft, cv::Size(0, 0), 0.9);

  TagSearch search(DetectorOptions{});
  const cv::Rect region(120, 70, 110, 100);
  const std::vector<SearchRegion> as_it_is = {{region, 1.0}};
  EXPECT_TRUE(search.detect(soft, as_it_is).empty()) << "the case this is for: missed at the camera's resolution";
  const std::vector<cv::Rect> looks = {region};
  const std::vector<TagDetection> found = search.detect_enlarged(soft, looks, 2);
  ASSERT_EQ(found.size(), 1u);
  EXPECT_EQ(found[0].id, 40);
  EXPECT_LT(worst_corner_error(found[0], t), 0.4);
  EXPECT_LT(cv::norm(found[0].center - centre), 0.3);
  // The decimation the search uses for its regions is left as it was.
  EXPECT_TRUE(search.detect(soft, as_it_is).empty());
  EXPECT_THROW(search.detect_enlarged(soft, looks, 0), std::invalid_argument);
  const std::vector<cv::Rect> outside = {cv::Rect(400, 400, 10, 10)};
  EXPECT_TRUE(search.detect_enlarged(soft, outside, 2).empty()) << "a region outside the picture";
  // Two overlapping looks, shared out between the detectors: one detection of the tag.
  const std::vector<cv::Rect> overlapping = {region, cv::Rect(140, 80, 100, 90)};
  const std::vector<TagDetection> once = search.detect_enlarged(soft, overlapping, 2);
  ASSERT_EQ(once.size(), 1u);
  EXPECT_LT(worst_corner_error(once[0], t), 0.4);
}

}  // namespace
}  // namespace diskref::vision
