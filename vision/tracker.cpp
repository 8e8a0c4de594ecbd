#include "vision/tracker.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numbers>
#include <stdexcept>

#include <fmt/format.h>
#include <opencv2/imgproc.hpp>

#include "engine/geometry/shape.h"
#include "vision/play_area_quiet.h"
#include "vision/pose_uncertainty.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {
namespace {

using tracker_stages::TableView;

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point& start) {
  const auto now = Clock::now();
  const double ms = std::chrono::duration<double, std::milli>(now - start).count();
  start = now;
  return ms;
}

// How long a disk's motion is extrapolated into the future at most (s): beyond that the change
// detection and the sweep find it.
constexpr double kMaxPredictionS = 0.25;

// How long after a disk went unseen its next landing place is looked at too (s): a flip or two.
constexpr double kFlipLookoutS = 2.0;

std::string join_ids(const std::vector<int>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i) out += (i ? ", " : "") + std::to_string(ids[i]);
  return out;
}

}  // namespace

DetectorOptions tracker_detector_options() {
  DetectorOptions options;
  options.min_white_black_diff = 25;
  return options;
}

std::string_view to_string(RejectReason reason) {
  switch (reason) {
    case RejectReason::unknown_id:
      return "id not in the registry";
    case RejectReason::wrong_size:
      return "tag size does not match the registry";
    case RejectReason::off_table:
      return "off the table";
    case RejectReason::seen_twice:
      return "disk seen twice at once";
    case RejectReason::mirrored:
      return "mirror image (seen through the table?)";
    case RejectReason::no_table_pose:
      return "no table pose yet";
    case RejectReason::not_flat:
      return "not lying flat (tilted, lifted or smeared)";
    case RejectReason::camera_moved:
      return "camera moved (table pose being re-estimated)";
  }
  return "?";
}

long long TrackerStats::rejected_total() const {
  long long total = 0;
  for (long long r : rejected) total += r;
  return total;
}

Tracker::Tracker(model::TableSpec table, model::DiskRegistry registry, std::optional<calib::CameraModel> lens,
                 TrackerOptions options)
    : table_(std::move(table)),
      registry_(std::move(registry)),
      counter_bodies_(counter_bodies(registry_)),
      lens_(std::move(lens)),
      options_(options),
      search_(options.detector, options.search, options.change),
      disks_(registry_, options.disks),
      watch_(options.watch, registry_.disks().size()),
      settle_(options.settle_window_s) {
  if (!(options.size_tolerance > 0)) throw std::invalid_argument("size_tolerance must be > 0");
  if (!(options.thickness_sigma_mm >= 0)) throw std::invalid_argument("thickness_sigma_mm must be >= 0");
  for (const model::DiskSpec& d : registry_.disks())
    if (d.kind != model::DiskKind::template_) thickest_disk_mm_ = std::max(thickest_disk_mm_, d.thickness_mm);
  if (!(options.disks.lost_after_s >= 0)) throw std::invalid_argument("lost_after_s must be >= 0");
}

void Tracker::use_pose(calib::CameraPose pose, cv::Size image_size, bool same_view, std::size_t pose_frames) {
  if (view_.pose && same_view) {
    // A better pose for the same view (the camera drifted, or a provisional pose refined): each
    // disk's picture where it was last seen lies elsewhere through it, and the disks' memories
    // follow (disk_tracker.h shift_poses). After a move the old pose was right for the old view.
    std::vector<geom::Vec2> shifts(registry_.disks().size());
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      const DiskEstimate& e = disks_.tracker.estimates()[i];
      if (!e.ever_seen) continue;
      const double height = tag_height_mm(registry_.disks()[i]);
      const geom::Vec2 before = e.last_observed.position;
      const cv::Point2d pixel = calib::image_from_table(*view_.pose, {before.x, before.y, height});
      if (auto after = calib::table_from_image(pose, pixel, height)) shifts[i] = *after - before;
    }
    disks_.tracker.shift_poses(shifts);
  }
  view_.pose = std::make_shared<const calib::CameraPose>(std::move(pose));
  view_.geometry.reset();
  const std::vector<calib::MarkerObservation> markers = view_.marker_history.empty()
                                                            ? std::vector<calib::MarkerObservation>{}
                                                            : calib::median_observations(view_.marker_history);
  PoseUncertaintyOptions uncertainty = options_.pose_uncertainty;
  uncertainty.detector = options_.measurement;  // the markers are tags like the disks'
  // The pose came from the median of `pose_frames` frames: what the markers' noise in a frame (as
  // the recent frames show it) leaves in it.
  uncertainty.frame_corner_noise_px = frame_corner_noise_px(view_.marker_history);
  uncertainty.median_frames = static_cast<double>(std::max<std::size_t>(pose_frames, 1));
  view_.uncertainty.emplace(table_, *view_.pose, markers, lens_, image_size, uncertainty);
}

void Tracker::set_table_pose(calib::CameraPose pose) {
  view_.monitor.emplace(table_, lens_, pose, options_.table_monitor);
  const cv::Size size = pose.camera.image_size;
  // A given pose: the frames it came from are not known; the markers' noise is taken at its floor.
  use_pose(std::move(pose), size, false, std::numeric_limits<std::size_t>::max());
}

