#pragma once
// Each of spec §6's questions reduced to the one signed number its verdict turns on (the decisive
// margin), and that number's sigma from the placement's covariance.

#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "engine/model/scene_check.h"

namespace diskref::photo {

struct DecisiveMargin {
  double margin_mm = 0;  // range, template_check: margin_mm; overlap: separation_mm; move: the
                         // smallest separation (a torpedo passed, a disk where it ends)
  bool yes = false;      // in range / overlaps / overlaps both / touches a torpedo or ends on a disk
};

// nullopt for a move with no other disk to touch (nothing is decided by a margin).
std::optional<DecisiveMargin> decisive_margin(const model::Scene& scene, const model::SceneQuestion& question);

// The margin's sigma: its gradient with respect to every disk's (x, y, heading in radians),
// by central differences, through `covariance` (3 per scene disk, same order), so that what the
// disks share through one camera is kept.
double margin_sigma(const model::Scene& scene, const model::SceneQuestion& question, const cv::Mat& covariance);

}  // namespace diskref::photo
