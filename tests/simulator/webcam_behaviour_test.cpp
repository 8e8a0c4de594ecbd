// What a webcam does on its own (simulator/webcam_behaviour.h): mains flicker as a rolling shutter
// samples it, auto-exposure stepping while a hand is in view, a knocked boom, repeated and lost
// frames, and the scenario's "webcam" member.

#include "simulator/webcam_behaviour.h"

#include <algorithm>
#include <cmath>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/io/input_error.h"
#include "simulator/webcam_variety.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

double amplitude(const std::vector<float>& gains) {
  const auto [lo, hi] = std::minmax_element(gains.begin(), gains.end());
  return static_cast<double>(*hi - *lo) / 2;
}

TEST(MainsFlicker, TheRippleIsTheLightsSwingAveragedOverTheExposure) {
  // 50 Hz mains: the light swings at 100 Hz. At 30 frames a second with half the frame interval's
  // exposure (16.7 ms) a swing of 18 % leaves 18 % * |sin(x) / x|, x = pi * 100 * E: 3 %.
  const MainsFlicker flicker{.mains_hz = 50, .depth = 0.18};
  const double exposure = 0.5 / 30, x = CV_PI * 100 * exposure;
  EXPECT_NEAR(amplitude(flicker_row_gains(flicker, 1080, 0.0, 1 / 30.0, exposure)), 0.18 * std::fabs(std::sin(x) / x),
              2e-4);
  EXPECT_NEAR(amplitude(flicker_row_gains(flicker, 1080, 0.0, 1 / 30.0, exposure)), 0.03, 0.002);
  // An exposure of whole periods of the light (2 x 10 ms) sees none: anti-flicker.
  EXPECT_LT(amplitude(flicker_row_gains(flicker, 1080, 0.0, 1 / 25.0, 0.02)), 1e-6);
  // 60 Hz mains at 1/120 s: one whole period as well.
  EXPECT_LT(amplitude(flicker_row_gains({.mains_hz = 60, .depth = 0.5}, 1080, 0.3, 1 / 60.0, 1 / 120.0)), 1e-6);
  // Without an exposure time the rows sample the light at an instant: the whole swing.
  EXPECT_NEAR(amplitude(flicker_row_gains(flicker, 1080, 0.0, 1 / 30.0, 0.0)), 0.18, 1e-3);
}

TEST(MainsFlicker, ThePhaseMovesFromFrameToFrameUnlessTheFrameRateDividesTheLight) {
  const MainsFlicker flicker{.mains_hz = 50, .depth = 0.2};
  // A 4 ms exposure: no whole number of the light's 10 ms periods.
  auto frame = [&](double fps, int k) { return flicker_row_gains(flicker, 540, k / fps, 1 / fps, 0.004); };
  auto largest_change = [](const std::vector<float>& a, const std::vector<float>& b) {
    double worst = 0;
    for (std::size_t i = 0; i < a.size(); ++i) worst = std::max(worst, std::fabs(static_cast<double>(a[i] - b[i])));
    return worst;
  };
  // 100 Hz light at 30 frames a second: 3 1/3 swings a frame, the ripple a third of a swing on.
  EXPECT_GT(largest_change(frame(30, 0), frame(30, 1)), 0.01);
  // At 25 frames a second: 4 whole swings a frame, the ripple stands still.
  EXPECT_LT(largest_change(frame(25, 0), frame(25, 1)), 1e-5);
  // The rows swing about 3 times over the frame (readout 0.9 of 1/30 s at 100 Hz): count the peaks.
  const std::vector<float> g = flicker_row_gains(flicker, 1080, 0.0, 1 / 30.0, 0.0);
  int peaks = 0;
  for (std::size_t i = 1; i + 1 < g.size(); ++i) peaks += g[i] > g[i - 1] && g[i] >= g[i + 1];
  EXPECT_GE(peaks, 2);
  EXPECT_LE(peaks, 4);
}

TEST(AutoExposure, StepsTowardsTheHandsGainAfterTheDelayAndBackWhenItGoes) {
  const AutoExposure ae{.step = -0.12, .delay_s = 0.1, .steps = 3, .step_interval_s = 0.1};
  std::vector<bool> hand(60, false);
  std::fill(hand.begin() + 10, hand.begin() + 30, true);  // frames 10-29 at 30 fps
  const std::vector<double> gains = WebcamFrames::exposure_gains(ae, hand, 30);
  EXPECT_DOUBLE_EQ(gains[12], 1.0);  // the hand seen 3 frames later: not yet
  EXPECT_NEAR(gains[13], 0.96, 1e-12);
  EXPECT_NEAR(gains[16], 0.92, 1e-12);
  EXPECT_NEAR(gains[19], 0.88, 1e-12);
  EXPECT_NEAR(gains[30], 0.88, 1e-12);
  EXPECT_NEAR(gains[59], 1.0, 1e-12);
  // Only the three levels in between: steps, not a ramp.
  for (double g : gains)
    EXPECT_TRUE(std::fabs(g - 1) < 1e-9 || std::fabs(g - 0.96) < 1e-9 || std::fabs(g - 0.92) < 1e-9 ||
                std::fabs(g - 0.88) < 1e-9)
        << g;
}

TEST(BoomKnock, SwingsFromRestAndStaysALittleOff) {
  const BoomKnock knock{.t = 2.0, .swing_deg = 0.4, .frequency_hz = 4, .decay_s = 0.25, .offset_deg = 0.06};
  EXPECT_EQ(knock_angle_deg(knock, 1.9), 0.0);
  EXPECT_NEAR(knock_angle_deg(knock, 2.0001), 0.0, 0.002);
  double widest = 0;
  for (double t = 2.0; t < 2.5; t += 0.005) widest = std::max(widest, std::fabs(knock_angle_deg(knock, t)));
  EXPECT_GT(widest, 0.2);
  EXPECT_NEAR(knock_angle_deg(knock, 6.0), 0.06, 1e-6);
}

