// Real photographs (NASA Swarmathon robots with tag36h11 tags; tests/data/real-apriltag-photos, the
// apriltag library's own regression photos): each decodes through decode_photo, the path a
// dispute's photo takes, and the detector finds every reference tag, its corners within a pixel,
// and nothing else.
#include <filesystem>
#include <vector>

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include "photo/photo_decode.h"
#include "tests/vision/real_photo_references.h"
#include "vision/apriltag_detector.h"

namespace diskref::photo {
namespace {

TEST(RealPhotos, DecodeAndEveryReferenceTagIsFound) {
  int photos = 0;
  for (const auto& entry : std::filesystem::directory_iterator(vision::testing::real_photos_dir())) {
    if (entry.path().extension() != ".jpg") continue;
    ++photos;
    SCOPED_TRACE(entry.path().string());
    const Photo photo = load_photo(entry.path());
    const std::vector<vision::testing::Reference> references =
        vision::testing::read_reference(std::filesystem::path(entry.path()).replace_extension(".txt"));
    ASSERT_FALSE(references.empty());
    vision::AprilTagDetector detector(vision::testing::reference_options());
    cv::Mat gray;
    cv::cvtColor(photo.image, gray, cv::COLOR_BGR2GRAY);
    vision::testing::expect_matches_reference(detector.detect(gray), references);
  }
  EXPECT_EQ(photos, 3);
}

}  // namespace
}  // namespace diskref::photo
