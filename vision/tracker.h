#pragma once
// diskref's eye: camera frames in, where every disk is (spec §5) out.
//
// One call per frame, as a list of named stages:
//   change     where the image changed since the previous frame (change_detector.h, on a shrunk
//              copy)
//   plan       where to look: around known disks and markers, where it changed, one sweep tile
//              (search_planner.h); the whole table when nothing is known yet
//   grey       those regions as 8-bit grey (tags are black and white; converting only them saves
//              converting the whole colour frame)
//   detect     apriltag over those regions on `detector.threads` threads (tag_search.h)
//   table      the corner markers seen -> the table pose, through calibration's TableMonitor (it
//              acquires the pose from the first frames' markers, notices a bumped camera and
//              re-estimates); until it has acquired one, a provisional pose from each frame's
//              markers alone, so that the first frames are measured too
//   measure    every other tag -> its disk (registry), its pose on the table at the disk's
//              thickness, lens-corrected corner points (tag_measurement.h); what cannot be real is
//              rejected and counted by reason
//   track      states, motion, smoothing, landings (disk_tracker.h)
//   settle     whether the table is settled (spec §9): quiet — no change over the play area, no
//              disk moving or lifted (a tag seen tilted where it was a moment ago is a disk
//              lying tilted at rest), nothing but disks over the play area (table_watch.h: a hand
//              held still too) — for `settle_window_s` (settle_clock.h); at each settle the
//              landings still open are reported and the watch takes the picture as the table's.
//              Also how long the play area has been still (`still_s`: no change, no disk moving or
//              lifted — a disk found again after the picture last changed moved with that change,
//              and a tag seen tilted where it was a moment ago lies tilted at rest — whatever
//              foreign thing lies still on it) and what foreign things lie on it,
//              part by part on the table (`foreign`): reading a drop of counters needs only those
//              (referee/counter_reading.h). A small foreign part (a counter whose tag was missed
//              as it landed) is searched for tags in the next frame, and in every frame it stays;
//              it and the surroundings of counters new since the last settle are looked at again
//              at full resolution, for each part's outline and the disks it lies against
//              (tracker_foreign.cpp, foreign_shapes.h). Once the picture is still, a small tag the
//              search missed where one is likely is looked for in the picture enlarged
//              (tracker_second_look.cpp).
// What each stage keeps from one frame to the next is one struct of tracker_stages.h; the settle's
// quiet and the stillness are one definition, play_area_quiet.h, in two named ways.
//
// Threading: a Tracker is used from one thread at a time (e.g. the UI's worker thread); it keeps
// no global state and runs its detectors on OpenCV's thread pool inside process(). Two Trackers
// are independent. Library code: it never prints or exits; bad arguments throw.

#include <array>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include <opencv2/core.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "calibration/table_monitor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "vision/apriltag_detector.h"
#include "vision/change_detector.h"
#include "vision/disk_tracker.h"
#include "vision/pose_uncertainty.h"
#include "vision/rim_under.h"
#include "vision/search_planner.h"
#include "vision/settle_clock.h"
#include "vision/table_watch.h"
#include "vision/tag_measurement.h"
#include "vision/tilted_tag.h"
#include "vision/tracker_stages.h"

