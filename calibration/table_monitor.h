#pragma once
// Keeping the table pose right during a session: the tracker hands every frame's corner-marker
// detections to a TableMonitor, which holds the current pose, notices when the camera was bumped
// (the markers moved in the image, consistently, over several frames), re-estimates the pose and
// reports the change for the log.
//
//   TableMonitor monitor(table, lens, loaded_pose);           // or (table, lens, image_size)
//   for each frame:
//     std::vector<MarkerObservation> seen = ...;              // tags 0..3 found in this frame
//     if (auto event = monitor.update(frame_index, seen)) log(event->message);
//     if (!monitor.pose()) continue;                          // nothing to measure with yet
//     const CameraPose& pose = *monitor.pose();
//
// What counts as a move: a marker has moved when its corners, mapped onto the table through the
// current pose, lie more than `moved_mm` from where they were when the pose was set.
// A frame is "moved" when at least `min_moved_markers` of its markers have moved. The camera is
// re-located when `confirm_frames` moved frames follow one another and one pose fits them all.
// So one noisy detection, a hand over a marker (it is simply not seen: the frame neither confirms
// nor denies), or a single knocked marker never move the pose; a single knocked marker is
// reported once (kind marker_moved) and ignored. Frames with fewer than 2 corner markers are
// neutral.
//
// A drift below `moved_mm` is noticed too (kind drifted): a knocked boom swings and creeps to
// where it stays over a second or so, and the pose re-located mid-swing is then a few tenths of a
// millimetre off — every disk with it. Each marker's displacement from its reference (a vector on
// the table, mm) is averaged over the last `drift_frames` frames that agree with the pose, and
// over the agreeing frames before them since the pose was set (as many at least); each marker's
// noise in one frame (the median of the squared differences between successive agreeing frames:
// a creep hardly shows in them, a step not at all) says how far the two means may differ by noise
// alone (a standard error). When at least `min_moved_markers` markers' means differ by more than
// `drift_sigmas` standard errors and `min_drift_mm`, the pose is fitted again to the median of the
// last frames. Comparing the frames with earlier ones, not with the reference, leaves the
// reference's own error out (a few frames' median, the same in every window). Only the first
// `drift_frames` agreeing frames after a pose was acquired or re-located are compared with the
// reference itself (its own error counted in the standard error), once: a pose located from a few
// frames of a camera still swinging is off from the start, which no later comparison shows.
//
// Not thread-safe; one monitor per video stream. Library code: it never prints; the caller logs.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "engine/model/table_spec.h"

namespace diskref::calib {

struct TableMonitorOptions {
  double moved_mm = 1.0;       // a marker displaced by more than this (table mm) has moved
  int min_moved_markers = 2;   // markers that must have moved for a frame to count as moved
  int confirm_frames = 5;      // consecutive moved frames before the camera is re-located
  double max_fit_px = 1.5;     // a new pose must fit every confirming frame's markers this well (RMS)
  int drift_frames = 8;        // agreeing frames over which a drift is judged (0: never)
  double drift_sigmas = 4.0;   // a marker's mean displacement beyond this many standard errors...
  double min_drift_mm = 0.04;  // ...and beyond this (table mm) has drifted
};

struct TableMonitorEvent {
  enum class Kind {
    acquired,      // first pose, from the first confirm_frames frames with 2+ markers
    camera_moved,  // the camera moved; the pose was re-estimated
    marker_moved,  // one corner marker moved on its own; it is ignored until it is back
    drifted,       // the markers drifted beyond their noise, less than a move: the pose was re-fitted
  };
  Kind kind = Kind::acquired;
  long long frame = 0;  // the frame at which it was decided
  double shift_mm = 0;  // camera_moved, marker_moved, drifted: mean displacement of the moved markers, mm
  std::string message;  // one line for the log, e.g. "frame 812: camera moved (markers shifted 3.4 mm); ..."
};

const char* to_string(TableMonitorEvent::Kind kind);

class TableMonitor {
 public:
  // Starts from a known pose (e.g. diskref track --table-pose). `lens` as for estimate_camera_pose
  // (nullopt: uncalibrated).
  TableMonitor(model::TableSpec table, std::optional<CameraModel> lens, CameraPose pose,
               TableMonitorOptions options = {});
  // Starts with no pose; acquires one from the first frames (event kind acquired).
  TableMonitor(model::TableSpec table, std::optional<CameraModel> lens, cv::Size image_size,
               TableMonitorOptions options = {});

