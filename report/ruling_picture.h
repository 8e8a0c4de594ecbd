#pragma once
// A ruling drawn for the report: the camera's still of the settle it was read at, cropped to the
// disks concerned, with the legal landings as ghosts, the observed landings and path, where the
// move ended, and every other disk a verdict was taken against (red when it counted: a contact, an
// overlap, in range); and the same seen from above, as SVG in table millimetres. A drop read from
// the counters is drawn the same way: each counter with what it was read as, the ones asked about,
// and what each of those lies on or against.

#include <filesystem>
#include <optional>
#include <string>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"
#include "referee/referee_log.h"

namespace diskref::report {

// What a ruling concerns, placed on the table: gathered once, drawn twice (photo and diagram).
struct RulingScene {
  struct Placed {
    std::string name;
    geom::Pose pose;
    enum class Role {
      start,
      landing,
      ghost,
      end,
      other,
      other_counted,
      counter_read,
      counter_asked
    } role = Role::other;
    std::string label;  // e.g. "1" for the first landing, "-3.2 ± 0.4 mm" for a verdict's disk
  };
  std::vector<Placed> items;
  // What counters asked about lie on or against (a disk's outline, an unexplained part's): drawn
  // red, under the items.
  std::vector<std::vector<geom::Vec2>> lies_against;
  std::vector<geom::Vec2> path;  // the observed centres, start to end
};

// From the entry's evidence and the table as it lay at that settle (other disks' poses).
// Nothing to draw (an entry not read from the table): nullopt.
std::optional<RulingScene> ruling_scene(const referee::Entry& entry, const model::TrackFrame& snapshot);
// A drop read from the counters: nullopt when no counter of it has a place.
std::optional<RulingScene> drop_scene(const referee::DropRead& drop);

// Writes the cropped, drawn still as a JPEG at `out` and returns its size; nullopt when nothing of
// the scene is in the picture.
std::optional<cv::Size> draw_ruling_photo(const cv::Mat& still, const calib::CameraPose& pose, const RulingScene& scene,
                                          const model::DiskRegistry& registry, const std::filesystem::path& out);

// The top-down diagram: an <svg> element, `width_px` wide, the play area's edge drawn where near.
std::string ruling_diagram_svg(const RulingScene& scene, const model::DiskRegistry& registry, geom::Vec2 play_area_mm,
                               int width_px);

}  // namespace diskref::report
