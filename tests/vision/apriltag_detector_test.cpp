// The detector, alone and as the tracking pipeline's detection stage, on real photographs
// (tests/data/real-apriltag-photos, tag36h11): every reference tag found, corners within 1 px,
// nothing extra.
#include "vision/apriltag_detector.h"
#include "vision/tracker.h"

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <opencv2/imgcodecs.hpp>

#include "tests/vision/real_photo_references.h"

namespace diskref::vision {
namespace {

using testing::expect_matches_reference;
using testing::read_reference;
using testing::Reference;
using testing::reference_options;

class RealPhotos : public ::testing::TestWithParam<std::string> {
 protected:
  std::filesystem::path dir = testing::real_photos_dir();
  cv::Mat gray() const { return cv::imread((dir / (GetParam() + ".jpg")).string(), cv::IMREAD_GRAYSCALE); }
  std::vector<Reference> reference() const { return read_reference(dir / (GetParam() + ".txt")); }
};

TEST_P(RealPhotos, EveryReferenceTagFoundWithin1pxAndNothingExtra) {
  cv::Mat image = gray();
  ASSERT_FALSE(image.empty());
  auto ref = reference();
  ASSERT_FALSE(ref.empty());
  AprilTagDetector detector(reference_options());
  expect_matches_reference(detector.detect(image), ref);
}

// The same photos through the tracking pipeline's detection stage (search planning, region
// detection, merging): with nothing known about the table, the first frame is searched whole, and
// every detection is reported (here all rejected: no disk has these ids, and ids 0-3 are taken as
// corner markers of a table they do not belong to).
TEST_P(RealPhotos, ThroughTheTrackersDetectionStage) {
  cv::Mat image = gray();
  ASSERT_FALSE(image.empty());
  TrackerOptions options;
  options.detector = reference_options();
  Tracker tracker(model::default_table(), model::DiskRegistry{}, std::nullopt, options);
  TrackerResult result = tracker.process(image, 0, 0.0);
  std::vector<TagDetection> found;
  for (const auto& d : result.detections) found.push_back(d.tag);
  expect_matches_reference(found, reference());
  EXPECT_TRUE(result.track.disks.empty());
}

INSTANTIATE_TEST_SUITE_P(Photos, RealPhotos,
                         ::testing::Values("33369213973_9d9bb4cc96_c", "34085369442_304b6bafd9_c",
                                           "34139872896_defdb2f8d9_c"));

TEST(AprilTagDetector, RefusesUnknownFamilies) {
  DetectorOptions options;
  options.family = "tag99h99";
  EXPECT_THROW(AprilTagDetector detector(options), std::invalid_argument);
}

}  // namespace
}  // namespace diskref::vision
