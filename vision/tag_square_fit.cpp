#include "vision/tag_square_fit.h"

#include <cmath>

namespace diskref::vision {
namespace {

// The model square's corners in the tag frame, in apriltag's order, for a side of 2.
constexpr std::array<geom::Vec2, 4> kUnitCorners = {{{-1, -1}, {1, -1}, {1, 1}, {-1, 1}}};

double signed_area(const std::array<geom::Vec2, 4>& p) {
  double twice = 0;
  for (std::size_t i = 0; i < 4; ++i) twice += geom::cross(p[i], p[(i + 1) % 4]);
  return twice / 2;
}

}  // namespace

TagSquareFit fit_tag_square(const std::array<geom::Vec2, 4>& corners_table_mm, double size_mm) {
  const double half = size_mm / 2;
  geom::Vec2 center{};
  for (const auto& p : corners_table_mm) center = center + p;
  center = center / 4.0;

  // Procrustes in 2-D: the rotation maximising sum(dot(R * model_i, offset_i)).
  double along = 0;   // sum of dot(model, offset)
  double across = 0;  // sum of cross(model, offset)
  double model_norm2 = 0;
  for (std::size_t i = 0; i < 4; ++i) {
    geom::Vec2 model = half * kUnitCorners[i];
    geom::Vec2 offset = corners_table_mm[i] - center;
    along += geom::dot(model, offset);
    across += geom::cross(model, offset);
    model_norm2 += geom::length_squared(model);
  }
  const double norm = std::hypot(along, across);
  TagSquareFit fit;
  fit.table_from_tag.position = center;
  fit.table_from_tag.rotation = norm > 0 ? geom::Rot{along / norm, across / norm} : geom::Rot{};
  fit.fitted_size_mm = model_norm2 > 0 ? size_mm * norm / model_norm2 : 0;
  for (std::size_t i = 0; i < 4; ++i) {
    geom::Vec2 predicted = geom::to_table(fit.table_from_tag, half * kUnitCorners[i]);
    fit.residuals_mm[i] = corners_table_mm[i] - predicted;
    fit.residual_sum_squares_mm2 += geom::length_squared(fit.residuals_mm[i]);
    const double fitted_half = fit.fitted_size_mm / 2;
    fit.shape_residuals_mm[i] = corners_table_mm[i] - geom::to_table(fit.table_from_tag, fitted_half * kUnitCorners[i]);
  }
  fit.mirrored = signed_area(corners_table_mm) < 0;
  return fit;
}

}  // namespace diskref::vision
