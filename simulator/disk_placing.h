#pragma once
// Placing a photo's disks a chosen margin apart (the sample photo, the photo-dispute bench): a disk
// is moved away from another along a direction until what is measured between their outlines (a
// range margin, a separation) is the value asked, by bisection on the distance between centres.

#include <functional>

#include "engine/geometry/range.h"
#include "engine/geometry/shape.h"
#include "engine/model/disk_registry.h"
#include "simulator/phone_photo.h"

namespace diskref::simulator {

// The disk's outline where it lies (its registry shape at its pose).
geom::PlacedShape placed(const model::DiskRegistry& registry, const PlacedDisk& disk);

// What is measured between two outlines; it must grow as they part.
using GrowingMeasure = std::function<double(const geom::PlacedShape& a, const geom::PlacedShape& b)>;

// `b` moved from `a` along `direction_deg` until `measure(a, b)` is `target`, its centre between
// `nearest_mm` and `farthest_mm` from `a`'s.
void place_apart(const model::DiskRegistry& registry, const PlacedDisk& a, PlacedDisk& b, double direction_deg,
                 double target, const GrowingMeasure& measure, double nearest_mm = 0, double farthest_mm = 500);

// `b` placed so that the range margin from `a` (reach - gap, spec §6) with `range_template` is
// `margin_mm` (the margin shrinks as they part).
void place_at_range_margin(const model::DiskRegistry& registry, const PlacedDisk& a, PlacedDisk& b,
                           double direction_deg, double margin_mm, const geom::Rect& range_template);

// `b` placed so that the outlines are `separation_mm` apart (negative: overlapping by that much).
void place_at_separation(const model::DiskRegistry& registry, const PlacedDisk& a, PlacedDisk& b, double direction_deg,
                         double separation_mm);

}  // namespace diskref::simulator
