#pragma once
// A damage counter (spec §4's addition, kind "counter") as printed by `diskref tags`: both faces
// side by side, each with its tag and, below it, what the face shows ("HIT!", the critical type),
// joined by a fold tab as long as the counter is thick. Cut round the whole outline, lay the card
// disk on one face, fold the tab over its rim and glue the other face on its back: the faces come
// out back to back and centred on each other (the glue guide is the fold). Also whether the
// counters can be read by a given camera: a counter read wrong is a wrong drop, so a camera that
// cannot read them is refused, with the camera that would.
//
// Item frame: millimetres from the item's top-left corner, x right, y down (as tag_sheet.h).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/disk_registry.h"
#include "print/disk_appearance.h"
#include "print/tag_sheet.h"

namespace diskref::print {

struct CounterArt {
  double width_mm = 0, height_mm = 0;
  // Colour (BGR, 0..255) at an item point, or nullopt for the paper.
  std::function<std::optional<cv::Vec3f>(double x, double y)> color;
  std::vector<std::string> label;
  // Where each face's centre is (item mm), up face first, and where the fold lines run (x).
  cv::Point2d up_centre, down_centre;
  double fold_x0 = 0, fold_x1 = 0;
};

// `look` must be a counter's. The appearance is referred to, not copied: keep it alive.
CounterArt counter_art(const DiskAppearance& look);

// One line per counter face whose tag `camera` (straight above) sees with fewer than
// kMinPixelsPerCell pixels a cell, saying which camera height and which resolution would read it.
std::vector<std::string> counter_read_problems(const model::DiskRegistry& registry, const ViewingCamera& camera);

}  // namespace diskref::print