namespace diskref::vision {

// Why a detection was not taken as a disk.
enum class RejectReason {
  unknown_id,     // the id is in no disk's tags (and is not a corner marker)
  wrong_size,     // its size on the table does not match the registry's size_mm
  off_table,      // its disk's centre would lie off the play area (or its corners' rays miss the table)
  seen_twice,     // its disk was seen more than once in the same frame
  mirrored,       // its corners go round the wrong way on the table (seen through the table?)
  no_table_pose,  // the table pose is not known yet: nothing can be placed
  not_flat,       // not a square on the table plane: tilted in a flip, lifted, or smeared
  camera_moved,   // the corner markers moved in the image: until the pose is re-estimated, not measured
};
inline constexpr std::size_t kRejectReasonCount = 8;
std::string_view to_string(RejectReason reason);

// The detector as the tracker runs it: apriltag's defaults, except that candidates of less than
// 25 grey levels' contrast are dropped at once (printed tags are black on white; a cloth or
// wooden table's texture makes thousands of faint candidates, and dropping them halves the work
// on a textured table; renders in dim light, exposure 0.35, lose nothing).
DetectorOptions tracker_detector_options();

struct TrackerOptions {
  DetectorOptions detector = tracker_detector_options();  // family (tagStandard41h12), threads, hamming, margins
  DiskTrackerOptions disks;
  SearchPlannerOptions search;
  ChangeDetectorOptions change;
  TableWatchOptions watch;
  TagMeasurementOptions measurement;
  PoseUncertaintyOptions pose_uncertainty;
  // How far a disk's tag may lie above or below its registry thickness (mm, 1 sigma: card,
  // print and glue; the table not quite flat). A template lies across the disks it measures: it
  // is taken to lie half the thickest disk higher than its own thickness, give or take as much.
  double thickness_sigma_mm = 0.05;
  // The table is settled once it has been quiet for this long (spec §9: 0.5 s, a parameter).
  double settle_window_s = model::kDefaultSettleWindowSeconds;
  // When the camera counts as moved (calibration/table_monitor.h). Half a millimetre, not the
  // monitor's 1: a knocked boom that stays 0.06 degrees off moves the corner markers 0.8-1 mm over
  // a 600 mm play area from 0.85 m, and the table's picture taken before it then differs all over
  // (never settled until absorbed); the markers are measured to better than 0.1 mm, and a camera
  // called moved once too often costs only a settle's wait.
  calib::TableMonitorOptions table_monitor{.moved_mm = 0.5};
  // A tag whose fitted size differs from its registry size by more than this fraction is rejected.
  double size_tolerance = 0.15;
  // A tag whose corners depart from a square (RMS per coordinate) by more than the larger of these
  // is not lying flat: rejected. Flat tags stay within a few tenths of a pixel (noise, blur, a
  // slightly unsquare print); a disk tilted 15 degrees in a flip is about 3 % off square.
  double max_shape_residual_px = 0.5;
  double max_shape_residual_fraction = 0.03;  // of the tag's side in pixels
  // Search the whole table every frame instead of only where tags can be (slow; for comparison).
  bool exhaustive_search = false;
  // When more than this fraction of the play area changed in one frame (a bumped camera, a light
  // switched on), the next frame is searched whole.
  double rescan_changed_fraction = 0.6;
  // Once the table pose is known, the corner markers are looked for every this many frames (for
  // the monitor that notices a bumped camera; a bump also makes the next frame a whole search).
  int marker_check_frames = 4;
  // A settled disk whose surroundings have not changed (change detection) is measured again only
  // every this many frames (the picture is the same: it is seen where it was); 1 = every frame.
  int still_refresh_frames = 6;
  // Two or more corner markers further than this from where the table pose puts them (or 3 times
  // the pose's own fit, if larger) mean the camera may have moved: disks are not measured (they go
  // stale) and the markers are looked for every frame until the monitor has re-estimated the pose.
  double marker_shift_px = 2.0;
};

// One detection, for overlays and diagnostics.
struct DetectionRecord {
  TagDetection tag;                           // raw image corners (OpenCV convention, apriltag order)
  bool corner_marker = false;                 // ids 0..3
  std::optional<std::size_t> disk_index;      // the registry's disk this id belongs to
  std::optional<RejectReason> rejected;       // absent: accepted
  std::optional<geom::Pose> table_from_disk;  // where it put the disk (table frame), when measured
  // Found only in the picture enlarged (a second look, tracker.h): taken when it lies flat, and
  // never taken for a disk lifted or turning (a tag on a counter standing on its edge decodes so).
  bool enlarged = false;
  double fitted_size_mm = 0;
  double shape_residual_px = 0;
};

struct StageTimes {
  double grey_ms = 0, change_ms = 0, plan_ms = 0, detect_ms = 0, table_ms = 0, measure_ms = 0, track_ms = 0,
         settle_ms = 0;
  double total_ms() const {
    return grey_ms + change_ms + plan_ms + detect_ms + table_ms + measure_ms + track_ms + settle_ms;
  }
};

struct TrackerResult {
  model::TrackFrame track;  // spec §5 (with the motion/age_s/settled extensions)
  std::vector<DetectionRecord> detections;
  std::vector<SearchRegion> searched;                   // where it looked this frame
  std::shared_ptr<const calib::CameraPose> table_pose;  // null until known; shared, never modified
  std::vector<std::string> notes;                       // e.g. "table pose from corner markers 0, 1, 2, 3 (0.21 px)"
  bool camera_moved = false;               // this frame: the camera was found moved and the pose re-estimated
  bool table_quiet = false;                // nothing moving, nothing but disks over the play area
  bool foreign_over_table = false;         // something that is no disk (a hand, an arm) over the play area
  cv::Rect foreign_box_px;                 // where it is (full-resolution pixels); empty when nothing
  std::vector<cv::Rect> foreign_parts_px;  // its parts (full-resolution pixels); track.foreign on the table
  StageTimes times;
};

struct TrackerStats {
  long long frames = 0;
  long long frames_without_table_pose = 0;
  long long accepted = 0;
  std::array<long long, kRejectReasonCount> rejected{};
  long long pixels_searched = 0;
  long long rejected_total() const;
};

class Tracker {
 public:
  // `lens`: a calibrated camera (spec §7), or none (the pinhole is estimated from the corner
  // markers, no lens correction). Throws std::invalid_argument for bad options.
  Tracker(model::TableSpec table, model::DiskRegistry registry, std::optional<calib::CameraModel> lens,
          TrackerOptions options = {});

