#include "simulator/lens_rays.h"

#include <cmath>
#include <limits>

namespace diskref::simulator {
namespace {

// OpenCV's full distortion model (k1 k2 p1 p2 k3 k4 k5 k6 s1 s2 s3 s4 tx ty; missing ones are 0).
struct Lens {
  double k1, k2, p1, p2, k3, k4, k5, k6, s1, s2, s3, s4;
  cv::Matx33d tilt;  // the tilted sensor's projection (identity for tx = ty = 0)
};

// OpenCV's tilt projection (calib3d's computeTiltProjectionMatrix, not public in OpenCV 4.6).
cv::Matx33d tilt_matrix(double tau_x, double tau_y) {
  const double cx = std::cos(tau_x), sx = std::sin(tau_x), cy = std::cos(tau_y), sy = std::sin(tau_y);
  const cv::Matx33d rot_x(1, 0, 0, 0, cx, sx, 0, -sx, cx);
  const cv::Matx33d rot_y(cy, 0, -sy, 0, 1, 0, sy, 0, cy);
  const cv::Matx33d rot = rot_y * rot_x;
  const cv::Matx33d project(rot(2, 2), 0, -rot(0, 2), 0, rot(2, 2), -rot(1, 2), 0, 0, 1);
  return project * rot;
}

Lens lens_of(const calib::CameraModel& camera) {
  auto d = [&](std::size_t i) { return camera.coefficient(i); };
  return {d(0), d(1), d(2), d(3), d(4), d(5), d(6), d(7), d(8), d(9), d(10), d(11), tilt_matrix(d(12), d(13))};
}

// Distorted normalized coordinates of an undistorted ray, and the Jacobian of that map.
void distort(const Lens& l, double x, double y, double& xd, double& yd, cv::Matx22d* jacobian) {
  const double r2 = x * x + y * y;
  const double numerator = 1 + r2 * (l.k1 + r2 * (l.k2 + r2 * l.k3));
  const double denominator = 1 + r2 * (l.k4 + r2 * (l.k5 + r2 * l.k6));
  const double radial = numerator / denominator;
  const double xp = x * radial + 2 * l.p1 * x * y + l.p2 * (r2 + 2 * x * x) + r2 * (l.s1 + r2 * l.s2);
  const double yp = y * radial + l.p1 * (r2 + 2 * y * y) + 2 * l.p2 * x * y + r2 * (l.s3 + r2 * l.s4);
  const cv::Vec3d t = l.tilt * cv::Vec3d(xp, yp, 1);
  xd = t[0] / t[2];
  yd = t[1] / t[2];
  if (jacobian) {
    const double dnum = l.k1 + r2 * (2 * l.k2 + 3 * l.k3 * r2);
    const double dden = l.k4 + r2 * (2 * l.k5 + 3 * l.k6 * r2);
    const double dradial_dr2 = (dnum * denominator - numerator * dden) / (denominator * denominator);
    const double prism_x = l.s1 + 2 * l.s2 * r2, prism_y = l.s3 + 2 * l.s4 * r2;  // d/dr2 of the thin prism terms
    cv::Matx22d undistorted;                                                      // d(xp, yp) / d(x, y)
    undistorted(0, 0) = radial + 2 * x * x * dradial_dr2 + 2 * l.p1 * y + 6 * l.p2 * x + 2 * x * prism_x;
    undistorted(0, 1) = 2 * x * y * dradial_dr2 + 2 * l.p1 * x + 2 * l.p2 * y + 2 * y * prism_x;
    undistorted(1, 0) = 2 * x * y * dradial_dr2 + 2 * l.p1 * x + 2 * l.p2 * y + 2 * x * prism_y;
    undistorted(1, 1) = radial + 2 * y * y * dradial_dr2 + 6 * l.p1 * y + 2 * l.p2 * x + 2 * y * prism_y;
    cv::Matx22d tilted;  // d(xd, yd) / d(xp, yp)
    for (int r = 0; r < 2; ++r)
      for (int c = 0; c < 2; ++c) tilted(r, c) = (l.tilt(r, c) * t[2] - t[r] * l.tilt(2, c)) / (t[2] * t[2]);
    *jacobian = tilted * undistorted;
  }
}

}  // namespace

cv::Point2d pixel_from_ray(const calib::CameraModel& camera, cv::Vec2d ray) {
  double xd = 0, yd = 0;
  distort(lens_of(camera), ray[0], ray[1], xd, yd, nullptr);
  const auto& k = camera.camera_matrix;
  return {k(0, 0) * xd + k(0, 1) * yd + k(0, 2), k(1, 1) * yd + k(1, 2)};
}

std::optional<cv::Vec2d> ray_from_pixel(const calib::CameraModel& camera, cv::Point2d pixel) {
  const auto& k = camera.camera_matrix;
  double yd = (pixel.y - k(1, 2)) / k(1, 1);
  double xd = (pixel.x - k(0, 2) - k(0, 1) * yd) / k(0, 0);
  Lens lens = lens_of(camera);
  double x = xd, y = yd;
  for (int iter = 0; iter < 50; ++iter) {
    double fx = 0, fy = 0;
    cv::Matx22d j;
    distort(lens, x, y, fx, fy, &j);
    double ex = fx - xd, ey = fy - yd;
    if (std::fabs(ex) < 1e-13 && std::fabs(ey) < 1e-13) return cv::Vec2d(x, y);
    double det = j(0, 0) * j(1, 1) - j(0, 1) * j(1, 0);
    // A non-positive determinant: the forward map folds over here (no unique inverse).
    if (!(det > 1e-9)) return std::nullopt;
    double dx = (j(1, 1) * ex - j(0, 1) * ey) / det;
    double dy = (-j(1, 0) * ex + j(0, 0) * ey) / det;
    // Damp big steps: the model is only trustworthy near the image.
    double step = std::sqrt(dx * dx + dy * dy);
    if (step > 0.5) {
      dx *= 0.5 / step;
      dy *= 0.5 / step;
    }
    x -= dx;
    y -= dy;
  }
  return std::nullopt;
}

RayGrid::RayGrid(const calib::CameraModel& camera)
    : camera_(camera), grid_w_(camera.image_size.width + 2), grid_h_(camera.image_size.height + 2) {
  grid_.assign(static_cast<std::size_t>(grid_w_) * static_cast<std::size_t>(grid_h_),
               cv::Vec2f(std::numeric_limits<float>::quiet_NaN(), std::numeric_limits<float>::quiet_NaN()));
  cv::parallel_for_(cv::Range(0, grid_h_), [&](const cv::Range& rows) {
    for (int gv = rows.start; gv < rows.end; ++gv) {
      for (int gu = 0; gu < grid_w_; ++gu) {
        auto r = ray_from_pixel(camera_, {gu - 1.0, gv - 1.0});
        if (r)
          grid_[static_cast<std::size_t>(gv) * static_cast<std::size_t>(grid_w_) + static_cast<std::size_t>(gu)] =
              cv::Vec2f(static_cast<float>((*r)[0]), static_cast<float>((*r)[1]));
      }
    }
  });
}

}  // namespace diskref::simulator
