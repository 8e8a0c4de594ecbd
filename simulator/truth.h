#pragma once
// Ground truth: what a perfect `diskref track` would output for each frame (spec §5), from the
// exact scene.
//
// A disk is `visible` while it lies flat on the table and its printed tag (all 9 x 9 cells) is
// wholly inside the image and not covered by anything (a hand, a board, a carried or turning
// disk) as seen from the camera; its pose is then its true centre and heading in the table frame.
// Otherwise it is `stale` with its last seen pose and face, and `lost` (no pose) once unseen for
// kDefaultLostAfterSeconds. A disk never seen is not listed. sigma_mm is 0. Extensions: a disk's
// `motion` ("moving" while it turns over, turns, or is carried; not while it lies still between
// two flips), `age_s` for stale disks, and the frame's `settled`.
//
// Settled, as the tracker must judge it (the same rule, so that its settles can be compared): the
// table is quiet in a frame when nothing but disks lying still covers any of the play area as the
// camera sees it — no hand or arm, no board, no disk that has moved since the previous frame
// (turning over, turning, carried, or just landed) — and settled once it has been quiet for the
// settle window (every frame of the last `settle_window_s`, counted from the first frame: before
// it nothing was watched). A disk moving outside the play area, or a hand beyond its edge, does
// not count. "Since the previous frame": a motion that begins at the very moment of a frame has
// not moved anything in it yet, and no camera could tell. `still_s` is how long it has been quiet
// (the tracker's still_s: with every disk known, nothing is foreign).

#include <optional>
#include <vector>

#include "engine/model/track_frame.h"
#include "simulator/camera_rig.h"
#include "simulator/scene.h"

namespace diskref::simulator {

class GroundTruth {
 public:
  GroundTruth(const SceneModel& model, const CameraRig& rig, double lost_after_s = model::kDefaultLostAfterSeconds,
              double settle_window_s = model::kDefaultSettleWindowSeconds);

  // The frame's truth given the scene at the frame's time. Call once per frame, in order.
  model::TrackFrame next(long long frame, double t, const SceneInstant& instant);

  // Whether the disk's visible tag is wholly in the image and uncovered in this instant.
  bool tag_visible(const SceneInstant& instant, const DiskInstant& disk) const;
  // The table-frame 3-D corners of the disk's visible tag, in apriltag's order (bottom-left,
  // bottom-right, top-right, top-left of the upright bitmap, as CornerMarker::corners_mm); empty
  // when that face has no tag.
  std::vector<cv::Point3d> tag_corners(const DiskInstant& disk) const;
  // Whether a hand or arm, a board or a disk in motion covers part of the play area as the camera
  // sees it in this instant (sampled every few millimetres over the play area). A disk is in motion
  // when its pose differs from `previous` (the previous frame's instant), or without one when it
  // is moving now.
  bool play_area_disturbed(const SceneInstant& instant, const SceneInstant* previous = nullptr) const;

 private:
  struct Memory {
    bool seen = false;
    double last_seen_t = 0;
    double x = 0, y = 0, heading = 0;
    model::Face face = model::Face::up;
  };
  const SceneModel& model_;
  CameraRig rig_;
  double lost_after_s_;
  double settle_window_s_;
  std::optional<double> last_disturbed_t_;  // the first frame counts: nothing was watched before it
  std::optional<SceneInstant> previous_;    // the previous frame's instant
  std::vector<Memory> memory_;              // by registry index
};

// Table-frame point of a disk-local point on its top face (z = thickness in the body frame).
cv::Point3d top_face_point(const DiskInstant& disk, double thickness_mm, double x_mm, double y_mm);

}  // namespace diskref::simulator
