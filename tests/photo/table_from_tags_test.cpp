// The table fitted from the tags (photo/table_from_tags.h) on synthetic projections: poses
// recovered within their sigma at 20-60 degrees of tilt, with and without the focal length, and the
// sigma honest over many seeds.
#include "photo/table_from_tags.h"

#include <cmath>

#include <gtest/gtest.h>

#include "tests/photo/synthetic_tags.h"

namespace diskref::photo {
namespace {

// Each tag's error against its true pose, in units of its sigma (x, y, theta).
std::vector<double> normalised_errors(const SyntheticTable& table, const TablePlacement& placement) {
  std::vector<double> errors;
  for (std::size_t i = 0; i < table.tags.size(); ++i) {
    if (i == placement.reference) continue;
    const cv::Vec3d truth = relative_pose(table, i, placement.reference);
    for (int k = 0; k < 3; ++k) {
      double error = placement.tag_poses[i][k] - truth[k];
      if (k == 2) error = std::remainder(error, 2 * std::numbers::pi);
      const int row = static_cast<int>(3 * i) + k;
      errors.push_back(error / std::sqrt(placement.pose_covariance.at<double>(row, row)));
    }
  }
  return errors;
}

TEST(FitTable, RecoversThePosesWithinSigmaAtAnyTiltWithOrWithoutTheFocalLength) {
  for (double tilt : {20.0, 40.0, 60.0}) {
    for (bool focal_given : {true, false}) {
      const SyntheticTable table = synthetic_table(7, tilt, 0.3);
      TagsFitOptions options;
      if (focal_given) options.focal_px = table.focal_px;
      const TablePlacement placement = fit_table(table.tags, table.image_size, options);
      SCOPED_TRACE(::testing::Message() << "tilt " << tilt << (focal_given ? ", focal given" : ", focal fitted"));
      EXPECT_NEAR(placement.tilt_deg, tilt, 2.0);
      EXPECT_NEAR(placement.camera_matrix(0, 0), table.focal_px, focal_given ? 1e-9 : 0.05 * table.focal_px);
      for (double error : normalised_errors(table, placement)) EXPECT_LT(std::abs(error), 4.0);
      // A 24 mm tag at 60 cm with 0.3 px of corner noise is placed to better than a millimetre.
      for (std::size_t i = 0; i < table.tags.size(); ++i) {
        EXPECT_LT(std::sqrt(placement.pose_covariance.at<double>(int(3 * i), int(3 * i))), 1.0);
      }
    }
  }
}

TEST(FitTable, SigmaCoversTheErrorsOverManySeeds) {
  for (bool focal_given : {true, false}) {
    int within = 0, total = 0;
    for (unsigned seed = 1; seed <= 60; ++seed) {
      const SyntheticTable table = synthetic_table(seed, 20 + (seed % 5) * 10, 0.4);
      TagsFitOptions options;
      if (focal_given) options.focal_px = table.focal_px;
      const TablePlacement placement = fit_table(table.tags, table.image_size, options);
      for (double error : normalised_errors(table, placement)) {
        ++total;
        within += std::abs(error) <= 2 ? 1 : 0;
      }
    }
    const double coverage = double(within) / total;
    SCOPED_TRACE(focal_given ? "focal given" : "focal fitted");
    EXPECT_GE(coverage, 0.90);
    EXPECT_LE(coverage, 0.995);  // not so wide that it says nothing
  }
}

TEST(FitTable, MeasuresTheCornerNoiseFromTheResiduals) {
  const SyntheticTable table = synthetic_table(3, 35, 1.0, 12);
  const TablePlacement placement = fit_table(table.tags, table.image_size, {});
  EXPECT_NEAR(placement.corner_sigma_px, 1.0, 0.25);
  const SyntheticTable clean = synthetic_table(3, 35, 0.0, 12);
  EXPECT_DOUBLE_EQ(fit_table(clean.tags, clean.image_size, {}).corner_sigma_px, TagsFitOptions{}.corner_sigma_floor_px);
}

TEST(FitTable, OneTagIsEnoughForAPlane) {
  const SyntheticTable table = synthetic_table(5, 40, 0.2, 1);
  const TablePlacement placement = fit_table(table.tags, table.image_size, {});
  EXPECT_NEAR(placement.tilt_deg, 40, 5);
}

}  // namespace
}  // namespace diskref::photo