void Tracker::reset() {
  // The next frame is compared with none and searched whole, the sweep started again.
  search_.change = ChangeDetector(options_.change);
  search_.planner.reset();
  search_.next_scope = tracker_stages::Search::Scope::whole_table;
  // The table pose is kept; a suspicion that the camera moved is not.
  view_.displaced_marker_checks = 0;
  disks_ = tracker_stages::Disks(registry_, options_.disks);
  // The watch starts again (its full-resolution picture is replaced when it takes its first).
  watch_.watch.reset();
  std::fill(watch_.background_poses.begin(), watch_.background_poses.end(), std::nullopt);
  watch_.picture = tracker_stages::Watch::Picture::current;
  foreign_ = {};
  settle_ = tracker_stages::Settle(options_.settle_window_s);
}

void Tracker::update_table_pose(const std::vector<calib::MarkerObservation>& markers, cv::Size image_size,
                                long long frame, TrackerResult& result) {
  if (!view_.monitor) view_.monitor.emplace(table_, lens_, image_size, options_.table_monitor);
  const int confirm = std::max(1, options_.table_monitor.confirm_frames);
  if (markers.size() >= 2) {
    view_.marker_history.push_back(markers);
    if (view_.marker_history.size() > TableView::kMarkerHistoryFrames)
      view_.marker_history.erase(view_.marker_history.begin());
    if (!view_.monitor->pose()) ++view_.unacquired_marker_frames;
  }
  auto keep_recent_history = [&] {
    // Only the frames since the move describe the new view.
    if (view_.marker_history.size() > static_cast<std::size_t>(confirm))
      view_.marker_history.erase(view_.marker_history.begin(), view_.marker_history.end() - confirm);
  };

  // A monitor that could not acquire a pose from many frames (a lens the pinhole cannot fit well
  // enough for it) is given up: the provisional pose below carries on, re-estimated after a move.
  const bool monitor_gave_up = !view_.monitor->pose() && view_.unacquired_marker_frames > 4 * confirm;
  if (auto event = monitor_gave_up ? std::nullopt : view_.monitor->update(frame, markers)) {
    result.notes.push_back(event->message);
    result.camera_moved = result.camera_moved || event->kind == calib::TableMonitorEvent::Kind::camera_moved;
    if (event->kind != calib::TableMonitorEvent::Kind::marker_moved && view_.monitor->pose()) {
      const bool moved = event->kind == calib::TableMonitorEvent::Kind::camera_moved;
      if (moved) keep_recent_history();
      // The monitor fits its pose to the median of confirm_frames frames (drift_frames after a drift).
      const int frames =
          event->kind == calib::TableMonitorEvent::Kind::drifted ? options_.table_monitor.drift_frames : confirm;
      use_pose(*view_.monitor->pose(), image_size, !moved, static_cast<std::size_t>(std::max(frames, 1)));
      view_.displaced_marker_checks = 0;  // steady: the pose fits the markers now
    }
  }

  // Markers away from where the pose puts them: the camera may have moved (the monitor needs a few
  // frames to be sure). Until they agree again nothing is measured with the old pose.
  if (view_.pose && markers.size() >= 2) {
    int seen = 0, displaced = 0;
    const double tolerance_px = std::max(options_.marker_shift_px, 3 * view_.pose->reprojection_rms_px);
    for (const auto& m : markers) {
      if (m.id < 0 || m.id > 3) continue;
      auto corners = table_.corner_markers[static_cast<std::size_t>(m.id)].corners_mm();
      double shift = 0;
      for (std::size_t k = 0; k < 4; ++k)
        shift +=
            cv::norm(calib::image_from_table(*view_.pose, {corners[k].x, corners[k].y, 0.0}) - m.corners_px[k]) / 4;
      ++seen;
      if (shift > tolerance_px) ++displaced;
    }
    const bool suspect = seen >= 2 ? displaced >= 2 : view_.camera_suspect();
    view_.displaced_marker_checks = suspect ? view_.displaced_marker_checks + 1 : 0;
  }
  if (view_.monitor->pose()) return;

  // The monitor has not acquired its pose (yet): a provisional pose from the markers seen so far,
  // from the first frame that shows them, once more from the median of kMarkerHistoryFrames frames,
  // and again after the camera has moved (markers displaced in `confirm` frames).
  const bool history_full = view_.marker_history.size() == TableView::kMarkerHistoryFrames;
  const bool moved = view_.displaced_marker_checks >= confirm;
  if (view_.marker_history.empty()) return;
  if (view_.pose && !moved && (!history_full || view_.provisional == TableView::Provisional::from_full_history)) return;
  if (moved) {
    keep_recent_history();
    view_.provisional = TableView::Provisional::from_first_frames;
  } else {
    view_.provisional =
        history_full ? TableView::Provisional::from_full_history : TableView::Provisional::from_first_frames;
  }
  calib::CameraPoseEstimate estimate =
      calib::estimate_camera_pose(table_, calib::median_observations(view_.marker_history), lens_, image_size);
  if (!estimate.pose) return;
  if (!view_.pose || moved) {
    const char* what = moved ? "camera moved, provisional table pose re-estimated" : "provisional table pose";
    result.notes.push_back(fmt::format("frame {}: {} from corner markers {} ({:.2f} px, {:.2f} mm)", frame, what,
                                       join_ids(estimate.pose->markers_used), estimate.pose->reprojection_rms_px,
                                       estimate.pose->reprojection_rms_mm));
    result.camera_moved = result.camera_moved || moved;
    for (auto& note : estimate.notes) result.notes.push_back("frame " + std::to_string(frame) + ": " + note);
  }
  use_pose(std::move(*estimate.pose), image_size, !moved, view_.marker_history.size());
  view_.displaced_marker_checks = 0;
}

