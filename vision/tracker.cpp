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
#include "vision/pose_uncertainty.h"
#include "vision/tracker_geometry.h"

namespace diskref::vision {
namespace {

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
    case RejectReason::unknown_id: return "id not in the registry";
    case RejectReason::wrong_size: return "tag size does not match the registry";
    case RejectReason::off_table: return "off the table";
    case RejectReason::seen_twice: return "disk seen twice at once";
    case RejectReason::mirrored: return "mirror image (seen through the table?)";
    case RejectReason::no_table_pose: return "no table pose yet";
    case RejectReason::not_flat: return "not lying flat (tilted, lifted or smeared)";
    case RejectReason::camera_moved: return "camera moved (table pose being re-estimated)";
  }
  return "?";
}

long long TrackerStats::rejected_total() const {
  long long total = 0;
  for (long long r : rejected) total += r;
  return total;
}

Tracker::Tracker(model::TableSpec table, model::DiskRegistry registry, std::optional<calib::CameraModel> lens, TrackerOptions options)
    : table_(std::move(table)),
      registry_(std::move(registry)),
      counter_bodies_(counter_bodies(registry_)),
      lens_(std::move(lens)),
      options_(options),
      search_(options.detector),
      planner_(options.search),
      change_(options.change),
      disks_(registry_, options.disks),
      watch_(options.watch),
      settle_(options.settle_window_s),
      last_tilted_(registry_.disks().size()),
      background_poses_(registry_.disks().size()),
      last_measured_frame_(registry_.disks().size(), -1),
      measured_pictures_(registry_.disks().size()) {
  if (!(options.size_tolerance > 0)) throw std::invalid_argument("size_tolerance must be > 0");
  if (!(options.thickness_sigma_mm >= 0)) throw std::invalid_argument("thickness_sigma_mm must be >= 0");
  for (const model::DiskSpec& d : registry_.disks())
    if (d.kind != model::DiskKind::template_) thickest_disk_mm_ = std::max(thickest_disk_mm_, d.thickness_mm);
  if (!(options.disks.lost_after_s >= 0)) throw std::invalid_argument("lost_after_s must be >= 0");
}

void Tracker::use_pose(calib::CameraPose pose, cv::Size image_size, bool same_view, std::size_t pose_frames) {
  if (pose_ && same_view) {
    // A better pose for the same view (the camera drifted, or a provisional pose refined): each
    // disk's picture where it was last seen lies elsewhere through it, and the disks' memories
    // follow (disk_tracker.h shift_poses). After a move the old pose was right for the old view.
    std::vector<geom::Vec2> shifts(registry_.disks().size());
    for (std::size_t i = 0; i < shifts.size(); ++i) {
      const DiskEstimate& e = disks_.estimates()[i];
      if (!e.ever_seen) continue;
      const double height = tag_height_mm(registry_.disks()[i]);
      const geom::Vec2 before = e.last_observed.position;
      const cv::Point2d pixel = calib::image_from_table(*pose_, {before.x, before.y, height});
      if (auto after = calib::table_from_image(pose, pixel, height)) shifts[i] = *after - before;
    }
    disks_.shift_poses(shifts);
  }
  pose_ = std::make_shared<const calib::CameraPose>(std::move(pose));
  geometry_.reset();
  const std::vector<calib::MarkerObservation> markers =
      marker_history_.empty() ? std::vector<calib::MarkerObservation>{} : calib::median_observations(marker_history_);
  PoseUncertaintyOptions uncertainty = options_.pose_uncertainty;
  uncertainty.detector = options_.measurement;  // the markers are tags like the disks'
  // The pose came from the median of `pose_frames` frames: what the markers' noise in a frame (as
  // the recent frames show it) leaves in it.
  uncertainty.frame_corner_noise_px = frame_corner_noise_px(marker_history_);
  uncertainty.median_frames = static_cast<double>(std::max<std::size_t>(pose_frames, 1));
  pose_uncertainty_.emplace(table_, *pose_, markers, lens_, image_size, uncertainty);
}

void Tracker::set_table_pose(calib::CameraPose pose) {
  monitor_.emplace(table_, lens_, pose, options_.table_monitor);
  const cv::Size size = pose.camera.image_size;
  // A given pose: the frames it came from are not known; the markers' noise is taken at its floor.
  use_pose(std::move(pose), size, false, std::numeric_limits<std::size_t>::max());
}

