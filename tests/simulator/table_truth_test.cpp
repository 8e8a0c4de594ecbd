// The ground truth is exact: AprilTag detections in rendered frames agree with the truth's
// visibility and lie where the truth's 3-D tag corners project.

#include <gtest/gtest.h>
#include <opencv2/imgproc.hpp>

#include <iostream>

#include "simulator/lens_rays.h"
#include "simulator/session.h"
#include "tests/simulator/table_scene_support.h"
#include "vision/apriltag_detector.h"

namespace diskref::simulator {
namespace {

struct Agreement {
  int visible = 0;           // disks the truth calls visible
  int detected_visible = 0;  // of those, found by the detector
  int detected_hidden = 0;   // detections of disks the truth calls not visible
  double worst_corner_px = 0;
  int markers_found = 0;
};

Agreement compare(const Scenario& scenario, int frame) {
  SessionRenderer session(scenario);
  cv::Mat gray;
  cv::cvtColor(session.frame(frame), gray, cv::COLOR_BGR2GRAY);
  vision::DetectorOptions options;
  options.quad_decimate = 1.0;
  vision::AprilTagDetector detector(options);
  auto detections = detector.detect(gray);

  SceneInstant instant = session.timeline().at(session.frame_time(frame));
  GroundTruth truth(session.model(), scenario.rig);
  Agreement a;
  for (const DiskInstant& d : instant.disks) {
    const model::TagSpec* tag = session.model().disks[d.disk].tag(d.top_face);
    bool visible = truth.tag_visible(instant, d);
    a.visible += visible;
    for (const auto& det : detections) {
      if (det.id != tag->id) continue;
      if (!visible) {
        ++a.detected_hidden;
        continue;
      }
      ++a.detected_visible;
      auto corners = truth.tag_corners(d);
      for (int k = 0; k < 4; ++k)
        a.worst_corner_px =
            std::max(a.worst_corner_px, cv::norm(det.corners[static_cast<std::size_t>(k)] -
                                                 pixel_of(scenario.rig, corners[static_cast<std::size_t>(k)])));
    }
  }
  for (const model::CornerMarker& m : scenario.table.corner_markers) {
    for (const auto& det : detections) {
      if (det.id != m.id) continue;
      ++a.markers_found;
      auto corners = m.corners_mm();
      for (int k = 0; k < 4; ++k)
        a.worst_corner_px =
            std::max(a.worst_corner_px, cv::norm(det.corners[static_cast<std::size_t>(k)] -
                                                 pixel_of(scenario.rig, {corners[static_cast<std::size_t>(k)].x,
                                                                         corners[static_cast<std::size_t>(k)].y, 0})));
    }
  }
  return a;
}

TEST(TableTruth, DetectionsMatchTruthWithinAThirdOfAPixelWithoutDistortionOrNoise) {
  Scenario scenario = testing::parse_test_scenario(testing::small_table_scenario(false, false));
  Agreement a = compare(scenario, 10);  // t = 1 s: the hand rests over "defiant"
  EXPECT_EQ(a.visible, 3);              // enterprise, reliant (down face), torpedo; not defiant, not edge
  EXPECT_EQ(a.detected_visible, a.visible);
  EXPECT_EQ(a.detected_hidden, 0);
  EXPECT_EQ(a.markers_found, 4);
  EXPECT_LT(a.worst_corner_px, 0.3);
  std::cout << "worst corner error, undistorted and noise-free: " << a.worst_corner_px << " px\n";
}

TEST(TableTruth, DetectionsMatchTruthWithinAPixelThroughATiltedDistortedNoisyCamera) {
  Scenario scenario = testing::parse_test_scenario(testing::small_table_scenario(true, true));
  Agreement a = compare(scenario, 10);
  EXPECT_EQ(a.visible, 3);
  EXPECT_EQ(a.detected_visible, a.visible);
  EXPECT_EQ(a.detected_hidden, 0);
  EXPECT_EQ(a.markers_found, 4);
  EXPECT_LT(a.worst_corner_px, 1.0);
  std::cout << "worst corner error, tilted, distorted, noisy: " << a.worst_corner_px << " px\n";
}

}  // namespace
}  // namespace diskref::simulator