SearchScene Tracker::search_scene(cv::Size image_size, long long frame_index, double t, const ChangeResult& change,
                                  std::vector<std::size_t>& unchanged) const {
  SearchScene scene;
  scene.image_size = image_size;
  if (!view_.pose || !view_.geometry) return scene;
  const calib::CameraPose& pose = *view_.pose;
  const double cells = search_.tags.cells_across_corners();
  const double printed = static_cast<double>(search_.tags.cells_across_tag()) / cells;
  scene.table_px = view_.geometry->table_px;
  scene.min_pixels_per_cell = view_.geometry->min_pixels_per_cell;
  scene.tag_scale = view_.geometry->tag_scale;
  scene.max_tag_px = view_.geometry->max_tag_px;
  scene.max_disk_tag_px = view_.geometry->max_disk_tag_px;
  scene.changed = change.ended_regions;  // where a hand has just moved on
  // Something the size of a disk that lies there unexplained: perhaps a disk whose tag was missed
  // as it came to rest (its changes have ended); looked at again while it stays.
  scene.changed.insert(scene.changed.end(), foreign_.small_parts_px.begin(), foreign_.small_parts_px.end());

  // Every frame until there is a pose, while the monitor acquires its own (for a few frames: a lens
  // the pinhole cannot fit makes it try again, at some cost, with every frame it is given) and
  // while the camera seems to have moved; otherwise every marker_check_frames frames.
  const bool acquiring = !view_.monitor || (!view_.monitor->pose() &&
                                            view_.unacquired_marker_frames < 2 * options_.table_monitor.confirm_frames);
  const bool check_markers = !view_.pose || acquiring || view_.camera_suspect() || options_.marker_check_frames <= 1 ||
                             frame_index % options_.marker_check_frames == 0;
  std::vector<ExpectedTag> markers;
  bool marker_changed = false;
  for (const auto& marker : table_.corner_markers) {
    const double half = marker.size_mm * printed / 2;
    auto corners = square_in_image(pose, marker.center_mm, half, 0.0);
    const cv::Rect2d box = bounding_box(corners);
    // At full resolution: decimated, apriltag's corners of a marker are off by 0.1-0.2 px
    // together (measured on renders), which moves the table pose and every disk with it.
    markers.push_back({box, 0.0});
    marker_changed = marker_changed || changed_in(change, box);
  }
  // ...and at once when the picture changed where a marker is (a bumped camera changes it all).
  if (check_markers || marker_changed) scene.expected.insert(scene.expected.end(), markers.begin(), markers.end());
  for (std::size_t i = 0; i < registry_.disks().size(); ++i) {
    const DiskEstimate& e = disks_.tracker.estimates()[i];
    if (!e.ever_seen || e.state == model::TrackState::lost) continue;
    const model::DiskSpec& disk = registry_.disks()[i];
    const auto [smallest_mm, largest_mm] = tag_sizes_mm(disk);
    // Any turn of the printed tag fits in a square of half-side (printed side / sqrt 2).
    const double half = largest_mm * printed / std::sqrt(2.0);
    const double ahead = std::clamp(t - e.last_seen_t, 0.0, kMaxPredictionS);
    const geom::Vec2 predicted = e.last_observed.position + ahead * e.velocity_mm_s;
    auto corners = square_in_image(pose, e.last_observed.position, half, disk.thickness_mm);
    if (!(predicted == e.last_observed.position)) {
      auto more = square_in_image(pose, predicted, half, disk.thickness_mm);
      corners.insert(corners.end(), more.begin(), more.end());
    }
    const cv::Rect2d box = bounding_box(corners);
    // Settled, measured recently, and not a pixel changed around it: the same picture as before.
    if (e.state == model::TrackState::visible && e.motion == model::Motion::settled && !change.first_frame &&
        frame_index - disks_.last_measured_frame[i] < options_.still_refresh_frames) {
      if (!changed_in(change, box)) {
        unchanged.push_back(i);
        continue;
      }
    }
    const double px_per_mm = pixels_per_mm_at(pose, e.last_observed.position, disk.thickness_mm);
    scene.expected.push_back({box, smallest_mm * px_per_mm / cells});
    // Gone from view a moment ago: perhaps turning over. A flip lands one flip length ahead along
    // the heading (spec §6), so look there too, and the landing is found in its first frame.
    if (e.state == model::TrackState::stale && t - e.last_seen_t <= kFlipLookoutS) {
      const geom::Vec2 landing =
          e.last_observed.position + geom::flip_length(disk.shape) * e.last_observed.rotation.axis_x();
      const cv::Rect2d ahead_box = bounding_box(square_in_image(pose, landing, half, disk.thickness_mm));
      scene.expected.push_back({ahead_box, smallest_mm * pixels_per_mm_at(pose, landing, disk.thickness_mm) / cells});
    }
  }
  return scene;
}

