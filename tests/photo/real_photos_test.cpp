// Real photographs (NASA Swarmathon robots with tag36h11 tags; /work/shared/testdata, the apriltag
// library's own regression photos): each decodes through decode_photo, and the detector finds every
// reference tag, its corners within a pixel. Skipped where the photos are absent.
#include <filesystem>
#include <fstream>
#include <regex>
#include <string>
#include <vector>

#include <gtest/gtest.h>

#include "photo/photo_decode.h"
#include "vision/apriltag_detector.h"

#include <opencv2/imgproc.hpp>

namespace diskref::photo {
namespace {

const std::filesystem::path kPhotos = "/work/shared/testdata/real-apriltag-photos";

struct Reference {
  int id = 0;
  std::array<cv::Point2d, 4> corners;
};

std::vector<Reference> read_references(const std::filesystem::path& file) {
  std::vector<Reference> references;
  std::ifstream in(file);
  const std::regex number(R"([-0-9.]+)");
  for (std::string line; std::getline(in, line);) {
    std::vector<double> values;
    for (auto it = std::sregex_iterator(line.begin(), line.end(), number); it != std::sregex_iterator(); ++it) {
      values.push_back(std::stod(it->str()));
    }
    if (values.size() != 9) continue;
    Reference reference;
    reference.id = static_cast<int>(values[0]);
    // The library's own corners (pixel centres at i + 0.5) in OpenCV's convention, as the
    // detector returns them.
    for (int k = 0; k < 4; ++k) reference.corners[std::size_t(k)] = {values[std::size_t(1 + 2 * k)] - 0.5, values[std::size_t(2 + 2 * k)] - 0.5};
    references.push_back(reference);
  }
  return references;
}

TEST(RealPhotos, DecodeAndEveryReferenceTagIsFound) {
  if (!std::filesystem::is_directory(kPhotos)) GTEST_SKIP() << kPhotos << " is absent";
  int photos = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kPhotos)) {
    if (entry.path().extension() != ".jpg") continue;
    ++photos;
    const Photo photo = load_photo(entry.path());
    const std::vector<Reference> references = read_references(std::filesystem::path(entry.path()).replace_extension(".txt"));
    ASSERT_FALSE(references.empty()) << entry.path();
    vision::DetectorOptions options;
    options.family = "tag36h11";
    options.quad_decimate = 1;
    options.refine_edges = false;
    options.max_hamming = 2;  // as the reference detections were made (the library's default)
    vision::AprilTagDetector detector(options);
    cv::Mat gray;
    cv::cvtColor(photo.image, gray, cv::COLOR_BGR2GRAY);
    const auto detections = detector.detect(gray);
    EXPECT_EQ(detections.size(), references.size()) << entry.path();
    for (const Reference& reference : references) {
      bool found = false;
      for (const auto& detection : detections) {
        double worst = 0;
        for (int k = 0; k < 4; ++k) worst = std::max(worst, cv::norm(detection.corners[std::size_t(k)] - reference.corners[std::size_t(k)]));
        if (detection.id == reference.id && worst < 1.0) found = true;
      }
      EXPECT_TRUE(found) << entry.path() << ": tag " << reference.id << " at " << reference.corners[0];
    }
  }
  EXPECT_GE(photos, 1);
}

}  // namespace
}  // namespace diskref::photo