  // Starts from this table pose (e.g. a saved table-pose file) instead of acquiring one from the
  // corner markers; the monitor still re-estimates it if the camera is bumped.
  void set_table_pose(calib::CameraPose pose);

  // Processes one frame (8-bit BGR or grey; every frame the same size). `frame_index` and `t`
  // (seconds) are the frame's number and time in the stream, copied to the output; frames come in
  // time order.
  TrackerResult process(const cv::Mat& image, long long frame_index, double t);

  // Forgets the disks and the previous frame (after a seek): the next frame is searched whole.
  // The table pose is kept.
  void reset();

  const TrackerStats& stats() const { return stats_; }
  const model::DiskRegistry& registry() const { return registry_; }
  const model::TableSpec& table() const { return table_; }
  std::shared_ptr<const calib::CameraPose> table_pose() const { return view_.pose; }

 private:
  // One frame's work as it passes from stage to stage in process(): nothing in it outlives the
  // frame (tracker.cpp).
  struct FrameWork;
  // The stages, in process()'s order. Each reads the frame's work so far and its own stage's
  // state (tracker_stages.h), and writes them and the result.
  void plan_search(FrameWork& frame, TrackerResult& result);    // plan
  void grey_searched(FrameWork& frame, TrackerResult& result);  // grey
  void detect_tags(FrameWork& frame, TrackerResult& result);    // detect (with a second look)
  void locate_table(FrameWork& frame, TrackerResult& result);   // table
  void track_disks(FrameWork& frame, TrackerResult& result);    // track
  // settle: the watch's picture of the table against this frame (foreign_over_table), whether the
  // table is quiet and settled and how long it has been still, what lies over it (report_foreign,
  // below), and at a settle the landings.
  void watch_table(FrameWork& frame, TrackerResult& result);
  void judge_quiet(FrameWork& frame, TrackerResult& result);
  void report_landings(FrameWork& frame, TrackerResult& result);
  // The frame counted (stats_), and what the next frame's search covers.
  void finish_frame(const FrameWork& frame, const TrackerResult& result);

  using PoseGeometry = tracker_stages::PoseGeometry;
  std::shared_ptr<const PoseGeometry> pose_geometry(const calib::CameraPose& pose, cv::Size size) const;
  // The geometry for the table pose now and this image size (recomputed when either changed).
  void refresh_geometry(cv::Size size);
  // The smallest tag (cells of `cell_mm`) as it looks in each block of the image (search_planner.h).
  TagScaleMap tag_scale_map(const calib::CameraPose& pose, cv::Size size, double cell_mm, double max_height_mm) const;