void Tracker::reset() {
  camera_suspect_ = false;
  retake_background_ = false;
  std::fill(last_measured_frame_.begin(), last_measured_frame_.end(), -1);
  std::fill(measured_pictures_.begin(), measured_pictures_.end(), std::nullopt);
  suspect_marker_frames_ = 0;
  disks_ = DiskTracker(registry_, options_.disks);
  change_ = ChangeDetector(options_.change);
  watch_.reset();
  settle_.reset();
  last_unstill_t_.reset();
  was_still_ = false;
  picture_changed_t_ = -1e300;
  std::fill(last_tilted_.begin(), last_tilted_.end(), std::nullopt);
  small_foreign_px_.clear();
  large_foreign_px_.clear();
  std::fill(background_poses_.begin(), background_poses_.end(), std::nullopt);
  planner_.reset();
  search_everything_ = true;
}

void Tracker::update_table_pose(const std::vector<calib::MarkerObservation>& markers, cv::Size image_size, long long frame,
                                TrackerResult& result) {
  if (!monitor_) monitor_.emplace(table_, lens_, image_size, options_.table_monitor);
  const int confirm = std::max(1, options_.table_monitor.confirm_frames);
  if (markers.size() >= 2) {
    marker_history_.push_back(markers);
    if (marker_history_.size() > kMarkerHistoryFrames) marker_history_.erase(marker_history_.begin());
    if (!monitor_->pose()) ++unacquired_marker_frames_;
  }
  auto keep_recent_history = [&] {
    // Only the frames since the move describe the new view.
    if (marker_history_.size() > static_cast<std::size_t>(confirm))
      marker_history_.erase(marker_history_.begin(), marker_history_.end() - confirm);
  };

  // A monitor that could not acquire a pose from many frames (a lens the pinhole cannot fit well
  // enough for it) is given up: the provisional pose below carries on, re-estimated after a move.
  const bool monitor_gave_up = !monitor_->pose() && unacquired_marker_frames_ > 4 * confirm;
  if (auto event = monitor_gave_up ? std::nullopt : monitor_->update(frame, markers)) {
    result.notes.push_back(event->message);
    result.camera_moved = result.camera_moved || event->kind == calib::TableMonitorEvent::Kind::camera_moved;
    if (event->kind != calib::TableMonitorEvent::Kind::marker_moved && monitor_->pose()) {
      const bool moved = event->kind == calib::TableMonitorEvent::Kind::camera_moved;
      if (moved) keep_recent_history();
      // The monitor fits its pose to the median of confirm_frames frames (drift_frames after a drift).
      const int frames = event->kind == calib::TableMonitorEvent::Kind::drifted ? options_.table_monitor.drift_frames : confirm;
      use_pose(*monitor_->pose(), image_size, !moved, static_cast<std::size_t>(std::max(frames, 1)));
      camera_suspect_ = false;
      suspect_marker_frames_ = 0;
    }
  }

  // Markers away from where the pose puts them: the camera may have moved (the monitor needs a few
  // frames to be sure). Until they agree again nothing is measured with the old pose.
  if (pose_ && markers.size() >= 2) {
    int seen = 0, displaced = 0;
    const double tolerance_px = std::max(options_.marker_shift_px, 3 * pose_->reprojection_rms_px);
    for (const auto& m : markers) {
      if (m.id < 0 || m.id > 3) continue;
      auto corners = table_.corner_markers[static_cast<std::size_t>(m.id)].corners_mm();
      double shift = 0;
      for (std::size_t k = 0; k < 4; ++k)
        shift += cv::norm(calib::image_from_table(*pose_, {corners[k].x, corners[k].y, 0.0}) - m.corners_px[k]) / 4;
      ++seen;
      if (shift > tolerance_px) ++displaced;
    }
    if (seen >= 2) camera_suspect_ = displaced >= 2;
    suspect_marker_frames_ = camera_suspect_ ? suspect_marker_frames_ + 1 : 0;
  }
  if (monitor_->pose()) return;

  // The monitor has not acquired its pose (yet): a provisional pose from the markers seen so far,
  // from the first frame that shows them, once more from the median of kMarkerHistoryFrames
  // frames, and again after the camera has moved (markers displaced in `confirm` frames).
  const bool history_full = marker_history_.size() == kMarkerHistoryFrames;
  const bool moved = suspect_marker_frames_ >= confirm;
  if (marker_history_.empty()) return;
  if (pose_ && !moved && (!history_full || provisional_from_full_history_)) return;
  if (moved) {
    keep_recent_history();
    provisional_from_full_history_ = false;
  } else {
    provisional_from_full_history_ = history_full;
  }
  calib::CameraPoseEstimate estimate = calib::estimate_camera_pose(table_, calib::median_observations(marker_history_), lens_, image_size);
  if (!estimate.pose) return;
  if (!pose_ || moved) {
    const char* what = moved ? "camera moved, provisional table pose re-estimated" : "provisional table pose";
    result.notes.push_back(fmt::format("frame {}: {} from corner markers {} ({:.2f} px, {:.2f} mm)", frame, what,
                                       join_ids(estimate.pose->markers_used), estimate.pose->reprojection_rms_px,
                                       estimate.pose->reprojection_rms_mm));
    result.camera_moved = result.camera_moved || moved;
    for (auto& note : estimate.notes) result.notes.push_back("frame " + std::to_string(frame) + ": " + note);
  }
  use_pose(std::move(*estimate.pose), image_size, !moved, marker_history_.size());
  camera_suspect_ = false;
  suspect_marker_frames_ = 0;
}

