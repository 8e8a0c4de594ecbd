#pragma once
// The disks step of a setup: the kit's disks laid on the table and followed by the tracker
// (vision/tracker.h), each named as it is found, with what is wrong: a disk not seen yet, a face
// never shown, a tag read at another size than the registry's (the sheet printed at the wrong
// scale), a tag too small for this camera where it lies (the camera planner at its place), and,
// for a disk flipped on the table, how far its down face's heading disagrees with its up face's
// (a face glued turned): the heading_offset_deg that would correct it.
//
// The flip check rests on what a flip is (spec §4 and the rules: a disk turns over its front edge
// and keeps its heading): consecutive landings of one disk on different faces should read the same
// heading. A hand never flips quite straight, so the disagreement is averaged over the flips seen
// and said only when it stands out from their spread.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "setup/advice.h"
#include "vision/tracker.h"

namespace diskref::setup {

// A face's heading may disagree with the other's by this much before it is called turned (a hand's
// flip is good to a degree or two; a label glued by eye, to several).
inline constexpr double kFaceTurnedDeg = 3.0;

struct DiskSeen {
  std::string name;
  model::DiskKind kind = model::DiskKind::ship;
  bool seen_up = false, seen_down = false;
  bool has_down_tag = false;
  std::optional<model::DiskTrack> now;        // the tracker's latest (visible or stale)
  double px_per_cell = 0;                     // its tag where it lies, from the table pose (0: not yet)
  int wrong_size = 0;                         // detections refused for their size
  double wrong_size_mm = 0;                   // the last such detection's fitted size
  std::vector<double> flip_disagreement_deg;  // down face's heading minus up face's, per flip seen
  bool seen() const { return seen_up || seen_down; }
};

class DisksCheck {
 public:
  DisksCheck(model::TableSpec table, model::DiskRegistry registry, std::optional<calib::CameraModel> lens);

  // One frame (BGR or grey) with its number and time.
  const vision::TrackerResult& add_frame(const cv::Mat& image, long long index, double t);

  const std::vector<DiskSeen>& disks() const { return disks_; }
  // Each problem with its fix, then what is fine.
  std::vector<Advice> advice() const;
  // Every disk seen, none read at a wrong size or too small.
  bool ready() const;
  // The heading_offset_deg each down face would need (only faces whose disagreement stands out).
  std::map<int, double> suggested_offsets() const;
  const vision::TrackerResult& last() const { return last_; }

 private:
  model::TableSpec table_;
  model::DiskRegistry registry_;
  vision::Tracker tracker_;
  vision::TrackerResult last_;
  std::vector<DiskSeen> disks_;
  // Per disk, the last time it was seen at rest (a landing, or a frame where it lay still and
  // visible): a rest on the other face than the one before is a flip.
  struct Rest {
    model::Face face = model::Face::up;
    double heading = 0;
  };
  std::vector<std::optional<Rest>> last_rest_;
  void rest(std::size_t disk, model::Face face, double heading);
};

// The registry with the suggested heading offsets applied to their tags (added to what they are).
model::DiskRegistry with_offsets(const model::DiskRegistry& registry, const std::map<int, double>& corrections);

}  // namespace diskref::setup
