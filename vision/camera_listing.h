#pragma once
// A V4L2 camera described for a person (`diskref cameras`): its name, its formats with their sizes
// and rates, the controls diskref sets, and the mode diskref would choose.

#include <optional>
#include <string>

#include "vision/camera_inventory.h"

namespace diskref::vision {

// Several lines, each ending in '\n'. `choice`: the mode chosen for the options given, or nullopt
// with `choice_problem` saying why none fits.
std::string camera_listing(const CameraDescription& description, const std::optional<FormatChoice>& choice,
                           const std::string& choice_problem);

}  // namespace diskref::vision