TEST(BoomKnock, TheTurnedViewMovesThePictureByTheTurn) {
  calib::CameraModel camera;
  camera.image_size = {400, 300};
  camera.camera_matrix = cv::Matx33d(500, 0, 200, 0, 500, 150, 0, 0, 1);
  cv::Mat image = cv::Mat::zeros(300, 400, CV_32F);
  cv::circle(image, {200, 150}, 6, cv::Scalar(1.0), cv::FILLED, cv::LINE_AA);
  auto centre = [](const cv::Mat& m) {
    const cv::Moments mo = cv::moments(m);
    return cv::Point2d(mo.m10 / mo.m00, mo.m01 / mo.m00);
  };
  const cv::Point2d before = centre(image), after = centre(turned_view(image, camera, 0.5, 0.0));
  // About the image's x axis: the picture moves along y by f tan(0.5 deg), not along x.
  EXPECT_NEAR(std::fabs(after.y - before.y), 500 * std::tan(0.5 * CV_PI / 180), 0.03);
  EXPECT_NEAR(after.x, before.x, 0.01);
  EXPECT_EQ(cv::norm(turned_view(image, camera, 0.0, 0.0), image, cv::NORM_INF), 0.0);
}

TEST(RepeatedAndLostFrames, EachFrameShowsItsMomentOrANeighbourNeverGoingBack) {
  WebcamBehaviour w;
  w.repeated_frames = 0.05;
  w.lost_frames = 0.05;
  const WebcamFrames frames(w, 4000, 9);
  int repeated = 0, lost = 0;
  EXPECT_EQ(frames.shown(0), 0);
  for (int k = 1; k < 4000; ++k) {
    EXPECT_GE(frames.shown(k), frames.shown(k - 1)) << k;
    EXPECT_LE(frames.shown(k), k + 1) << k;  // at most the next moment, never further ahead
    repeated += frames.shown(k) == frames.shown(k - 1) && frames.shown(k) < k;
    lost += frames.shown(k) == k + 1;
  }
  EXPECT_NEAR(repeated / 4000.0, 0.05, 0.015);
  EXPECT_NEAR(lost / 4000.0, 0.05, 0.015);
  const WebcamFrames none(WebcamBehaviour{}, 100, 9);
  for (int k = 0; k < 100; ++k) EXPECT_EQ(none.shown(k), k);
}

TEST(WebcamScenario, ReadsTheWebcamMemberAndJpegQuality) {
  nlohmann::json doc = testing::small_table_scenario(false, true);
  doc["effects"]["jpeg_quality"] = 45;
  doc["webcam"] = {{"flicker", {{"mains_hz", 60}, {"depth", 0.2}, {"readout", 0.8}}},
                   {"auto_exposure", {{"step", 0.1}, {"steps", 2}}},
                   {"knock", {{"t", 1.0}, {"offset_deg", -0.05}}},
                   {"repeated_frames", 0.02},
                   {"lost_frames", 0.01}};
  const Scenario s = testing::parse_test_scenario(doc);
  EXPECT_EQ(s.effects.jpeg_quality, 45);
  ASSERT_TRUE(s.webcam.flicker && s.webcam.auto_exposure && s.webcam.knock);
  EXPECT_EQ(s.webcam.flicker->mains_hz, 60);
  EXPECT_EQ(s.webcam.flicker->readout, 0.8);
  EXPECT_EQ(s.webcam.auto_exposure->steps, 2);
  EXPECT_EQ(s.webcam.knock->offset_deg, -0.05);
  EXPECT_EQ(s.webcam.repeated_frames, 0.02);
  EXPECT_EQ(s.webcam.lost_frames, 0.01);
}

TEST(WebcamScenario, BadWebcamMembersAreReportedWithTheirPlace) {
  auto problem = [](nlohmann::json webcam) {
    nlohmann::json doc = testing::small_table_scenario(false, false);
    doc["webcam"] = std::move(webcam);
    try {
      testing::parse_test_scenario(doc);
    } catch (const io::InputError& e) {
      return e.path() + ": " + e.problem();
    }
    return std::string();
  };
  EXPECT_EQ(problem({{"flicker", {{"mains_hz", 55}}}}), "webcam.flicker.mains_hz: must be 50 or 60");
  EXPECT_NE(problem({{"flicker", {{"depth", 2}}}}).find("webcam.flicker.depth"), std::string::npos);
  EXPECT_NE(problem({{"knock", {{"swing_deg", 1}}}}).find("webcam.knock"), std::string::npos);  // no "t"
  EXPECT_NE(problem({{"knock", {{"t", 99}}}}).find("webcam.knock.t"), std::string::npos);
  EXPECT_NE(problem({{"lost_frames", 0.9}}).find("webcam.lost_frames"), std::string::npos);
  EXPECT_NE(problem({{"flickr", {}}}).find("webcam"), std::string::npos);
}

TEST(WebcamVariety, FlickerRendersHaveTheRippleAsked) {
  for (const WebcamVariant& v : webcam_variants()) {
    if (v.ripple <= 0) continue;
    const nlohmann::json scenario = webcam_session(v);
    const MainsFlicker flicker{.mains_hz = v.mains_hz, .depth = scenario["webcam"]["flicker"]["depth"].get<double>()};
    EXPECT_NEAR(amplitude(flicker_row_gains(flicker, 1080, 0.0, 1 / v.fps, v.shutter / v.fps)), v.ripple, 0.002)
        << v.name;
  }
}

}  // namespace
}  // namespace diskref::simulator
