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
// window restarts from it. So is a flip (the other face seen) and a tag of the disk seen but not
// lying flat (`lifted`: tilted as it turns over, lifted by a hand). The reported pose is the
// window's mean (the inverse-variance weighted average of its still frames; a single raw
// observation right after motion), so a moving disk's pose is its raw measurement and a still
// disk's pose is the average of all its still frames. A disk is `moving` while it has moved within
// the last `settle_time_s`, else `settled`.
//
// sigma_mm (per axis, 1 sigma) of the still window's mean has three parts: the frames' random
// noise, averaged down over the window (its own scatter pooled with the corner fit's estimate);
// the detector's bias for a tag lying still, which averaging does not remove (the same pixels
// every frame); and the table pose's share at the disk's place (pose_uncertainty.h), which no
// frame of this disk can remove.
//
// Landings (spec §5 extension, model::Landing): a rest is a still window of at least
// `min_rest_frames` frames. A rest is a landing when the disk lies on its other face, or at least
// half its flip length from where it lay still before (a turn on the spot, a nudge, or the first
// place a disk is seen are not landings). Each landing is reported once, with the window's mean
// pose and sigma and the time its first still frame was taken: when the rest ends (the disk moves
// again or goes unseen), or at the latest when the table settles (`settle()`), so that a move's
// landings are all out by the settle that ends it. A landing the camera never saw (covered, or a
// face without a tag) is missing.
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
  double noise_sigma_mm = 0;   // this measurement's random noise, per axis (corner fit)
  double heading_noise_deg = 0;
  double bias_sigma_mm = 0;         // the detector's bias for this tag if it lay still, per axis
  double calibration_sigma_mm = 0;  // the table pose's share at this place, per axis
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
  // A still window of this many frames is a rest (two frames that agree: nothing mid-flip does).
  int min_rest_frames = 2;
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
  // seen, where they were; only a visible, settled disk can be unchanged). `lifted`: disks whose
  // tag was seen but not lying flat (motion). Frames come in time order. The frame's `landings`
  // are those whose rest ended in it; `settled` is left unset (the table's, not the disks').
  model::TrackFrame update(long long frame, double t, std::span<const DiskObservation> observations,
                           std::span<const std::size_t> unchanged = {}, std::span<const std::size_t> lifted = {});

  // The table has settled: the landings not reported yet (rests that are landings, still going on).
  std::vector<model::Landing> settle();

  // The table pose was corrected for the same view (re-fitted after the camera drifted): what each
  // disk's still window averaged was measured through the old pose, and the same picture lies
  // `shifts[i]` (table mm, per disk of the registry) from there through the new one. The windows,
  // the last observations and the last rests are moved by that, so that the frames before and
  // after average together and the next observation is no false motion. Reported poses follow at
  // each disk's next observation (a stale disk's pose never moves while it is stale).
  void shift_poses(std::span<const geom::Vec2> shifts);

  // Whether any disk moved within the last settle_time_s (as of the last update).
  bool any_moving() const;
  // Whether any disk moved in the last update itself (a pose beyond its still window, a flip, a
  // tilted tag): stillness over a window of one's own is measured from this (Tracker's still_s).
  // `picture_changed_t`: the last frame the picture changed. A disk seen again after a gap, moved,
  // that was last seen before then moved while the picture changed — that change already ended the
  // caller's stillness — so it does not count as moving now (a counter found again after it came
  // to rest, say when a neighbour stops hiding its tag).
  bool moved_now(double picture_changed_t = -1e300) const;

  const std::vector<DiskEstimate>& estimates() const { return estimates_; }
  const DiskTrackerOptions& options() const { return options_; }

 private:
  // The observations since the disk last moved, averaged with inverse-variance weights (a frame
  // measured badly, e.g. a blurred one, counts for little). Positions are summed relative to the
  // first one, for precision.
  struct StillWindow {
    int count = 0;
    double first_t = 0;
    geom::Vec2 origin{};
    double sum_w = 0, sum_w2 = 0;
    double sum_wx = 0, sum_wy = 0, sum_wxx = 0, sum_wyy = 0;
    double sum_wcos = 0, sum_wsin = 0;
    double sum_bias2 = 0;
    void add(const DiskObservation& o, double t);
    geom::Pose mean() const;
    // Per-axis 1-sigma of the mean from the frames' random noise (see disk_tracker.cpp).
    double mean_random_sigma() const;
    // Per-axis 1-sigma of the mean from what the frames share: the detector's bias.
    double bias_sigma() const;
  };
  struct Rest {
    geom::Pose pose;
    model::Face face = model::Face::up;
  };
  struct DiskMemory {
    StillWindow window;
    model::Face window_face = model::Face::up;
    double last_motion_t = -1e300;
    double motion_from_t = -1e300;  // the last motion: when the disk was seen before it (t of itself if tilted)
    geom::Pose reported;
    double reported_sigma_mm = 0;
    model::Motion motion = model::Motion::settled;
    std::optional<Rest> last_rest;  // where it last lay still before this window
    bool landing_reported = false;  // this window's landing is out
  };

  bool is_motion(const DiskMemory& memory, const DiskObservation& o) const;
  bool is_landing(std::size_t disk) const;
  model::Landing landing_of(std::size_t disk) const;
  // The disk moves: its still window ends (reported as a landing if it is one, not yet reported).
  void end_rest(std::size_t disk, std::vector<model::Landing>& landings);
  // The rest goes on unseen (or the table settled): report it now if it is an unreported landing.
  void report_if_landing(std::size_t disk, std::vector<model::Landing>& landings);

  model::DiskRegistry registry_;
  DiskTrackerOptions options_;
  std::vector<DiskMemory> memory_;
  std::vector<DiskEstimate> estimates_;
  double last_t_ = 0;
};

}  // namespace diskref::vision
