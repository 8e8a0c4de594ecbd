#pragma once
// Fitting a tag's square to its four corners once they are mapped onto the table.
//
// The four points are the detector's corners in apriltag's order (bottom-left, bottom-right,
// top-right, top-left of the upright bitmap), already mapped into the table frame (mm) at the tag's
// height. Seen from above, an upright tag's corners are then (-h,-h), (h,-h), (h,h), (-h,h) in the
// tag's own frame (h = half the side): its +x points from the middle of its left edge to the middle
// of its right edge, and they go round counter-clockwise.

#include <array>

#include "engine/geometry/pose.h"

namespace diskref::vision {

struct TagSquareFit {
  // table_from_tag: the square's centre and the direction of the tag's +x axis, table frame.
  geom::Pose table_from_tag;
  // Side of the best-fitting square when its size is free (a similarity fit), mm.
  double fitted_size_mm = 0;
  // Corner residuals against a square of the *given* size (a rigid fit: x, y, angle), mm. These
  // carry both the corner noise and any mismatch between the tag and its registry size.
  std::array<geom::Vec2, 4> residuals_mm{};
  double residual_sum_squares_mm2 = 0;
  // Corner residuals against the best-fitting square of free size: the shape alone (a tag seen
  // tilted, lifted off the table or smeared is no longer a square on the table plane), mm.
  std::array<geom::Vec2, 4> shape_residuals_mm{};
  // The points go round clockwise seen from above: a tag can only look like this if something is
  // badly wrong (seen through the table, or a false detection).
  bool mirrored = false;
};

// Degrees of freedom left in the rigid fit's residuals (8 coordinates, 3 parameters).
inline constexpr int kSquareFitResidualDof = 5;

// Least-squares (Procrustes) fit: the centre is the corners' mean, the angle the one that best
// turns the model square onto them.
TagSquareFit fit_tag_square(const std::array<geom::Vec2, 4>& corners_table_mm, double size_mm);

}  // namespace diskref::vision