double Tracker::tag_height_mm(const model::DiskSpec& disk) const {
  // A template lies across the disks it measures: on top of them (up to the thickest) or, if it
  // touches them only at their edges, lower; halfway, give or take as much.
  if (disk.kind == model::DiskKind::template_) return disk.thickness_mm + thickest_disk_mm_ / 2;
  return disk.thickness_mm;
}

double Tracker::tag_height_sigma_mm(const model::DiskSpec& disk) const {
  const double lift = disk.kind == model::DiskKind::template_ ? thickest_disk_mm_ / 2 : 0.0;
  return std::hypot(lift, options_.thickness_sigma_mm);
}

cv::Mat Tracker::disk_footprints_small(const model::TrackFrame& track) const {
  cv::Mat mask = cv::Mat::zeros(view_.geometry->play_area_small.size(), CV_8U);
  if (!view_.pose) return mask;
  const double scale = view_.geometry->mask_scale;
  auto draw = [&](const model::DiskSpec& disk, const geom::Pose& pose) {
    // The disk's bounding circle, grown by its blur and shadow, at the table and at its top.
    const double radius = geom::bounding_radius(disk.shape) + 3.0;
    constexpr int kPoints = 16;
    std::vector<cv::Point3d> ring;
    for (double h : {0.0, disk.thickness_mm})
      for (int k = 0; k < kPoints; ++k) {
        const double a = 2 * std::numbers::pi * k / kPoints;
        ring.emplace_back(pose.position.x + radius * std::cos(a), pose.position.y + radius * std::sin(a), h);
      }
    std::vector<cv::Point> points;
    for (const cv::Point2d& p : calib::image_from_table(*view_.pose, ring))
      points.emplace_back(static_cast<int>(std::lround(p.x / scale)), static_cast<int>(std::lround(p.y / scale)));
    std::vector<cv::Point> hull;
    cv::convexHull(points, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  };
  for (const model::DiskTrack& d : track.disks) {
    const std::optional<std::size_t> i = registry_.index_of(d.name);
    if (!i) continue;
    if (d.x && d.y && d.heading) draw(registry_.disks()[*i], geom::Pose::from_degrees(*d.x, *d.y, *d.heading));
    if (watch_.background_poses[*i]) draw(registry_.disks()[*i], *watch_.background_poses[*i]);
  }
  // As the change detector grows its changes by a shrunk pixel.
  cv::dilate(mask, mask, cv::Mat());
  return mask;
}

void Tracker::adopt_background(const ChangeResult& change, const model::TrackFrame& track, const cv::Mat& image) {
  watch_.watch.adopt(change.small);
  grey_into(image, watch_.background_grey);
  std::fill(watch_.background_poses.begin(), watch_.background_poses.end(), std::nullopt);
  for (const model::DiskTrack& d : track.disks)
    if (const auto i = registry_.index_of(d.name); i && d.x && d.y && d.heading)
      watch_.background_poses[*i] = geom::Pose::from_degrees(*d.x, *d.y, *d.heading);
}

std::vector<DiskObservation> Tracker::measure(std::vector<DetectionRecord>& records) {
  struct Candidate {
    std::size_t record = 0;
    DiskObservation observation;
  };
  std::vector<std::vector<Candidate>> per_disk(registry_.disks().size());
  // How far the markers say the pose is off now (a boom creeping after a knock, until the monitor
  // re-fits it): the same at every place, along one direction (per axis: / sqrt 2).
  const double drift_share = view_.monitor ? view_.monitor->recent_drift_mm() / std::sqrt(2.0) : 0.0;
  for (std::size_t r = 0; r < records.size(); ++r) {
    DetectionRecord& record = records[r];
    if (record.corner_marker) continue;
    const std::optional<model::TagRef> ref = registry_.find_tag(record.tag.id);
    if (!ref) {
      record.rejected = RejectReason::unknown_id;
      continue;
    }
    record.disk_index = ref->disk_index;
    if (!view_.pose) {
      record.rejected = RejectReason::no_table_pose;
      continue;
    }
    if (view_.camera_suspect()) {
      record.rejected = RejectReason::camera_moved;
      continue;
    }
    const model::DiskSpec& disk = registry_.disks()[ref->disk_index];
    const model::TagSpec& tag = registry_.tag(*ref);
    const double height = tag_height_mm(disk);
    auto m = measure_tag(*view_.pose, record.tag.corners, tag.size_mm, height, options_.measurement);
    if (!m) {
      record.rejected = RejectReason::off_table;
      continue;
    }
    const geom::Pose table_from_tag = m->fit.table_from_tag;
    const geom::Pose table_from_disk{
        table_from_tag.position,
        geom::compose(table_from_tag.rotation, geom::Rot::from_degrees(tag.heading_offset_deg))};
    record.table_from_disk = table_from_disk;
    record.fitted_size_mm = m->fit.fitted_size_mm;
    record.shape_residual_px = m->shape_residual_px;
    const double radius = geom::bounding_radius(disk.shape);
    const geom::Vec2 p = table_from_disk.position;
    if (m->fit.mirrored) {
      record.rejected = RejectReason::mirrored;
    } else if (std::fabs(m->fit.fitted_size_mm / tag.size_mm - 1) > options_.size_tolerance) {
      record.rejected = RejectReason::wrong_size;
    } else if (m->shape_residual_px >
               std::max(options_.max_shape_residual_px, options_.max_shape_residual_fraction * m->side_px)) {
      record.rejected = RejectReason::not_flat;
    } else if (p.x < -radius || p.y < -radius || p.x > table_.play_area_mm.x + radius ||
               p.y > table_.play_area_mm.y + radius) {
      record.rejected = RejectReason::off_table;
    } else {
      DiskObservation o;
      o.disk_index = ref->disk_index;
      o.face = tag.face;
      o.table_from_disk = table_from_disk;
      o.noise_sigma_mm = m->center_sigma_mm;
      o.heading_noise_deg = m->heading_sigma_deg;
      o.bias_sigma_mm = m->center_bias_sigma_mm;
      // The table pose's share at this place (pose_uncertainty.h), and the lift's: a tag higher
      // or lower than assumed is seen displaced away from or towards the camera (per axis: the
      // displacement lies along one direction).
      const double pose_share = view_.uncertainty ? view_.uncertainty->sigma_mm(p, height) : 0.0;
      const double lift_share =
          view_.uncertainty ? tag_height_sigma_mm(disk) * view_.uncertainty->lift_per_mm(p, height) / std::sqrt(2.0)
                            : 0.0;
      // And the lens's at this place (the camera file's uncertainty grid; 0 without one).
      const double lens_share = view_.uncertainty ? view_.uncertainty->lens_sigma_mm(p, height) : 0.0;
      o.calibration_sigma_mm = std::hypot(std::hypot(pose_share, lift_share, lens_share), drift_share);
      o.pixels_per_mm = m->pixels_per_mm;
      o.tag_size_mm = tag.size_mm;
      per_disk[ref->disk_index].push_back({r, o});
    }
  }

  // One disk seen more than once: only one can be real. The one where the disk already is wins
  // when all the others are beyond the disk's own size from it; otherwise none is trusted.
  std::vector<DiskObservation> out;
  for (std::size_t d = 0; d < per_disk.size(); ++d) {
    auto& candidates = per_disk[d];
    if (candidates.empty()) continue;
    if (candidates.size() == 1) {
      out.push_back(candidates.front().observation);
      continue;
    }
    const DiskEstimate& e = disks_.tracker.estimates()[d];
    std::optional<std::size_t> winner;
    if (e.ever_seen && e.state != model::TrackState::lost) {
      auto distance_to_track = [&](const Candidate& c) {
        return geom::distance(c.observation.table_from_disk.position, e.last_observed.position);
      };
      std::sort(candidates.begin(), candidates.end(),
                [&](const Candidate& a, const Candidate& b) { return distance_to_track(a) < distance_to_track(b); });
      const double size = 2 * geom::bounding_radius(registry_.disks()[d].shape);
      if (distance_to_track(candidates[0]) < size && distance_to_track(candidates[1]) >= size) winner = 0;
    }
    for (std::size_t c = 0; c < candidates.size(); ++c) {
      if (winner && *winner == c)
        out.push_back(candidates[c].observation);
      else
        records[candidates[c].record].rejected = RejectReason::seen_twice;
    }
  }
  return out;
}

TagScaleMap Tracker::tag_scale_map(const calib::CameraPose& pose, cv::Size size, double cell_mm,
                                   double max_height_mm) const {
  TagScaleMap map;
  const int block = map.cell_px;
  const int nx = (size.width + block - 1) / block, ny = (size.height + block - 1) / block;
  map.min_pixels_per_cell = cv::Mat(ny, nx, CV_64F, cv::Scalar(std::numeric_limits<double>::infinity()));
  // Where a disk's tag can be: on the play area, or overhanging it by a disk's size.
  double reach = 0;
  for (const auto& disk : registry_.disks()) reach = std::max(reach, geom::bounding_radius(disk.shape));
  const geom::Vec2 area = table_.play_area_mm;
  // Each block's corners and middle, seen on the table; the scale is smallest at one of them.
  std::vector<cv::Point2d> pixels;
  for (int by = 0; by < ny; ++by)
    for (int bx = 0; bx < nx; ++bx)
      for (const cv::Point2d& o :
           {cv::Point2d(0, 0), cv::Point2d(1, 0), cv::Point2d(0, 1), cv::Point2d(1, 1), cv::Point2d(0.5, 0.5)})
        pixels.emplace_back(std::min<double>((bx + o.x) * block, size.width - 1),
                            std::min<double>((by + o.y) * block, size.height - 1));
  for (double h : {0.0, max_height_mm}) {
    const auto on_table = calib::table_from_image(pose, pixels, h);
    for (std::size_t k = 0; k < pixels.size(); ++k) {
      if (!on_table[k]) continue;
      const geom::Vec2 p = *on_table[k];
      if (p.x < -reach || p.y < -reach || p.x > area.x + reach || p.y > area.y + reach) continue;
      const std::size_t b = k / 5;
      double& least = map.min_pixels_per_cell.at<double>(static_cast<int>(b) / nx, static_cast<int>(b) % nx);
      least = std::min(least, cell_mm * pixels_per_mm_at(pose, p, h));
    }
  }
  return map;
}

std::shared_ptr<const tracker_stages::PoseGeometry> Tracker::pose_geometry(const calib::CameraPose& pose,
                                                                           cv::Size size) const {
  auto g = std::make_shared<tracker_stages::PoseGeometry>();
  g->image_size = size;
  const double cells = search_.tags.cells_across_corners();
  const double printed = static_cast<double>(search_.tags.cells_across_tag()) / cells;
  std::vector<cv::Point2d> outline;
  for (const auto& m : table_.corner_markers) {
    auto c = square_in_image(pose, m.center_mm, m.size_mm * printed / 2, 0.0);
    outline.insert(outline.end(), c.begin(), c.end());
  }
  double min_tag_mm = 1e300, max_disk_tag_mm = 0, max_marker_mm = 0, max_height = 0;
  for (const auto& m : table_.corner_markers) max_marker_mm = std::max(max_marker_mm, m.size_mm);
  for (const auto& disk : registry_.disks()) {
    max_height = std::max(max_height, disk.thickness_mm);
    for (const auto& tag : disk.tags) {
      min_tag_mm = std::min(min_tag_mm, tag.size_mm);
      max_disk_tag_mm = std::max(max_disk_tag_mm, tag.size_mm);
    }
  }
  if (registry_.disks().empty()) min_tag_mm = max_disk_tag_mm = max_marker_mm;
  // Scale over the table: a 5 x 5 grid of the play area.
  double min_scale = 1e300, max_scale = 0;
  std::vector<cv::Point3d> edge;
  const geom::Vec2 area = table_.play_area_mm;
  for (int iy = 0; iy <= 4; ++iy)
    for (int ix = 0; ix <= 4; ++ix) {
      const geom::Vec2 p{area.x * ix / 4, area.y * iy / 4};
      for (double h : {0.0, max_height}) {
        const double s = pixels_per_mm_at(pose, p, h);
        min_scale = std::min(min_scale, s);
        max_scale = std::max(max_scale, s);
      }
    }
  const int samples = 16;
  const geom::Vec2 corner[4] = {{0, 0}, {area.x, 0}, {area.x, area.y}, {0, area.y}};
  for (int side = 0; side < 4; ++side)
    for (int k = 0; k < samples; ++k) {
      const geom::Vec2 p = corner[side] + (static_cast<double>(k) / samples) * (corner[(side + 1) % 4] - corner[side]);
      edge.emplace_back(p.x, p.y, 0.0);
    }
  auto edge_px = calib::image_from_table(pose, edge);
  outline.insert(outline.end(), edge_px.begin(), edge_px.end());
  const cv::Rect2d box = bounding_box(outline);
  g->table_px = cv::Rect(static_cast<int>(std::floor(box.x)), static_cast<int>(std::floor(box.y)),
                         static_cast<int>(std::ceil(box.width)) + 1, static_cast<int>(std::ceil(box.height)) + 1) &
                cv::Rect(0, 0, size.width, size.height);
  g->min_pixels_per_cell = min_tag_mm * min_scale / cells;
  g->tag_scale = tag_scale_map(pose, size, min_tag_mm / cells, max_height);
  // Printed sides at any turn (x sqrt 2), where the table looks largest.
  g->max_disk_tag_px = max_disk_tag_mm * printed * max_scale * std::sqrt(2.0);
  g->max_tag_px = std::max(max_disk_tag_mm, max_marker_mm) * printed * max_scale * std::sqrt(2.0);
  g->mask_scale = search_.change.scale_for(size.width);
  g->play_area_small = cv::Mat::zeros(size.height / g->mask_scale, size.width / g->mask_scale, CV_8U);
  std::vector<cv::Point> polygon;
  for (const auto& p : edge_px)
    polygon.emplace_back(static_cast<int>(std::lround(p.x / g->mask_scale)),
                         static_cast<int>(std::lround(p.y / g->mask_scale)));
  cv::fillPoly(g->play_area_small, std::vector<std::vector<cv::Point>>{polygon}, cv::Scalar(255));
  return g;
}

struct Tracker::FrameWork {
  FrameWork(const cv::Mat& frame_image, long long frame_index, double frame_t)
      : image(frame_image), index(frame_index), t(frame_t) {}

  const cv::Mat& image;
  long long index;
  double t;
  ChangeResult change;  // change: where the image changed since the previous frame
  // plan: the settled disks not looked for again (the image around them unchanged); track: with
  // those looked for and missed whose tag's picture is the one they were measured in.
  std::vector<std::size_t> unchanged;
  cv::Mat grey;                                   // grey: the frame, grey where it is searched
  std::vector<TagDetection> tags;                 // detect
  std::vector<int> enlarged;                      // detect: the ids found only in the picture enlarged
  std::vector<calib::MarkerObservation> markers;  // table: the corner markers seen
  std::vector<DiskObservation> observations;      // measure
  std::vector<std::size_t> lifted;                // track: disks whose tag is seen tilted somewhere new
  bool changing = false;                          // settle: a change over the play area
  bool settled = false;                           // settle: the table is settled
  TableWatchResult watched;                       // settle: the frame against the watch's picture
};

TrackerResult Tracker::process(const cv::Mat& image, long long frame_index, double t) {
  if (image.empty()) throw std::invalid_argument("Tracker::process: empty image");
  if (image.type() != CV_8UC3 && image.type() != CV_8UC4 && image.type() != CV_8UC1)
    throw std::invalid_argument("Tracker::process: needs an 8-bit BGR, BGRA or grey image");
  TrackerResult result;
  FrameWork frame(image, frame_index, t);
  auto clock = Clock::now();
  // change (on a shrunk copy: no full-resolution work)
  frame.change = search_.change.update(image);
  result.times.change_ms = ms_since(clock);
  plan_search(frame, result);
  result.times.plan_ms = ms_since(clock);
  grey_searched(frame, result);
  result.times.grey_ms = ms_since(clock);
  detect_tags(frame, result);
  result.times.detect_ms = ms_since(clock);
  locate_table(frame, result);
  result.times.table_ms = ms_since(clock);
  frame.observations = measure(result.detections);
  result.times.measure_ms = ms_since(clock);
  track_disks(frame, result);
  result.times.track_ms = ms_since(clock);
  watch_table(frame, result);
  judge_quiet(frame, result);
  report_foreign(image, result, frame.watched.shift_levels);
  report_landings(frame, result);
  result.times.settle_ms = ms_since(clock);
  finish_frame(frame, result);
  return result;
}

void Tracker::refresh_geometry(cv::Size size) {
  if (view_.pose && (!view_.geometry || view_.geometry->image_size != size))
    view_.geometry = pose_geometry(*view_.pose, size);
}

void Tracker::plan_search(FrameWork& frame, TrackerResult& result) {
  const cv::Size size = frame.image.size();
  refresh_geometry(size);
  const bool everything =
      search_.next_scope == tracker_stages::Search::Scope::whole_table || !view_.pose || options_.exhaustive_search;
  result.searched =
      search_.planner.plan(search_scene(size, frame.index, frame.t, frame.change, frame.unchanged), everything);
  if (everything) frame.unchanged.clear();  // searched anyway
}

void Tracker::grey_searched(FrameWork& frame, TrackerResult& result) {
  // Only the regions searched are converted (a colour frame is three times the pixels).
  const cv::Mat& image = frame.image;
  frame.grey = image;
  if (image.type() != CV_8UC1) {
    search_.grey_buffer.create(image.size(), CV_8UC1);
    for (const auto& region : result.searched) {
      cv::Mat target = search_.grey_buffer(region.roi);  // converted in place: the header shares the buffer's pixels
      grey_into(image(region.roi), target);
    }
    frame.grey = search_.grey_buffer;
  }
}

void Tracker::detect_tags(FrameWork& frame, TrackerResult& result) {
  frame.tags = search_.tags.detect(frame.grey, result.searched);
  for (const auto& r : result.searched) stats_.pixels_searched += r.roi.area();
  frame.enlarged = look_again_enlarged(frame.image, frame.grey, frame.unchanged, frame.tags);
}

void Tracker::locate_table(FrameWork& frame, TrackerResult& result) {
  for (const auto& tag : frame.tags) {
    DetectionRecord record;
    record.tag = tag;
    record.corner_marker = model::is_corner_marker(tag.id);
    record.enlarged = std::find(frame.enlarged.begin(), frame.enlarged.end(), tag.id) != frame.enlarged.end();
    if (record.corner_marker) frame.markers.push_back({tag.id, tag.corners});
    result.detections.push_back(record);
  }
  const std::shared_ptr<const calib::CameraPose> pose_before = view_.pose;
  update_table_pose(frame.markers, frame.image.size(), frame.index, result);
  result.table_pose = view_.pose;
  // Located again after the camera moved: the quiet table's picture was taken through the old
  // view, and all of the table would differ from it (foreign, never settled, until absorbed
  // seconds later). It is taken again through the new view, at the first frame where nothing
  // changes and no disk moves; until then the table is not quiet.
  if (result.camera_moved && pose_before && view_.pose && view_.pose != pose_before) {
    watch_.watch.reset();
    watch_.picture = tracker_stages::Watch::Picture::to_retake;
  }
  refresh_geometry(frame.image.size());
}

void Tracker::track_disks(FrameWork& frame, TrackerResult& result) {
  // Disks whose tag is seen tilted somewhere new: turning over, or in a hand. One seen tilted again
  // where it was first seen tilted lies so, at rest (leaning, on its edge): not lifted.
  frame.lifted = tilted_anew(result.detections, frame.change, frame.t);
  // A disk left unmeasured as unchanged but detected anyway (in another region) counts as measured.
  const std::vector<DiskObservation>& observations = frame.observations;
  std::erase_if(frame.unchanged, [&](std::size_t i) {
    return std::any_of(observations.begin(), observations.end(),
                       [&](const DiskObservation& o) { return o.disk_index == i; });
  });
  for (const auto& o : observations) disks_.last_measured_frame[o.disk_index] = frame.index;
  // Looked for and missed, but the same picture as when last measured: seen where it was.
  const std::vector<std::size_t> same = same_picture_as_measured(frame.change, observations, frame.unchanged);
  frame.unchanged.insert(frame.unchanged.end(), same.begin(), same.end());
  remember_measured_pictures(frame.change, observations);
  result.track = disks_.tracker.update(frame.index, frame.t, observations, frame.unchanged, frame.lifted);
  report_tilted(result.track);
}

bool Tracker::changing_over_play_area(const ChangeResult& change) const {
  if (!view_.geometry || change.first_frame) return false;
  for (const auto& region : change.regions) {
    const int s = view_.geometry->mask_scale;
    const cv::Rect small = cv::Rect(region.x / s, region.y / s, region.width / s, region.height / s) &
                           cv::Rect(0, 0, view_.geometry->play_area_small.cols, view_.geometry->play_area_small.rows);
    if (small.area() == 0) continue;
    cv::Mat both;
    cv::bitwise_and(view_.geometry->play_area_small(small), change.changed_small(small), both);
    if (cv::countNonZero(both) > 0) return true;
  }
  return false;
}

void Tracker::watch_table(FrameWork& frame, TrackerResult& result) {
  const ChangeResult& change = frame.change;
  frame.changing = changing_over_play_area(change);
  using Picture = tracker_stages::Watch::Picture;
  const bool watch_sized = view_.geometry && change.small.size() == view_.geometry->play_area_small.size();
  // A picture to be taken again through a new view is taken at the first frame where nothing
  // changes and no disk moves (locate_table).
  if (watch_.picture == Picture::to_retake && !frame.changing && !change.first_frame && !disks_.tracker.any_moving() &&
      watch_sized) {
    adopt_background(change, result.track, frame.image);
    watch_.picture = Picture::current;
  }
  if (!watch_sized || watch_.picture == Picture::to_retake) return;  // nothing to compare with yet
  const bool fresh = !watch_.watch.has_background();
  frame.watched = watch_.watch.update(frame.t, change.small, change.changed_small, view_.geometry->play_area_small,
                                      [&] { return disk_footprints_small(result.track); });
  const TableWatchResult& watched = frame.watched;
  result.foreign_over_table = watched.foreign;
  if (watched.foreign) {
    const int k = view_.geometry->mask_scale;
    result.foreign_box_px = cv::Rect(watched.foreign_box.x * k, watched.foreign_box.y * k,
                                     watched.foreign_box.width * k, watched.foreign_box.height * k);
    for (const cv::Rect& part : watched.foreign_parts)
      result.foreign_parts_px.emplace_back(part.x * k, part.y * k, part.width * k, part.height * k);
  }
  if (fresh) adopt_background(change, result.track, frame.image);
}

void Tracker::judge_quiet(FrameWork& frame, TrackerResult& result) {
  const ChangeResult& change = frame.change;
  if (frame.changing || change.first_frame) settle_.picture_changed_t = frame.t;
  PlayAreaFrame area;
  area.view_trusted = view_.pose && view_.geometry && !view_.camera_suspect() &&
                      watch_.picture == tracker_stages::Watch::Picture::current;
  area.first_frame = change.first_frame;
  area.changing = frame.changing;
  area.disk_lifted = !frame.lifted.empty();
  area.disk_moving = disks_.tracker.any_moving();
  area.disk_moved_now = disks_.tracker.moved_now(settle_.picture_changed_t);
  area.foreign = result.foreign_over_table;
  result.table_quiet = play_area_quiet(area, kSettleQuiet);
  frame.settled = settle_.clock.update(frame.t, result.table_quiet);
  result.track.settled = frame.settled;
  // Still: as quiet, but what lies still and unexplained on the table does not stop it, and a
  // disk is still from the frame after it last moved (play_area_quiet.h, kStillQuiet).
  const bool still = play_area_quiet(area, kStillQuiet);
  settle_.last_frame_still = still;
  if (!still || !settle_.last_unstill_t) settle_.last_unstill_t = frame.t;
  if (view_.pose) result.track.still_s = frame.t - *settle_.last_unstill_t;
}

void Tracker::report_landings(FrameWork& frame, TrackerResult& result) {
  if (!frame.settled) return;
  for (model::Landing& l : disks_.tracker.settle()) result.track.landings.push_back(std::move(l));
  adopt_background(frame.change, result.track, frame.image);
}

void Tracker::finish_frame(const FrameWork& frame, const TrackerResult& result) {
  ++stats_.frames;
  if (!view_.pose) ++stats_.frames_without_table_pose;
  for (const auto& d : result.detections) {
    if (d.corner_marker) continue;
    if (d.rejected)
      ++stats_.rejected[static_cast<std::size_t>(*d.rejected)];
    else
      ++stats_.accepted;
  }
  // Most of the table changed at once (the camera was bumped, the light changed): everything may
  // have moved in the image, so the next frame is searched whole.
  const bool whole = !view_.pose || (view_.geometry && !frame.change.first_frame &&
                                     ChangeDetector::changed_fraction(frame.change, view_.geometry->play_area_small) >
                                         options_.rescan_changed_fraction);
  search_.next_scope =
      whole ? tracker_stages::Search::Scope::whole_table : tracker_stages::Search::Scope::where_tags_can_be;
}

}  // namespace diskref::vision
