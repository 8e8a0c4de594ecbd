#pragma once
// The Tracker's memory between frames, one struct per stage (the stages: tracker.h): what each
// stage keeps from one frame to the next, and the state it is in. For the tracker's own files
// (tracker*.cpp); a Tracker holds one of each, and Tracker::reset() says what a seek forgets.

#include <array>
#include <cstddef>
#include <memory>
#include <optional>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_pose.h"
#include "calibration/table_monitor.h"
#include "engine/geometry/pose.h"
#include "engine/model/disk_registry.h"
#include "engine/model/track_frame.h"
#include "vision/apriltag_detector.h"
#include "vision/change_detector.h"
#include "vision/disk_tracker.h"
#include "vision/pose_uncertainty.h"
#include "vision/search_planner.h"
#include "vision/settle_clock.h"
#include "vision/table_watch.h"
#include "vision/tag_search.h"
#include "vision/tilted_tag.h"

namespace diskref::vision::tracker_stages {

// change, plan, grey, detect: the frame against the previous one, where to look, the detectors.
struct Search {
  Search(const DetectorOptions& detector, const SearchPlannerOptions& planner_options,
         const ChangeDetectorOptions& change_options)
      : change(change_options), planner(planner_options), tags(detector) {}

  ChangeDetector change;  // the previous frame (shrunk)
  SearchPlanner planner;  // the sweep's next tile
  TagSearch tags;         // the detectors
  // What the next frame's search covers: where tags can be (around known disks and markers, where
  // the image changed, a sweep tile), or the whole table — nothing is known yet (the first frame,
  // after a reset, no table pose), or most of the table changed at once (the camera was bumped,
  // the light changed): everything may have moved in the image.
  enum class Scope { where_tags_can_be, whole_table };
  Scope next_scope = Scope::whole_table;
  cv::Mat grey_buffer;  // grey copies of the searched regions of colour frames
};

// What follows from the table pose and the image size; recomputed when either changes.
struct PoseGeometry {
  cv::Size image_size;
  cv::Rect table_px;  // play area and markers, printed tags included
  double min_pixels_per_cell = 1;
  TagScaleMap tag_scale;        // the smallest tag's pixels per cell, place by place
  double max_tag_px = 64;       // any tag, corner markers included
  double max_disk_tag_px = 64;  // the disks' tags
  int mask_scale = 1;
  cv::Mat play_area_small;  // play-area polygon at the change detector's scale (255 inside)
};

// table: the table pose from the corner markers, and whether the camera has moved.
struct TableView {
  // Acquires the pose from the first frames' markers, notices a bumped or drifting camera and
  // re-estimates (calibration/table_monitor.h); made at the first frame (or a given pose).
  std::optional<calib::TableMonitor> monitor;
  std::shared_ptr<const calib::CameraPose> pose;  // null until known; shared, never modified
  std::shared_ptr<const PoseGeometry> geometry;
  std::optional<PoseUncertainty> uncertainty;
  // Recent frames' corner-marker observations (frames that saw 2 or more): the provisional pose and
  // the pose's uncertainty are taken from their median.
  static constexpr std::size_t kMarkerHistoryFrames = 15;
  std::vector<std::vector<calib::MarkerObservation>> marker_history;
  // Until the monitor acquires its pose: the provisional pose, taken from the first frames that
  // show the markers, then once more from the median of a full history (kMarkerHistoryFrames).
  enum class Provisional { from_first_frames, from_full_history };
  Provisional provisional = Provisional::from_first_frames;
  int unacquired_marker_frames = 0;  // marker frames given to the monitor before it acquired
  // The camera as the markers show it: steady, or suspected of having moved (2 or more markers
  // away from where the pose puts them) for this many marker checks in a row. While suspected,
  // nothing is measured with the old pose and the markers are looked for every frame.
  int displaced_marker_checks = 0;
  bool camera_suspect() const { return displaced_marker_checks > 0; }
};

// Per disk, the picture (the change detector's shrunk grey) of its tag where it was last measured
// (tracker_still_picture.cpp).
struct MeasuredPicture {
  cv::Rect box_px;             // full resolution
  cv::Rect box_small;          // in the shrunk frame
  cv::Mat small;               // the shrunk frame's pixels there, then
  bool changed_since = false;  // the change detector saw a change there in a frame since
};

// Per disk, its tag seen tilted (not lying flat): where in the image it was first seen at its
// present place, when first and last, and whether anything changed there since it was last seen
// (tracker_tilted.cpp).
struct TiltedSighting {
  std::array<cv::Point2d, 4> corners;
  double first_t = 0;
  double t = 0;
  int sightings = 1;
  bool changed_since = false;
  model::Face face = model::Face::up;
  std::optional<TiltedTagPose> pose;  // in space, from the corners (tilted_tag.h)
};

// measure, track: each disk's track (states, motion, smoothing, landings: disk_tracker.h) and what
// the tracker remembers of each disk's tag, all indexed as the registry's disks.
struct Disks {
  Disks(const model::DiskRegistry& registry, const DiskTrackerOptions& options)
      : tracker(registry, options),
        last_measured_frame(registry.disks().size(), -1),
        measured_pictures(registry.disks().size()),
        tilted(registry.disks().size()) {}

  DiskTracker tracker;
  std::vector<long long> last_measured_frame;  // -1 = never
  std::vector<std::optional<MeasuredPicture>> measured_pictures;
  std::vector<std::optional<TiltedSighting>> tilted;
};

// settle, the watch: the table's picture when it last settled, which every frame is compared with
// (table_watch.h), at the change detector's scale and at full resolution, with where the disks
// lay then.
struct Watch {
  Watch(const TableWatchOptions& options, std::size_t disks) : watch(options), background_poses(disks) {}

  TableWatch watch;
  std::vector<std::optional<geom::Pose>> background_poses;  // per disk, when the watch's background was taken
  cv::Mat background_grey;                                  // the watch's background at full resolution (8-bit grey)
  // Its picture of the table: current, or to be taken again through a new view. Located again
  // after the camera moved, the picture taken through the old view would differ all over; it is
  // taken again at the first frame where nothing changes and no disk moves, and until then the
  // table is not quiet.
  enum class Picture { current, to_retake };
  Picture picture = Picture::current;
};

// settle, what covers the table: the foreign parts the watch found in the last frame, for the
// next frame's search.
struct Foreign {
  std::vector<cv::Rect> small_parts_px;  // searched again
  std::vector<cv::Rect> large_parts_px;  // a hand: nothing is looked for again under them
};

// settle, the clocks: how long the table has been quiet (settled) and its picture still (still_s).
struct Settle {
  explicit Settle(double window_s) : clock(window_s) {}

  SettleClock clock;
  std::optional<double> last_unstill_t;  // the last frame the play area was not still (still_s)
  bool last_frame_still = false;         // the last frame's play area was still
  double picture_changed_t = -1e300;     // the last frame the play area's picture changed
};

}  // namespace diskref::vision::tracker_stages