  void update_table_pose(const std::vector<calib::MarkerObservation>& markers, cv::Size image_size, long long frame,
                         TrackerResult& result);
  // `same_view`: the pose corrects the last one for the same view (the camera drifted, a
  // provisional pose refined), rather than following a camera that moved.
  // `pose_frames`: how many frames' markers the pose was fitted to (their median), for its
  // uncertainty.
  void use_pose(calib::CameraPose pose, cv::Size image_size, bool same_view, std::size_t pose_frames);
  // Where to look this frame; `unchanged` receives the settled disks not looked for again because
  // the image around them has not changed since they were last measured.
  SearchScene search_scene(cv::Size image_size, long long frame_index, double t, const ChangeResult& change,
                           std::vector<std::size_t>& unchanged) const;
  std::vector<DiskObservation> measure(std::vector<DetectionRecord>& records);
  // How high a disk's visible tag lies above the table (mm), and how uncertain that is.
  double tag_height_mm(const model::DiskSpec& disk) const;
  double tag_height_sigma_mm(const model::DiskSpec& disk) const;
  // Whether the change detector saw a change over the play area this frame.
  bool changing_over_play_area(const ChangeResult& change) const;
  // Where the known disks lie now (`track`) and lay when the watch took its background, at the
  // change detector's scale (255), for the watch to tell them from hands.
  cv::Mat disk_footprints_small(const model::TrackFrame& track) const;
  // The table is settled or the watch has just started: the picture and the disks' poses now are
  // the table's.
  void adopt_background(const ChangeResult& change, const model::TrackFrame& track, const cv::Mat& image);
  // Where a known disk lies now or lay in the background, by its exact outline grown as
  // foreign_shapes.h says, in a region of the full-resolution image (255 in `mask`, the region's size).
  struct FootprintPx {
    std::string disk;
    // Seen where it lies now (else where it lay in the background, or where a covered disk was
    // last seen: it explains the pixels there, but is no disk a part can be said to lie against).
    bool seen_now = true;
    cv::Mat mask;
  };
  std::vector<FootprintPx> footprints_px(const cv::Rect& roi, const model::TrackFrame& track) const;
  // A region of the image (full-resolution pixels) looked at at full resolution: each group of
  // unexplained pixels in it with its outline on the table and the disks it lies against
  // (tracker_foreign.cpp); none when none is found there.
  std::vector<model::ForeignBox> foreign_outlines(const cv::Mat& image, const cv::Rect& region,
                                                  const model::TrackFrame& track, int shift_levels) const;
  // The image box (clipped to an image of `size`) of the table-frame square of half-side `half_mm`
  // about `centre`, `height_mm` over the table.
  cv::Rect image_box_around(geom::Vec2 centre, double half_mm, double height_mm, cv::Size size) const;
  // Tags the search missed where one is likely, looked for again in the picture enlarged
  // (tracker_second_look.cpp), once the picture is still (the last frame was): in the small parts
  // the watch could not explain last frame, and where a disk at rest with a tag of few pixels a
  // cell was looked for and not found (`unchanged`: the disks not looked for). Adds what it finds
  // to `tags` (disks' tags not found already) and returns their ids.
  std::vector<int> look_again_enlarged(const cv::Mat& image, const cv::Mat& grey,
                                       std::span<const std::size_t> unchanged, std::vector<TagDetection>& tags);
  // The frame's foreign parts on the table (result.track.foreign) from the watch's parts
  // (result.foreign_parts_px): a hand's as boxes, small ones and the surroundings of counters new
  // since the last settle at full resolution; the small parts kept to be searched again. Nothing
  // without a table pose.
  void report_foreign(const cv::Mat& image, TrackerResult& result, int shift_levels);
  // The disks whose tag is seen tilted this frame other than where it was first seen tilted a
  // moment ago (turning, or carried); remembers each tilted sighting (tracker_tilted.cpp), and
  // forgets one whose picture changed since it was last seen (`change`).
  std::vector<std::size_t> tilted_anew(const std::vector<DetectionRecord>& records, const ChangeResult& change,
                                       double t);
  // Into `track`, each disk not seen lying flat whose tag was seen tilted at rest (model::TiltedRest:
  // seen again where first seen, the picture there unchanged since), and into `box` the disks
  // so seen whose tag lies in `part` (its pixels, 255, over `roi` of the image).
  void report_tilted(model::TrackFrame& track) const;
  void tilted_in_part(const cv::Mat& part, const cv::Rect& roi, const model::TrackFrame& track,
                      model::ForeignBox& box) const;
  // The disks at rest looked for this frame and not found whose tag's picture is the one they were
  // last measured in, not a pixel changed around it in any frame since (tracker_still_picture.cpp):
  // the same tag lies there, missed by the decoder. Call with this frame's change and observations
  // before the disks are updated; it then remembers the pictures of the disks measured now.
  std::vector<std::size_t> same_picture_as_measured(const ChangeResult& change,
                                                    std::span<const DiskObservation> observations,
                                                    std::span<const std::size_t> unchanged);
  void remember_measured_pictures(const ChangeResult& change, std::span<const DiskObservation> observations);

  // What the tracker is given, and what follows from it alone.
  model::TableSpec table_;
  model::DiskRegistry registry_;
  std::vector<CounterBody> counter_bodies_;  // what could lie under a disk (rim_under.h)
  std::optional<calib::CameraModel> lens_;
  TrackerOptions options_;
  double thickest_disk_mm_ = 0;  // of the disks a template may lie on

  // What it keeps from frame to frame, stage by stage (tracker_stages.h).
  tracker_stages::Search search_;    // change, plan, grey, detect
  tracker_stages::TableView view_;   // table
  tracker_stages::Disks disks_;      // measure, track
  tracker_stages::Watch watch_;      // settle: the table's picture
  tracker_stages::Foreign foreign_;  // settle: what covers the table
  tracker_stages::Settle settle_;    // settle: quiet and still
  TrackerStats stats_;
};

}  // namespace diskref::vision
