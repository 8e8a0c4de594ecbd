#pragma once
// The tracker's memory: from each frame's accepted disk observations to the spec §5 record.
//
// Per disk: `visible` when observed in this frame; `stale` when not (its last reported pose is kept
// unchanged and its age counted); `lost` once unseen for longer than `lost_after_s` (no pose). A disk
// never observed is not listed. Both faces' tags are one disk: a flip only changes `face`.
//
// Motion and smoothing (no quantisation, no lag beyond the noise): each disk keeps a "still
// window", the observations since it last moved. An observation further from the window's mean
// than the motion tolerance (max(still_sigmas * noise, still_floor_px in the image)) is motion: the
// window restarts from it. The reported pose is the window's mean (the inverse-variance weighted
// average of its still frames; a single raw observation right after motion), so a moving disk's
// pose is its raw measurement and a still disk's pose is the average of all its still frames. A disk is `moving` while it has moved
// within the last `settle_time_s`, else `settled`.
//
// The table is `settled` when no visible disk is moving and the image over the table has been quiet
// (no hands moving: the caller's change detection) for `settle_time_s`. Stale disks do not count:
// a disk under the range template, or one taken away and not yet lost, leaves the table settled.
// (A hand held perfectly still over the table is not noticed; real hands are never that still.)
//
// Pure data in, data out: no OpenCV, no clocks, no threads; not thread-safe (one per pipeline).

#include <optional>
#include <span>
#include <vector>

#include "engine/geometry/pose.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"

namespace diskref::vision {

// One disk measured in one frame (the pipeline has already rejected what cannot be real).
struct DiskObservation {
  std::size_t disk_index = 0;  // into the registry
  model::Face face = model::Face::up;
  geom::Pose table_from_disk;  // table frame: the disk's centre and heading
  double noise_sigma_mm = 0;   // this measurement's noise, per axis (corner fit)
  double heading_noise_deg = 0;
  double calibration_sigma_mm = 0;  // the table pose's share of the uncertainty, per axis
  double pixels_per_mm = 1;         // image scale at the disk, for thresholds given in pixels
  double tag_size_mm = 0;           // the seen tag's size, for the heading threshold in pixels
};

struct DiskTrackerOptions {
  double lost_after_s = model::kDefaultLostAfterSeconds;
  // A change of pose bigger than this many noise sigmas is motion...
  double still_sigmas = 4.0;
  // ...and so is one bigger than this in the image (pixels; a corner moving this far), whatever the
  // noise estimate says; smaller changes are what a still tag's detection does from frame to frame.
  double still_floor_px = 0.3;
  // A disk that moved within this time is `moving`.
  double settle_time_s = 0.1;
};

// What the tracker knows about one disk now, for the pipeline's search (where to look).
struct DiskEstimate {
  bool ever_seen = false;
  model::TrackState state = model::TrackState::lost;
  model::Face face = model::Face::up;
  geom::Pose last_observed;  // raw, table frame
  geom::Vec2 velocity_mm_s{};
  double last_seen_t = 0;
  model::Motion motion = model::Motion::settled;
};

class DiskTracker {
 public:
  explicit DiskTracker(model::DiskRegistry registry, DiskTrackerOptions options = {});

  // Feeds one frame. `observations` holds at most one per disk. `unchanged`: disks not measured
  // again because the image around them is the same as when they were last measured (they are
  // seen, where they were; only a visible, settled disk can be unchanged). `table_quiet`: no change
  // in the image over the table (hands, moving things) in this frame. Frames come in time order.
  model::TrackFrame update(long long frame, double t, std::span<const DiskObservation> observations, bool table_quiet,
                    std::span<const std::size_t> unchanged = {});

  const std::vector<DiskEstimate>& estimates() const { return estimates_; }
  const DiskTrackerOptions& options() const { return options_; }

 private:
  // The observations since the disk last moved, averaged with inverse-variance weights (a frame
  // measured badly, e.g. a blurred one, counts for little). Positions are summed relative to the
  // first one, for precision.
  struct StillWindow {
    int count = 0;
    geom::Vec2 origin{};
    double sum_w = 0, sum_w2 = 0;
    double sum_wx = 0, sum_wy = 0, sum_wxx = 0, sum_wyy = 0;
    double sum_wcos = 0, sum_wsin = 0;
    void add(const DiskObservation& o);
    geom::Pose mean() const;
    // Per-axis 1-sigma of the mean from noise (see disk_tracker.cpp).
    double mean_noise_sigma() const;
  };
  struct DiskMemory {
    StillWindow window;
    double last_motion_t = -1e300;
    double previous_t = 0;
    geom::Pose reported;
    double reported_sigma_mm = 0;
    model::Motion motion = model::Motion::settled;
  };

  bool is_motion(const DiskMemory& memory, const DiskObservation& o) const;

  model::DiskRegistry registry_;
  DiskTrackerOptions options_;
  std::vector<DiskMemory> memory_;
  double last_table_change_t_ = -1e300;
  std::vector<DiskEstimate> estimates_;
};

}  // namespace diskref::vision
