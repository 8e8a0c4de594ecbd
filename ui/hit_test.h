#pragma once
// Which disk a click means, in either view.

#include <optional>
#include <vector>

#include "engine/geometry/vec2.h"
#include "referee/table_snapshot.h"

namespace diskref::ui {

// Table view: the disk whose outline contains the point (table frame, mm); when several do (a
// torpedo on a template), the one whose centre is nearest. Otherwise the disk whose outline is
// nearest, if within `tolerance_mm`. Lost disks (no pose) are never picked.
std::optional<std::size_t> pick_disk_in_table(const referee::TableSnapshot& scene, geom::Vec2 point_mm,
                                              double tolerance_mm);

// Camera view: `outlines[i]` is disk i's outline as drawn on the screen (empty when not drawn).
// The polygon containing the point (nearest centroid among several), else the one with the
// nearest edge within `tolerance_px`.
std::optional<std::size_t> pick_outline(const std::vector<std::vector<geom::Vec2>>& outlines, geom::Vec2 point,
                                        double tolerance_px);

// Even-odd rule; points on the boundary may go either way.
bool polygon_contains(const std::vector<geom::Vec2>& polygon, geom::Vec2 p);
// Distance from p to the polygon's boundary (closed polyline).
double distance_to_boundary(const std::vector<geom::Vec2>& polygon, geom::Vec2 p);

}  // namespace diskref::ui
