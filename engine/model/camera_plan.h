#pragma once
// Where to put the camera: what a camera at a given place sees of the table and how well it reads
// the tags on it (spec §2: a tag reads reliably when each of its cells spans about 2.5 pixels).
//
// The planner works on any camera that maps a table point to an image pixel (CameraView): a
// pinhole straight above the table from a resolution, a field of view and a height (here, for
// planning before anything is bought or mounted), or a calibrated lens where the table pose puts
// it (calibration/camera_plan_view.h, for checking what is mounted). It measures the image's
// scale over the play area (the Jacobian of the projection, in its worst direction, sampled on a
// grid at each tag's height), so tilt and lens distortion count where they occur.
//
// Frames: table frame as spec §1 (mm, z up). Pixels in OpenCV's convention (centres at integers).

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/vec2.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"

namespace diskref::model {

// Spec §2: a tag is read reliably when each of its cells spans about this many pixels.
inline constexpr double kMinPixelsPerCell = 2.5;
// Cells between a tagStandard41h12 tag's detector corners (spec §2: size_mm spans 5 of its 9).
inline constexpr int kTagCornerCells = 5;
// How far inside the image the play area and the corner markers' printed squares must lie: a tag
// cut by the image's edge is not read, and the outermost pixels of a webcam are the softest.
inline constexpr double kViewMarginPx = 8;

// A camera as the planner sees it: its image size and where a table point lands in the image.
struct CameraView {
  int width_px = 0;
  int height_px = 0;
  // Raw image pixel of a table point (mm, z above the table), or nullopt when the point is behind
  // the camera.
  std::function<std::optional<geom::Vec2>(double x_mm, double y_mm, double z_mm)> image_from_table;
  // The table point (z = 0) a raw pixel sees, or nullopt (a ray above the horizon). May be empty:
  // then the plan has no footprint.
  std::function<std::optional<geom::Vec2>(double u_px, double v_px)> table_from_image;
  std::string description;  // for messages: "1920x1080, 70 degrees, 1000 mm above the play area"
};

// A camera to plan with: a pinhole with square pixels and its principal point in the middle.
struct PinholeCamera {
  int width_px = 1920;
  int height_px = 1080;
  double horizontal_fov_deg = 70;
  double height_mm = 1000;  // of the lens above the table

  double focal_px() const;
};

// The pinhole straight above `over_mm` (table frame), looking down, its image's long side along
// the table's x when `long_side_along_x` (table +x to the image's right, +y up), else along y.
CameraView straight_above(const PinholeCamera& camera, geom::Vec2 over_mm, bool long_side_along_x);
// The same over the middle of the play area, the image's long side along the play area's.
CameraView straight_above_play_area(const PinholeCamera& camera, const TableSpec& table);

// How well one tag reads.
struct TagReading {
  std::string what;  // "enterprise up", "corner marker 2"
  int tag_id = 0;
  double size_mm = 0;
  double px_per_cell = 0;  // where it reads worst: anywhere on the play area (a disk), at its place (a marker)
  double needed_mm = 0;    // the smallest size_mm that reads there (kMinPixelsPerCell)
  // A disk's: the largest size_mm its disk takes (registry tag_fit_problem); 0 for a corner
  // marker, whose card can grow.
  double largest_fitting_mm = 0;

  bool readable() const { return px_per_cell >= kMinPixelsPerCell; }
  // Whether a bigger tag on the same disk would read (else only the camera can help).
  bool fixable_by_size() const { return largest_fitting_mm <= 0 || needed_mm <= largest_fitting_mm; }
};

struct CameraPlan {
  std::string camera;           // CameraView::description
  double mm_per_px_centre = 0;  // at the play area's centre, on the table
  double mm_per_px_worst = 0;   // the coarsest anywhere on the play area, in its worst direction
  // The smallest tag size_mm that reads anywhere on the play area (on a disk 2 mm thick).
  double smallest_tag_mm = 0;
  // How far inside the image (px) the play area's corners lie, at the least: negative when one is
  // outside the image (or behind the camera).
  double play_area_margin_px = 0;
  // Corner markers whose printed square is not wholly in the image (with kViewMarginPx).
  std::vector<int> markers_out_of_view;
  // Every tag of the registry (and the corner markers): how it reads from here.
  std::vector<TagReading> tags;
  // The table region the image covers (its border mapped onto the table plane), for drawing; may
  // be partial when the camera sees the horizon.
  std::vector<geom::Vec2> footprint_mm;

  bool sees_play_area() const { return play_area_margin_px >= kViewMarginPx; }
  bool sees_everything() const { return sees_play_area() && markers_out_of_view.empty(); }
  std::vector<TagReading> unreadable() const;
};

// Pixels per millimetre at a table point (z above the table) in the direction the image is
// coarsest there; 0 when the point is not imaged.
double px_per_mm_at(const CameraView& view, double x_mm, double y_mm, double z_mm);

// `registry` may be null (then only the corner markers are read).
CameraPlan plan_camera(const CameraView& view, const TableSpec& table, const DiskRegistry* registry);

// For a pinhole straight above the play area: the heights between which everything works.
struct HeightAdvice {
  // The lowest height from which the play area and every corner marker are in view.
  double lowest_seeing_all_mm = 0;
  // The highest height from which the smallest tag (of the registry and the markers) still reads;
  // +infinity without tags.
  double highest_reading_all_mm = 0;
  std::string smallest_tag;  // its "what"
  double smallest_tag_mm = 0;
  // Pixels this camera would need on its short side for one height to do both, at its field of
  // view's aspect (the image's short side covers the table's short extent).
  double short_side_px_needed = 0;

  bool possible() const { return lowest_seeing_all_mm <= highest_reading_all_mm; }
};
HeightAdvice advise_height(const PinholeCamera& camera, const TableSpec& table, const DiskRegistry* registry);

// One thing wrong with a plan, and what to do about it.
struct PlanProblem {
  std::string problem;
  std::string fix;
};
// What is wrong with `plan` (nothing when it all works), each with its fix. With `pinhole` (the
// plan is for that camera straight above the play area) the fixes give heights and resolutions.
std::vector<PlanProblem> plan_problems(const CameraPlan& plan, const TableSpec& table, const DiskRegistry* registry,
                                       const std::optional<PinholeCamera>& pinhole);
// Only what is not in view (the first of plan_problems' problems).
std::vector<PlanProblem> view_problems(const CameraPlan& plan, const TableSpec& table, const DiskRegistry* registry,
                                       const std::optional<PinholeCamera>& pinhole);

}  // namespace diskref::model
