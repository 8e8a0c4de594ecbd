// A render is a pure function of the scenario and its seed.

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "simulator/session.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

nlohmann::json moving_scene(uint64_t seed) {
  nlohmann::json doc = testing::small_table_scenario(true, true);
  doc["seed"] = seed;
  doc["camera"]["resolution"] = {320, 180};  // small: the point is equality, not detail
  doc["events"].push_back({{"t", 0.1}, {"flip", {{"disk", "enterprise"}, {"seconds_per_flip", 0.4}}}});
  return doc;
}

TEST(Determinism, SameSeedSameFramesAndTruthInAnyOrder) {
  Scenario scenario = testing::parse_test_scenario(moving_scene(3));
  SessionRenderer a(scenario), b(scenario);
  GroundTruth truth_a(a.model(), scenario.rig), truth_b(b.model(), scenario.rig);
  cv::Mat last;
  for (int k = 0; k < 6; ++k) {
    cv::Mat fa = a.frame(k).clone(), fb = b.frame(k).clone();
    EXPECT_EQ(cv::norm(fa, fb, cv::NORM_INF), 0.0) << "frame " << k;
    EXPECT_EQ(model::to_jsonl_line(truth_a.next(k, a.frame_time(k), a.timeline().at(a.frame_time(k)))),
              model::to_jsonl_line(truth_b.next(k, b.frame_time(k), b.timeline().at(b.frame_time(k)))));
    last = fa;
  }
  // Frames are kept between calls only where nothing changed: a frame rendered on its own is the same.
  SessionRenderer alone(scenario);
  EXPECT_EQ(cv::norm(alone.frame(5), last, cv::NORM_INF), 0.0);
}

TEST(Determinism, AnotherSeedGivesOtherNoiseAndTexture) {
  SessionRenderer a(testing::parse_test_scenario(moving_scene(3)));
  SessionRenderer b(testing::parse_test_scenario(moving_scene(4)));
  EXPECT_GT(cv::norm(a.frame(0), b.frame(0), cv::NORM_L1), 0.0);
}

TEST(Determinism, WebcamBehavioursAreAPureFunctionOfTheFrameAndARepeatedFrameIsTheOneBefore) {
  nlohmann::json doc = moving_scene(3);
  doc["webcam"] = {{"flicker", {{"mains_hz", 50}, {"depth", 0.3}}},
                   {"auto_exposure", {{"step", -0.2}, {"delay_s", 0}}},
                   {"knock", {{"t", 0.2}, {"swing_deg", 0.5}}},
                   {"repeated_frames", 0.3},
                   {"lost_frames", 0.2}};
  const Scenario scenario = testing::parse_test_scenario(doc);
  SessionRenderer in_order(scenario), backwards(scenario);
  std::vector<cv::Mat> frames;
  for (int k = 0; k < 12; ++k) frames.push_back(in_order.frame(k).clone());
  int repeated = 0;
  for (int k = 11; k >= 0; --k) {
    EXPECT_EQ(cv::norm(backwards.frame(k), frames[static_cast<std::size_t>(k)], cv::NORM_INF), 0.0) << "frame " << k;
    if (k > 0 && in_order.shown_frame(k) == in_order.shown_frame(k - 1)) {
      ++repeated;
      EXPECT_EQ(cv::norm(frames[static_cast<std::size_t>(k)], frames[static_cast<std::size_t>(k - 1)], cv::NORM_INF),
                0.0)
          << k;
    } else if (k > 0) {
      EXPECT_GT(cv::norm(frames[static_cast<std::size_t>(k)], frames[static_cast<std::size_t>(k - 1)], cv::NORM_L1),
                0.0)
          << k;
    }
  }
  EXPECT_GT(repeated, 0);
  // The flicker and the knock change the picture itself: not the frame rendered without them.
  nlohmann::json plain = moving_scene(3);
  SessionRenderer steady(testing::parse_test_scenario(plain));
  EXPECT_GT(cv::norm(steady.frame(0), frames[0], cv::NORM_L1), 0.0);
}

}  // namespace
}  // namespace diskref::simulator