  // Call once per frame, in frame order, with that frame's corner-marker detections (raw pixels,
  // OpenCV convention, apriltag corner order; ids other than 0..3 are ignored, an empty list is
  // fine). Returns an event when something changed at this frame.
  std::optional<TableMonitorEvent> update(long long frame, const std::vector<MarkerObservation>& markers);

  // The current pose; nullopt until one was acquired.
  const std::optional<CameraPose>& pose() const { return pose_; }
  // Every event so far, in order.
  const std::vector<TableMonitorEvent>& events() const { return events_; }
  // How far the pose is off now by the markers' own word (table mm, RMS over the markers seen):
  // each marker's mean displacement from its reference over the last `frames` agreeing frames;
  // within 3 standard errors of noise (the frames' and the reference's own) 0, beyond it with the
  // noise's expected square taken off. About 0 for a camera that keeps still; the creep of a boom
  // after a knock, until the pose is re-fitted. 0 before a few frames agreed.
  static constexpr int kRecentDriftFrames = 4;
  double recent_drift_mm(std::size_t frames = kRecentDriftFrames) const;

 private:
  struct Displacement {
    int id = 0;
    double mm = 0;
  };
  std::vector<Displacement> displacements(const std::vector<MarkerObservation>& markers) const;
  // Each marker's mean displacement from its reference (table mm, over its corners) as a vector;
  // nullopt for a marker whose corners' rays miss the table.
  std::optional<geom::Vec2> displacement_vector(const MarkerObservation& marker) const;
  // A marker's noise in one frame (table mm², per axis), from successive agreeing frames'
  // displacements (the median of their squared differences); nullopt until a few were seen.
  std::optional<double> frame_noise2(int id) const;
  // The agreeing frames so far show the markers drifted: the pose re-fitted to them.
  std::optional<TableMonitorEvent> check_drift(long long frame);
  // The pose fitted again to the median of `frames` (kind drifted).
  std::optional<TableMonitorEvent> refit_to(const std::vector<std::vector<MarkerObservation>>& frames, long long frame,
                                            double shift_mm);
  std::optional<TableMonitorEvent> try_new_pose(long long frame, TableMonitorEvent::Kind kind, double shift_mm);
  // `reference_frames`: how many frames' median `reference` is (0: predicted by a given pose).
  void set_pose(CameraPose pose, const std::vector<MarkerObservation>& reference, std::size_t reference_frames);

  model::TableSpec table_;
  std::optional<CameraModel> lens_;
  cv::Size image_size_;
  TableMonitorOptions options_;
  std::optional<CameraPose> pose_;
  // Where each marker's corners were when the pose was set (observed; or predicted by a given pose).
  std::map<int, MarkerObservation> reference_;
  std::size_t reference_frames_ = 0;                     // the frames the reference is the median of (0: predicted)
  std::vector<std::vector<MarkerObservation>> pending_;  // consecutive moved (or, before a pose, usable) frames
  std::map<int, int> moved_marker_streak_;               // consecutive frames each marker alone was moved
  // The last frames that agree with the pose since it was set.
  static constexpr std::size_t kAgreeingFrames = 64;
  bool reference_checked_ = false;  // the first agreeing frames were compared with the reference
  std::vector<std::vector<MarkerObservation>> agreeing_;
  // Per marker: the squared differences between its displacements in the last successive agreeing
  // frames (a creep hardly shows in them), for its noise in one frame; their median, so that a
  // step (the camera knocked, a marker misread) does not count as noise.
  struct MarkerNoise {
    std::vector<double> differences2;  // the last kNoiseDifferences, oldest first
    std::optional<geom::Vec2> last;
  };
  static constexpr std::size_t kNoiseDifferences = 31;
  std::map<int, MarkerNoise> noise_;
  std::vector<TableMonitorEvent> events_;
};

}  // namespace diskref::calib
