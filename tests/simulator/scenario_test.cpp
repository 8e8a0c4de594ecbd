// Scenario files: what is read, and how bad ones are reported (file, JSON path, problem).

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

std::string problem_of(const nlohmann::json& doc) {
  try {
    testing::parse_test_scenario(doc);
  } catch (const io::InputError& e) {
    return e.file() + ": " + e.path() + ": " + e.problem();
  }
  return "";
}

TEST(Scenario, ReadsCameraTableDisksEventsAndEffects) {
  Scenario s = testing::parse_test_scenario(testing::small_table_scenario(true, true));
  EXPECT_EQ(s.rig.camera.image_size, cv::Size(1280, 720));
  EXPECT_NEAR(s.rig.camera.fx(), 640 / std::tan(30 * CV_PI / 180), 1e-9);
  EXPECT_EQ(s.rig.camera.dist_coeffs[0], -0.25);
  // 700 mm above the table, 20 degrees from straight down, looking at (200, 150).
  cv::Vec3d c = s.rig.center_table();
  EXPECT_NEAR(c[2], 700, 1e-9);
  EXPECT_NEAR(c[1], 150 - 700 * std::tan(20 * CV_PI / 180), 1e-9);
  cv::Vec3d look = s.rig.rotation * cv::Vec3d(200, 150, 0) + s.rig.translation;
  EXPECT_NEAR(look[0], 0, 1e-9);
  EXPECT_NEAR(look[1], 0, 1e-9);
  EXPECT_EQ(s.registry.disks().size(), 5u);
  EXPECT_EQ(s.start.size(), 5u);
  EXPECT_EQ(s.events.size(), 1u);
  EXPECT_EQ(s.effects.noise_sigma, 2.0);
  EXPECT_EQ(s.frame_count(), 20);
}

TEST(Scenario, BadScenariosAreReportedWithTheirPlace) {
  auto doc = testing::small_table_scenario(false, false);
  auto with = [&](const std::string& pointer, nlohmann::json value) {
    nlohmann::json d = doc;
    d[nlohmann::json::json_pointer(pointer)] = std::move(value);
    return problem_of(d);
  };
  EXPECT_EQ(with("/camera/camera_matrix", {{1000, 0, 640}, {0, 1000, 360}, {0, 0, 1}}),
            "test-scenario.json: camera: give either camera_matrix or horizontal_fov_deg, not both");
  EXPECT_NE(with("/effects/nosie_sigma", 2).find("test-scenario.json: effects"), std::string::npos);
  EXPECT_NE(with("/camera/pose/tilt_deg", 75).find("camera.pose.tilt_deg"), std::string::npos);
  EXPECT_NE(with("/start/0/disk", "voyager").find("start[0].disk: no disk named \"voyager\""), std::string::npos);
  EXPECT_NE(with("/events/0/t", 99).find("events[0].t"), std::string::npos);
  EXPECT_NE(with("/events/0/hand/over", nlohmann::json::array()).find("events[0].hand"), std::string::npos);
  EXPECT_NE(with("/camera/dist_coeffs", {-3, 0, 0, 0, 0}).find("camera.dist_coeffs"), std::string::npos);
  EXPECT_NE(with("/disks/disks/0/tags/0/size_mm", 40).find("disks.disks[0].tags[0]"), std::string::npos);
}

}  // namespace
}  // namespace diskref::simulator