SearchScene Tracker::search_scene(cv::Size image_size, long long frame_index, double t, const ChangeResult& change,
                                  std::vector<std::size_t>& unchanged) const {
  SearchScene scene;
  scene.image_size = image_size;
  if (!pose_ || !geometry_) return scene;
  const calib::CameraPose& pose = *pose_;
  const double cells = search_.cells_across_corners();
  const double printed = static_cast<double>(search_.cells_across_tag()) / cells;
  scene.table_px = geometry_->table_px;
  scene.min_pixels_per_cell = geometry_->min_pixels_per_cell;
  scene.tag_scale = geometry_->tag_scale;
  scene.max_tag_px = geometry_->max_tag_px;
  scene.max_disk_tag_px = geometry_->max_disk_tag_px;
  scene.changed = change.ended_regions;  // where a hand has just moved on
  // Something the size of a disk that lies there unexplained: perhaps a disk whose tag was missed
  // as it came to rest (its changes have ended); looked at again while it stays.
  scene.changed.insert(scene.changed.end(), small_foreign_px_.begin(), small_foreign_px_.end());

  // Every frame until there is a pose, while the monitor acquires its own (for a few frames: a lens
  // the pinhole cannot fit makes it try again, at some cost, with every frame it is given) and
  // while the camera seems to have moved; otherwise every marker_check_frames frames.
  const bool acquiring = !monitor_ || (!monitor_->pose() && unacquired_marker_frames_ < 2 * options_.table_monitor.confirm_frames);
  const bool check_markers = !pose_ || acquiring || camera_suspect_ || options_.marker_check_frames <= 1 ||
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
    const DiskEstimate& e = disks_.estimates()[i];
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
        frame_index - last_measured_frame_[i] < options_.still_refresh_frames) {
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
      const geom::Vec2 landing = e.last_observed.position + geom::flip_length(disk.shape) * e.last_observed.rotation.axis_x();
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
  cv::Mat mask = cv::Mat::zeros(geometry_->play_area_small.size(), CV_8U);
  if (!pose_) return mask;
  const double scale = geometry_->mask_scale;
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
    for (const cv::Point2d& p : calib::image_from_table(*pose_, ring))
      points.emplace_back(static_cast<int>(std::lround(p.x / scale)), static_cast<int>(std::lround(p.y / scale)));
    std::vector<cv::Point> hull;
    cv::convexHull(points, hull);
    cv::fillConvexPoly(mask, hull, cv::Scalar(255));
  };
  for (const model::DiskTrack& d : track.disks) {
    const std::optional<std::size_t> i = registry_.index_of(d.name);
    if (!i) continue;
    if (d.x && d.y && d.heading) draw(registry_.disks()[*i], geom::Pose::from_degrees(*d.x, *d.y, *d.heading));
    if (background_poses_[*i]) draw(registry_.disks()[*i], *background_poses_[*i]);
  }
  // As the change detector grows its changes by a shrunk pixel.
  cv::dilate(mask, mask, cv::Mat());
  return mask;
}

