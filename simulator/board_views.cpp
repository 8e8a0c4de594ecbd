#include "simulator/board_views.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

#include <opencv2/calib3d.hpp>
#include <opencv2/imgproc.hpp>

#include "engine/random/splitmix64.h"
#include "simulator/lens_rays.h"
#include "simulator/supersample_pattern.h"

namespace diskref::simulator {
namespace {

// A softly, unevenly lit wall behind the board: low-frequency random shading, slightly warm.
cv::Mat wall_radiance(cv::Size size, random::SplitMix64& rng) {
  cv::Mat coarse(4, 6, CV_32FC3);
  for (int v = 0; v < coarse.rows; ++v)
    for (int u = 0; u < coarse.cols; ++u) {
      auto base = static_cast<float>(rng.uniform(0.30, 0.52));
      coarse.at<cv::Vec3f>(v, u) = cv::Vec3f(base * 0.92f, base * 0.98f, base);  // BGR, warm
    }
  cv::Mat wall;
  cv::resize(coarse, wall, size, 0, 0, cv::INTER_CUBIC);
  return wall;
}

}  // namespace

cv::Mat render_board_view(const calib::CameraModel& camera, const cv::Matx33d& rotation, const cv::Vec3d& translation,
                          const print::BoardSpec& board, const ImageEffects& effects, uint64_t seed) {
  if (auto problem = image_effects_problem(effects); !problem.empty()) throw std::invalid_argument(problem);
  print::BoardPattern pattern(board);
  RayGrid rays(camera);
  random::SplitMix64 rng(seed);
  cv::Size size = camera.image_size;
  cv::Mat radiance = wall_radiance(size, rng);

  // Board plane in the camera frame: normal n (the board's z axis), through t.
  cv::Vec3d normal(rotation(0, 2), rotation(1, 2), rotation(2, 2));
  double plane_offset = normal.dot(translation);
  cv::Matx33d board_from_camera = rotation.t();
  // The card's print is lit a little less when it turns away from the light over the camera.
  auto shade = static_cast<float>(0.8 + 0.2 * std::fabs(normal[2]));

  std::vector<cv::Point2d> offsets = supersample_offsets(effects.supersample);
  auto samples = static_cast<float>(offsets.size());
  cv::parallel_for_(cv::Range(0, size.height), [&](const cv::Range& range) {
    for (int v = range.start; v < range.end; ++v) {
      auto* out = radiance.ptr<cv::Vec3f>(v);
      for (int u = 0; u < size.width; ++u) {
        float sum = 0;
        int on_card = 0;
        for (const cv::Point2d& o : offsets) {
          double x = 0, y = 0;
          if (!rays.ray(u + o.x, v + o.y, x, y)) continue;
          cv::Vec3d d(x, y, 1.0);
          double denom = normal.dot(d);
          if (std::fabs(denom) < 1e-12) continue;
          double lambda = plane_offset / denom;
          if (lambda <= 0) continue;
          cv::Vec3d p = board_from_camera * (lambda * d - translation);
          float r = pattern.reflectance(p[0], p[1]);
          if (r < 0) continue;
          sum += r;
          ++on_card;
        }
        if (on_card == 0) continue;
        float coverage = static_cast<float>(on_card) / samples;
        float card = shade * sum / static_cast<float>(on_card);
        out[u] = out[u] * (1 - coverage) + cv::Vec3f(card, card, card) * coverage;
      }
    }
  });
  return finish_frame(radiance, effects, rng.next_u64());
}

std::vector<cv::Point2d> board_corner_truth(const calib::CameraModel& camera, const cv::Matx33d& rotation,
                                            const cv::Vec3d& translation, const print::BoardSpec& board) {
  print::BoardPattern pattern(board);
  std::vector<cv::Point2d> out;
  for (const cv::Point3d& p : pattern.corner_points()) {
    cv::Vec3d c = rotation * cv::Vec3d(p.x, p.y, p.z) + translation;
    out.push_back(pixel_from_ray(camera, {c[0] / c[2], c[1] / c[2]}));
  }
  return out;
}

bool board_fully_visible(const calib::CameraModel& camera, const cv::Matx33d& rotation, const cv::Vec3d& translation,
                         const print::BoardPattern& pattern, double margin_px) {
  // Printed side towards the camera: the camera centre lies on the board's -z side.
  cv::Vec3d camera_in_board = -(rotation.t() * translation);
  if (camera_in_board[2] >= 0) return false;
  cv::Rect2d card = pattern.card_mm();
  const int steps = 16;
  for (int i = 0; i <= steps; ++i) {
    double f = static_cast<double>(i) / steps;
    const cv::Point2d edge_points[] = {{card.x + f * card.width, card.y},
                                       {card.x + f * card.width, card.y + card.height},
                                       {card.x, card.y + f * card.height},
                                       {card.x + card.width, card.y + f * card.height}};
    for (const auto& q : edge_points) {
      cv::Vec3d c = rotation * cv::Vec3d(q.x, q.y, 0) + translation;
      if (c[2] <= 0) return false;
      cv::Vec2d ray(c[0] / c[2], c[1] / c[2]);
      cv::Point2d px = pixel_from_ray(camera, ray);
      if (px.x < margin_px || px.y < margin_px || px.x > camera.image_size.width - 1 - margin_px ||
          px.y > camera.image_size.height - 1 - margin_px)
        return false;
      // Far outside the calibrated field a lens model can fold back into the image: refuse.
      auto back = ray_from_pixel(camera, px);
      if (!back || cv::norm(*back - ray) > 1e-6) return false;
    }
  }
  return true;
}

std::vector<std::pair<cv::Matx33d, cv::Vec3d>> calibration_poses(const calib::CameraModel& camera,
                                                                 const print::BoardSpec& board, int count,
                                                                 uint64_t seed) {
  print::BoardPattern pattern(board);
  random::SplitMix64 rng(seed);
  cv::Rect2d card = pattern.card_mm();
  cv::Point2d centre = pattern.center_mm();
  double card_diagonal = std::hypot(card.width, card.height);
  double image_diagonal = std::hypot(camera.image_size.width, camera.image_size.height);
  double focal = (camera.fx() + camera.fy()) / 2;
  std::vector<std::pair<cv::Matx33d, cv::Vec3d>> poses;
  // Targets for the board's middle: a 3x3 grid over the image, corners included, cycled.
  const double kTargets[9][2] = {{0.5, 0.5}, {0.2, 0.2}, {0.8, 0.8}, {0.8, 0.2}, {0.2, 0.8},
                                 {0.5, 0.2}, {0.5, 0.8}, {0.2, 0.5}, {0.8, 0.5}};
  int attempts = 0;
  while (static_cast<int>(poses.size()) < count) {
    if (++attempts > 400 * std::max(count, 1))
      throw std::invalid_argument("the board cannot be shown whole to this camera");
    const double* target = kTargets[poses.size() % 9];
    // Shrink the board on the image when tries fail, so that corners of the image are reachable.
    double shrink = 1.0 - 0.5 * std::min(1.0, (attempts % 400) / 200.0);
    double fill = rng.uniform(0.45, 0.75) * shrink;  // card diagonal / image diagonal
    double distance = focal * card_diagonal / (fill * image_diagonal);
    double tilt = rng.uniform(10, 45) * std::numbers::pi / 180;
    double tilt_axis = rng.uniform(0, 2 * std::numbers::pi);
    double roll = rng.uniform(-25, 25) * std::numbers::pi / 180;
    cv::Vec3d tilt_vector(std::cos(tilt_axis) * tilt, std::sin(tilt_axis) * tilt, 0);
    cv::Vec3d roll_vector(0, 0, roll);
    cv::Matx33d tilt_rotation, roll_rotation;
    cv::Rodrigues(tilt_vector, tilt_rotation);
    cv::Rodrigues(roll_vector, roll_rotation);
    // Identity: the board faces the camera squarely, upright. Tilt it, then turn it in its plane.
    cv::Matx33d rotation = tilt_rotation * roll_rotation;
    cv::Point2d target_px(
        target[0] * (camera.image_size.width - 1) + rng.uniform(-0.05, 0.05) * camera.image_size.width,
        target[1] * (camera.image_size.height - 1) + rng.uniform(-0.05, 0.05) * camera.image_size.height);
    auto ray = ray_from_pixel(camera, target_px);
    if (!ray) continue;
    cv::Vec3d direction((*ray)[0], (*ray)[1], 1.0);
    direction /= cv::norm(direction);
    cv::Vec3d translation = distance * direction - rotation * cv::Vec3d(centre.x, centre.y, 0);
    if (!board_fully_visible(camera, rotation, translation, pattern, 8.0)) continue;
    poses.emplace_back(rotation, translation);
  }
  return poses;
}

}  // namespace diskref::simulator
