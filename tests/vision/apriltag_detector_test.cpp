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

namespace diskref::vision {
namespace {

struct Reference {
  int id;
  std::array<cv::Point2d, 4> corners;  // apriltag convention (centres at i + 0.5)
};

std::vector<Reference> read_reference(const std::filesystem::path& file) {
  std::ifstream in(file);
  std::vector<Reference> out;
  std::string line;
  while (std::getline(in, line)) {
    Reference r{};
    double p[8];
    if (std::sscanf(line.c_str(), "%d, (%lf %lf), (%lf %lf), (%lf %lf), (%lf %lf)", &r.id, &p[0], &p[1], &p[2], &p[3],
                    &p[4], &p[5], &p[6], &p[7]) != 9)
      continue;
    for (int k = 0; k < 4; ++k) r.corners[static_cast<std::size_t>(k)] = {p[2 * k], p[2 * k + 1]};
    out.push_back(r);
  }
  return out;
}

// Every reference tag found with all corners within 1 px, and nothing extra.
void expect_matches_reference(const std::vector<TagDetection>& found, const std::vector<Reference>& reference) {
  std::vector<bool> matched(found.size(), false);
  for (const auto& ref : reference) {
    double best = 1e9;
    std::size_t best_index = found.size();
    for (std::size_t i = 0; i < found.size(); ++i) {
      if (found[i].id != ref.id || matched[i]) continue;
      double worst_corner = 0;
      for (std::size_t k = 0; k < 4; ++k) {
        // Reference corners are in apriltag's convention; ours in OpenCV's.
        cv::Point2d ref_cv = ref.corners[k] - cv::Point2d(0.5, 0.5);
        worst_corner = std::max(worst_corner, cv::norm(found[i].corners[k] - ref_cv));
      }
      if (worst_corner < best) {
        best = worst_corner;
        best_index = i;
      }
    }
    ASSERT_LT(best_index, found.size()) << "reference tag " << ref.id << " not found";
    EXPECT_LT(best, 1.0) << "tag " << ref.id;
    matched[best_index] = true;
  }
  for (std::size_t i = 0; i < found.size(); ++i) EXPECT_TRUE(matched[i]) << "extra detection of id " << found[i].id;
}

// The reference detections were made with the library's defaults for this family (2 corrected
// bits; tag36h11 has a minimum Hamming distance of 11, so that is safe), full resolution and no
// edge refinement.
DetectorOptions reference_options() {
  DetectorOptions options;
  options.family = "tag36h11";
  options.quad_decimate = 1.0;
  options.refine_edges = false;
  options.max_hamming = 2;
  return options;
}

class RealPhotos : public ::testing::TestWithParam<std::string> {
 protected:
  std::filesystem::path dir = std::filesystem::path(DISKREF_TEST_DATA_DIR) / "real-apriltag-photos";
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