void Tracker::adopt_background(const ChangeResult& change, const model::TrackFrame& track, const cv::Mat& image) {
  watch_.adopt(change.small);
  grey_into(image, background_grey_);
  std::fill(background_poses_.begin(), background_poses_.end(), std::nullopt);
  for (const model::DiskTrack& d : track.disks)
    if (const auto i = registry_.index_of(d.name); i && d.x && d.y && d.heading)
      background_poses_[*i] = geom::Pose::from_degrees(*d.x, *d.y, *d.heading);
}

std::vector<DiskObservation> Tracker::measure(std::vector<DetectionRecord>& records) {
  struct Candidate {
    std::size_t record = 0;
    DiskObservation observation;
  };
  std::vector<std::vector<Candidate>> per_disk(registry_.disks().size());
  // How far the markers say the pose is off now (a boom creeping after a knock, until the monitor
  // re-fits it): the same at every place, along one direction (per axis: / sqrt 2).
  const double drift_share = monitor_ ? monitor_->recent_drift_mm() / std::sqrt(2.0) : 0.0;
  for (std::size_t r = 0; r < records.size(); ++r) {
    DetectionRecord& record = records[r];
    if (record.corner_marker) continue;
    const std::optional<model::TagRef> ref = registry_.find_tag(record.tag.id);
    if (!ref) {
      record.rejected = RejectReason::unknown_id;
      continue;
    }
    record.disk_index = ref->disk_index;
    if (!pose_) {
      record.rejected = RejectReason::no_table_pose;
      continue;
    }
    if (camera_suspect_) {
      record.rejected = RejectReason::camera_moved;
      continue;
    }
    const model::DiskSpec& disk = registry_.disks()[ref->disk_index];
    const model::TagSpec& tag = registry_.tag(*ref);
    const double height = tag_height_mm(disk);
    auto m = measure_tag(*pose_, record.tag.corners, tag.size_mm, height, options_.measurement);
    if (!m) {
      record.rejected = RejectReason::off_table;
      continue;
    }
    const geom::Pose table_from_tag = m->fit.table_from_tag;
    const geom::Pose table_from_disk{table_from_tag.position,
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
      const double pose_share = pose_uncertainty_ ? pose_uncertainty_->sigma_mm(p, height) : 0.0;
      const double lift_share = pose_uncertainty_ ? tag_height_sigma_mm(disk) * pose_uncertainty_->lift_per_mm(p, height) / std::sqrt(2.0) : 0.0;
      // And the lens's at this place (the camera file's uncertainty grid; 0 without one).
      const double lens_share = pose_uncertainty_ ? pose_uncertainty_->lens_sigma_mm(p, height) : 0.0;
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
    const DiskEstimate& e = disks_.estimates()[d];
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

TagScaleMap Tracker::tag_scale_map(const calib::CameraPose& pose, cv::Size size, double cell_mm, double max_height_mm) const {
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
      for (const cv::Point2d& o : {cv::Point2d(0, 0), cv::Point2d(1, 0), cv::Point2d(0, 1), cv::Point2d(1, 1), cv::Point2d(0.5, 0.5)})
        pixels.emplace_back(std::min<double>((bx + o.x) * block, size.width - 1), std::min<double>((by + o.y) * block, size.height - 1));
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

std::shared_ptr<const Tracker::PoseGeometry> Tracker::pose_geometry(const calib::CameraPose& pose, cv::Size size) const {
  auto g = std::make_shared<PoseGeometry>();
  g->image_size = size;
  const double cells = search_.cells_across_corners();
  const double printed = static_cast<double>(search_.cells_across_tag()) / cells;
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
  g->mask_scale = change_.scale_for(size.width);
  g->play_area_small = cv::Mat::zeros(size.height / g->mask_scale, size.width / g->mask_scale, CV_8U);
  std::vector<cv::Point> polygon;
  for (const auto& p : edge_px)
    polygon.emplace_back(static_cast<int>(std::lround(p.x / g->mask_scale)), static_cast<int>(std::lround(p.y / g->mask_scale)));
  cv::fillPoly(g->play_area_small, std::vector<std::vector<cv::Point>>{polygon}, cv::Scalar(255));
  return g;
}

TrackerResult Tracker::process(const cv::Mat& image, long long frame_index, double t) {
  TrackerResult result;
  auto clock = Clock::now();

  if (image.empty()) throw std::invalid_argument("Tracker::process: empty image");
  if (image.type() != CV_8UC3 && image.type() != CV_8UC4 && image.type() != CV_8UC1)
    throw std::invalid_argument("Tracker::process: needs an 8-bit BGR, BGRA or grey image");
  const cv::Size size = image.size();

  // change (on a shrunk copy: no full-resolution work)
  ChangeResult change = change_.update(image);
  result.times.change_ms = ms_since(clock);

  // plan
  if (pose_ && (!geometry_ || geometry_->image_size != size)) geometry_ = pose_geometry(*pose_, size);
  const bool everything = search_everything_ || !pose_ || options_.exhaustive_search;
  std::vector<std::size_t> unchanged;
  result.searched = planner_.plan(search_scene(size, frame_index, t, change, unchanged), everything);
  if (everything) unchanged.clear();  // searched anyway
  result.times.plan_ms = ms_since(clock);

  // grey: only the regions searched are converted (a colour frame is three times the pixels).
  cv::Mat grey = image;
  if (image.type() != CV_8UC1) {
    grey_buffer_.create(size, CV_8UC1);
    for (const auto& region : result.searched) {
      cv::Mat target = grey_buffer_(region.roi);  // converted in place: the header shares the buffer's pixels
      grey_into(image(region.roi), target);
    }
    grey = grey_buffer_;
  }
  result.times.grey_ms = ms_since(clock);

  // detect
  std::vector<TagDetection> tags = search_.detect(grey, result.searched);
  for (const auto& r : result.searched) stats_.pixels_searched += r.roi.area();
  const std::vector<int> enlarged = look_again_enlarged(image, grey, unchanged, tags);
  result.times.detect_ms = ms_since(clock);

  // table
  std::vector<calib::MarkerObservation> markers;
  for (const auto& tag : tags) {
    DetectionRecord record;
    record.tag = tag;
    record.corner_marker = model::is_corner_marker(tag.id);
    record.enlarged = std::find(enlarged.begin(), enlarged.end(), tag.id) != enlarged.end();
    if (record.corner_marker) markers.push_back({tag.id, tag.corners});
    result.detections.push_back(record);
  }
  const std::shared_ptr<const calib::CameraPose> pose_before = pose_;
  update_table_pose(markers, size, frame_index, result);
  result.table_pose = pose_;
  // Located again after the camera moved: the quiet table's picture was taken through the old
  // view, and all of the table would differ from it (foreign, never settled, until absorbed
  // seconds later). It is taken again through the new view, at the first frame where nothing
  // changes and no disk moves; until then the table is not quiet.
  if (result.camera_moved && pose_before && pose_ && pose_ != pose_before) {
    watch_.reset();
    retake_background_ = true;
  }
  if (pose_ && (!geometry_ || geometry_->image_size != size)) geometry_ = pose_geometry(*pose_, size);
  result.times.table_ms = ms_since(clock);

  // measure
  std::vector<DiskObservation> observations = measure(result.detections);
  result.times.measure_ms = ms_since(clock);

  // track
  // Disks whose tag is seen tilted somewhere new: turning over, or in a hand. One seen tilted again
  // where it was first seen tilted lies so, at rest (leaning, on its edge): not lifted.
  const std::vector<std::size_t> lifted = tilted_anew(result.detections, change, t);
  // A disk left unmeasured as unchanged but detected anyway (in another region) counts as measured.
  std::erase_if(unchanged, [&](std::size_t i) {
    return std::any_of(observations.begin(), observations.end(), [&](const DiskObservation& o) { return o.disk_index == i; });
  });
  for (const auto& o : observations) last_measured_frame_[o.disk_index] = frame_index;
  // Looked for and missed, but the same picture as when last measured: seen where it was.
  const std::vector<std::size_t> same = same_picture_as_measured(change, observations, unchanged);
  unchanged.insert(unchanged.end(), same.begin(), same.end());
  remember_measured_pictures(change, observations);
  result.track = disks_.update(frame_index, t, observations, unchanged, lifted);
  report_tilted(result.track);
  result.times.track_ms = ms_since(clock);

  // settle
  bool changing = false;
  if (geometry_ && !change.first_frame) {
    for (const auto& region : change.regions) {
      const int s = geometry_->mask_scale;
      const cv::Rect small = cv::Rect(region.x / s, region.y / s, region.width / s, region.height / s) &
                             cv::Rect(0, 0, geometry_->play_area_small.cols, geometry_->play_area_small.rows);
      if (small.area() == 0) continue;
      cv::Mat both;
      cv::bitwise_and(geometry_->play_area_small(small), change.changed_small(small), both);
      if (cv::countNonZero(both) > 0) changing = true;
    }
  }
  if (retake_background_ && !changing && !change.first_frame && !disks_.any_moving() && geometry_ &&
      change.small.size() == geometry_->play_area_small.size()) {
    adopt_background(change, result.track, image);
    retake_background_ = false;
  }
  TableWatchResult watched;
  if (geometry_ && change.small.size() == geometry_->play_area_small.size() && !retake_background_) {
    const bool fresh = !watch_.has_background();
    watched = watch_.update(t, change.small, change.changed_small, geometry_->play_area_small,
                            [&] { return disk_footprints_small(result.track); });
    result.foreign_over_table = watched.foreign;
    if (watched.foreign) {
      const int k = geometry_->mask_scale;
      result.foreign_box_px = cv::Rect(watched.foreign_box.x * k, watched.foreign_box.y * k, watched.foreign_box.width * k,
                                       watched.foreign_box.height * k);
      for (const cv::Rect& part : watched.foreign_parts)
        result.foreign_parts_px.emplace_back(part.x * k, part.y * k, part.width * k, part.height * k);
    }
    if (fresh) adopt_background(change, result.track, image);
  }
  result.table_quiet = pose_ && geometry_ && !camera_suspect_ && !retake_background_ && !change.first_frame &&
                       !changing && !result.foreign_over_table && lifted.empty() && !disks_.any_moving();
  const bool settled = settle_.update(t, result.table_quiet);
  result.track.settled = settled;
  // Still: as quiet, but what lies still and unexplained on the table does not stop it (a counter
  // on its edge; the referee weighs that from `foreign`), and a disk is still from the frame after
  // it last moved (not the 0.1 s after that a disk is still `moving`): the window the reader of
  // still_s asks for is the only one.
  if (changing || change.first_frame) picture_changed_t_ = t;
  const bool still = pose_ && geometry_ && !camera_suspect_ && !retake_background_ && !change.first_frame && !changing &&
                     lifted.empty() && !disks_.moved_now(picture_changed_t_);
  was_still_ = still;
  if (!still || !last_unstill_t_) last_unstill_t_ = t;
  if (pose_) result.track.still_s = t - *last_unstill_t_;
  small_foreign_px_.clear();
  large_foreign_px_.clear();
  if (pose_ && geometry_) report_foreign(image, result, watched.shift_levels);
  if (settled) {
    for (model::Landing& l : disks_.settle()) result.track.landings.push_back(std::move(l));
    adopt_background(change, result.track, image);
  }
  result.times.settle_ms = ms_since(clock);

  ++stats_.frames;
  if (!pose_) ++stats_.frames_without_table_pose;
  for (const auto& d : result.detections) {
    if (d.corner_marker) continue;
    if (d.rejected)
      ++stats_.rejected[static_cast<std::size_t>(*d.rejected)];
    else
      ++stats_.accepted;
  }
  // Most of the table changed at once (the camera was bumped, the light changed): everything may
  // have moved in the image, so the next frame is searched whole.
  search_everything_ = !pose_ || (geometry_ && !change.first_frame &&
                                  ChangeDetector::changed_fraction(change, geometry_->play_area_small) >
                                      options_.rescan_changed_fraction);
  return result;
}

}  // namespace diskref::vision
