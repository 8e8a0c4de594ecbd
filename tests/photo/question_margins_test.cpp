// The margins' sigma (photo/question_margins.h): over many synthetic photos, the margin the fit
// gives is within 2 sigma of the true scene's margin about 95 % of the time, and the sigma grows
// when the tags are seen worse.
#include "photo/question_margins.h"

#include <cmath>
#include <cstdio>
#include <numbers>

#include <gtest/gtest.h>

#include "tests/photo/synthetic_tags.h"

namespace diskref::photo {
namespace {

model::Scene scene_of(const SyntheticTable& table, const std::vector<cv::Vec3d>& poses) {
  model::Scene scene;
  for (std::size_t i = 0; i < poses.size(); ++i) {
    const bool torpedo = table.tags[i].size_mm < 10;
    const geom::Shape shape = torpedo ? geom::Shape{geom::Circle{25.4}} : geom::Shape{geom::FlattedCircle{63.5, 57.2}};
    scene.disks.push_back(
        {"d" + std::to_string(i),
         torpedo ? model::DiskKind::torpedo : model::DiskKind::ship,
         {shape, geom::Pose::from_degrees(poses[i][0], poses[i][1], poses[i][2] * 180 / std::numbers::pi)}});
  }
  scene.questions.push_back({"range", model::RangeQuestion{0, 1, geom::Rect{88.9, 25.4}, 1}});
  scene.questions.push_back({"overlap", model::OverlapQuestion{1, 3}});
  scene.questions.push_back({"move", model::MoveQuestion{0, 3, std::nullopt}});
  return scene;
}

struct Coverage {
  int within = 0, total = 0;
  double mean_sigma = 0;
};

Coverage margin_coverage(bool focal_given, double noise_px, double distance_mm, double k1 = 0) {
  Coverage coverage;
  for (unsigned seed = 1; seed <= 80; ++seed) {
    const SyntheticTable table = synthetic_table(seed, 20 + (seed % 5) * 10, noise_px, 6, distance_mm, 26, k1);
    TagsFitOptions options;
    if (focal_given) options.focal_px = table.focal_px;
    const TablePlacement placement = fit_table(table.tags, table.image_size, options);
    std::vector<cv::Vec3d> truth;
    for (std::size_t i = 0; i < table.tags.size(); ++i) truth.push_back(relative_pose(table, i, placement.reference));
    const model::Scene fitted = scene_of(table, placement.tag_poses), true_scene = scene_of(table, truth);
    for (const model::SceneQuestion& q : fitted.questions) {
      const auto measured = decisive_margin(fitted, q), real = decisive_margin(true_scene, q);
      if (!measured || !real) continue;
      const double sigma = margin_sigma(fitted, q, placement.pose_covariance);
      ++coverage.total;
      coverage.mean_sigma += sigma;
      coverage.within += std::abs(measured->margin_mm - real->margin_mm) <= 2 * sigma ? 1 : 0;
    }
  }
  coverage.mean_sigma /= std::max(1, coverage.total);
  return coverage;
}

TEST(DecisiveMargin, AMoveThatEndsOnAShipIsDecidedByThatOverlapNotByATorpedoItMisses) {
  // The mover flips 3 x 57.2 mm along +x and ends 40 mm deep in the ship at x = 190; a torpedo it
  // passes is 20 mm off its path.
  model::Scene scene;
  const geom::Shape ship{geom::FlattedCircle{63.5, 57.2}};
  scene.disks.push_back({"mover", model::DiskKind::ship, {ship, geom::Pose::from_degrees(0, 0, 0)}});
  scene.disks.push_back({"target", model::DiskKind::ship, {ship, geom::Pose::from_degrees(195, 0, 0)}});
  scene.disks.push_back({"torpedo",
                         model::DiskKind::torpedo,
                         {geom::Shape{geom::Circle{25.4}}, geom::Pose::from_degrees(114.4, 64.5, 0)}});
  const model::SceneQuestion move{"move", model::MoveQuestion{0, 3, std::nullopt}};
  const std::optional<DecisiveMargin> m = decisive_margin(scene, move);
  ASSERT_TRUE(m.has_value());
  EXPECT_TRUE(m->yes);
  EXPECT_LT(m->margin_mm, -30) << "the overlap where it ends decides, not the torpedo's miss";
}

TEST(MarginSigma, CoversTheTrueMarginOverManyPhotos) {
  for (bool focal_given : {true, false}) {
    const Coverage c = margin_coverage(focal_given, 0.5, 600);
    SCOPED_TRACE(focal_given ? "focal given" : "focal fitted");
    std::printf("margins within 2 sigma (%s): %d of %d (%.1f %%), mean sigma %.3f mm\n",
                focal_given ? "focal given" : "focal fitted", c.within, c.total, 100.0 * c.within / c.total,
                c.mean_sigma);
    ASSERT_GT(c.total, 150);
    EXPECT_GE(double(c.within) / c.total, 0.90) << c.within << " of " << c.total;
    EXPECT_LE(double(c.within) / c.total, 0.995) << "sigma too wide to say anything";
  }
}

TEST(MarginSigma, GrowsWhenTheTagsAreSeenWorse) {
  const Coverage near = margin_coverage(true, 0.3, 400), far = margin_coverage(true, 0.3, 1200);
  EXPECT_GT(far.mean_sigma, 2 * near.mean_sigma);
}

TEST(MarginSigma, APhonesResidualDistortionIsSmallAgainstSigma) {
  // A phone corrects its lens in the camera; what is left is of the order of k1 = 0.01 (about 0.7 %
  // at the corners of the frame). Fitted without it (or with it, when the tags pin it), the
  // margins stay within 2 sigma about as often as without any distortion.
  for (double k1 : {0.005, 0.01}) {
    const Coverage c = margin_coverage(true, 0.5, 600, k1);
    std::printf("residual k1 %.3f: margins within 2 sigma %d of %d (%.1f %%)\n", k1, c.within, c.total,
                100.0 * c.within / c.total);
    EXPECT_GE(double(c.within) / c.total, 0.85) << "k1 " << k1;
  }
}

}  // namespace
}  // namespace diskref::photo
