// The renderer places an edge where a real camera's pixel places it: a pixel integrates the light
// over its area, so its grey level between the two sides' says what fraction of it lies on each.
// A renderer that samples a few points per pixel gets that fraction in steps, and an edge along
// the pixel grid or at 45 degrees crosses every pixel at the same phase, so the steps do not
// average out along it: a tag's detected corners were biased by a fixed fraction of a pixel that
// no camera has (the duel sample's diagonal tags carried 0.06-0.14 px of it, which the tracker's
// sigma had to take for the detector's).
//
// Detector-free: the white square around a ship's tag meets the ship's colour along four straight
// edges whose place in the image is exact (the disk's pose through the camera, no lens error).
// For every pixel such an edge crosses (away from the tag's own cells and the ship's arrow), the
// fraction of white its grey level says is compared with the pixel's exact area inside the square.
// Measured (mean / worst error of that fraction): at 45 degrees 0.014 / 0.039, along the grid
// 0.006 / 0.010, at a slope of 2 0.022 / 0.049; with the former pattern and no second pass at
// edges 0.077 / 0.150, 0.040 / 0.048 and 0.056 / 0.120.

#include <cmath>
#include <cstdio>
#include <vector>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <opencv2/imgproc.hpp>

#include "print/disk_appearance.h"
#include "simulator/session.h"
#include "tests/simulator/table_scene_support.h"

namespace diskref::simulator {
namespace {

constexpr double kTagMm = 15;
constexpr double kHalfWhiteMm = (print::kTagCells / 2.0 + print::kTagQuietCells) * kTagMm / print::kTagBorderCells;

// One ship lying still at `heading` (the camera straight above, its pixel grid along the table's
// axes, no lens error, no noise), a little off any pixel boundary.
nlohmann::json one_ship(double heading) {
  nlohmann::json scenario = testing::small_table_scenario(false, false);
  scenario["disks"] = {{"disks",
                        {{{"name", "ship"},
                          {"kind", "ship"},
                          {"shape", {{"type", "flatted_circle"}, {"diameter_mm", 44}, {"flat_to_flat_mm", 40}}},
                          {"tags", {{{"id", 10}, {"face", "up"}, {"size_mm", kTagMm}, {"heading_offset_deg", 0}}}}}}}};
  scenario["start"] = {{{"disk", "ship"}, {"x", 200.31}, {"y", 150.17}, {"heading", heading}}};
  scenario["events"] = nlohmann::json::array();
  scenario["camera"]["pose"]["yaw_deg"] = 0;
  return scenario;
}

struct EdgeErrors {
  int pixels = 0;
  double worst = 0;  // |measured - exact| fraction of the pixel, worst
  double mean_abs = 0;
};

EdgeErrors white_square_edges(double heading) {
  const Scenario scenario = testing::parse_test_scenario(one_ship(heading));
  SessionRenderer session(scenario);
  cv::Mat grey;
  cv::cvtColor(session.frame(0), grey, cv::COLOR_BGR2GRAY);
  grey.convertTo(grey, CV_64F);
  const SceneInstant instant = session.timeline().at(0.0);
  const DiskInstant& ship = instant.disks.at(0);
  const double thickness = session.model().disks[ship.disk].spec().thickness_mm;
  // Disk-local point on its top face (mm) -> image pixel.
  auto image = [&](double x, double y) {
    const cv::Vec3d t = ship.rotation * cv::Vec3d(x, y, thickness) + ship.translation;
    return pixel_of(scenario.rig, {t[0], t[1], t[2]});
  };
  std::vector<cv::Point2f> square;
  for (auto [x, y] : {std::pair{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}) {
    const cv::Point2d p = image(x * kHalfWhiteMm, y * kHalfWhiteMm);
    square.emplace_back(static_cast<float>(p.x), static_cast<float>(p.y));
  }
  EdgeErrors e;
  double sum = 0;
  // Along each side of the square, 3 to 8 mm from its middle (clear of the corners, and the left
  // side only: the ship's arrow touches the right one), the pixels the side crosses.
  const std::pair<cv::Point2d, cv::Point2d> sides[] = {{{-1, 0}, {0, 1}}, {{0, 1}, {1, 0}}, {{0, -1}, {1, 0}}};
  for (const auto& [normal, along] : sides) {
    for (double a = -8; a <= 8; a += 0.25) {
      if (std::abs(a) < 3) continue;
      const cv::Point2d on = image(normal.x * kHalfWhiteMm + along.x * a, normal.y * kHalfWhiteMm + along.y * a);
      const int u = static_cast<int>(std::lround(on.x)), v = static_cast<int>(std::lround(on.y));
      const float fu = static_cast<float>(u), fv = static_cast<float>(v);
      const std::vector<cv::Point2f> pixel = {
          {fu - 0.5f, fv - 0.5f}, {fu + 0.5f, fv - 0.5f}, {fu + 0.5f, fv + 0.5f}, {fu - 0.5f, fv + 0.5f}};
      std::vector<cv::Point2f> inside;
      const double exact = static_cast<double>(cv::intersectConvexConvex(pixel, square, inside));
      if (exact < 0.02 || exact > 0.98) continue;
      // The two sides' grey levels, measured two pixels in and out along the edge's normal.
      const cv::Point2d in_mm =
          image(normal.x * (kHalfWhiteMm - 1.4) + along.x * a, normal.y * (kHalfWhiteMm - 1.4) + along.y * a);
      const cv::Point2d out_mm =
          image(normal.x * (kHalfWhiteMm + 1.4) + along.x * a, normal.y * (kHalfWhiteMm + 1.4) + along.y * a);
      const double white =
          grey.at<double>(static_cast<int>(std::lround(in_mm.y)), static_cast<int>(std::lround(in_mm.x)));
      const double body =
          grey.at<double>(static_cast<int>(std::lround(out_mm.y)), static_cast<int>(std::lround(out_mm.x)));
      const double measured = (grey.at<double>(v, u) - body) / (white - body);
      const double err = std::abs(measured - exact);
      e.worst = std::max(e.worst, err);
      sum += err;
      ++e.pixels;
    }
  }
  e.mean_abs = e.pixels ? sum / e.pixels : 1;
  std::printf("heading %4.1f: %d edge pixels, white fraction off by %.4f on average, %.4f at worst\n", heading,
              e.pixels, e.mean_abs, e.worst);
  return e;
}

TEST(RenderedEdges, AnEdgeAt45DegreesCoversEachPixelByItsExactArea) {
  const EdgeErrors e = white_square_edges(45.0);
  EXPECT_GT(e.pixels, 30);
  EXPECT_LT(e.mean_abs, 0.025);
  EXPECT_LT(e.worst, 0.06);
}

TEST(RenderedEdges, AnEdgeAlongThePixelGridCoversEachPixelByItsExactArea) {
  const EdgeErrors e = white_square_edges(0.0);
  EXPECT_GT(e.pixels, 30);
  EXPECT_LT(e.mean_abs, 0.025);
  EXPECT_LT(e.worst, 0.06);
}

TEST(RenderedEdges, AnEdgeAtAnyOtherAngleCoversEachPixelByItsExactArea) {
  const EdgeErrors e = white_square_edges(63.43);  // a slope of 2: every other pixel at one phase
  EXPECT_GT(e.pixels, 30);
  EXPECT_LT(e.mean_abs, 0.025);
  EXPECT_LT(e.worst, 0.06);
}

}  // namespace
}  // namespace diskref::simulator
