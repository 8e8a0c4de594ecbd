#include "calibration/table_monitor.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numbers>
#include <utility>

#include <fmt/format.h>

namespace diskref::calib {
namespace {

std::string describe(long long frame, const char* what, double shift_mm, const CameraPoseEstimate* estimate) {
  std::string out = fmt::format("frame {}: {}", frame, what);
  if (shift_mm > 0) out += fmt::format(" (markers shifted {:.1f} mm)", shift_mm);
  if (estimate && estimate->pose) {
    cv::Vec3d c = estimate->pose->camera_center_table();
    out += fmt::format("; camera at ({:.0f}, {:.0f}, {:.0f}) mm, fit {:.2f} px / {:.2f} mm", c[0], c[1], c[2],
                       estimate->pose->reprojection_rms_px, estimate->pose->reprojection_rms_mm);
    for (const auto& note : estimate->notes) out += "; " + note;
  }
  return out;
}

}  // namespace

const char* to_string(TableMonitorEvent::Kind kind) {
  switch (kind) {
    case TableMonitorEvent::Kind::acquired:
      return "acquired";
    case TableMonitorEvent::Kind::camera_moved:
      return "camera_moved";
    case TableMonitorEvent::Kind::marker_moved:
      return "marker_moved";
    case TableMonitorEvent::Kind::drifted:
      return "drifted";
  }
  return "?";
}

TableMonitor::TableMonitor(model::TableSpec table, std::optional<CameraModel> lens, CameraPose pose,
                           TableMonitorOptions options)
    : table_(std::move(table)), lens_(std::move(lens)), image_size_(pose.camera.image_size), options_(options) {
  // Until a frame is seen, a marker is expected where the given pose projects it.
  std::vector<MarkerObservation> predicted;
  for (const auto& marker : table_.corner_markers) {
    MarkerObservation m;
    m.id = marker.id;
    auto corners = marker.corners_mm();
    for (std::size_t k = 0; k < 4; ++k) m.corners_px[k] = image_from_table(pose, {corners[k].x, corners[k].y, 0.0});
    predicted.push_back(m);
  }
  set_pose(std::move(pose), predicted, 0);
}

TableMonitor::TableMonitor(model::TableSpec table, std::optional<CameraModel> lens, cv::Size image_size,
                           TableMonitorOptions options)
    : table_(std::move(table)), lens_(std::move(lens)), image_size_(image_size), options_(options) {}

void TableMonitor::set_pose(CameraPose pose, const std::vector<MarkerObservation>& reference,
                            std::size_t reference_frames) {
  pose_ = std::move(pose);
  reference_frames_ = reference_frames;
  reference_.clear();
  for (const auto& m : reference) reference_[m.id] = m;
  pending_.clear();
  moved_marker_streak_.clear();
  agreeing_.clear();
  reference_checked_ = false;
  // A marker's noise is the camera's and the detector's, whatever the pose: kept; only the
  // displacement it is measured from starts again.
  for (auto& [id, noise] : noise_) noise.last.reset();
}

std::optional<geom::Vec2> TableMonitor::displacement_vector(const MarkerObservation& marker) const {
  // Both the reference and the observed corners are mapped onto the table through the current
  // pose: the distance is in table millimetres whatever the view's foreshortening, and the pose's
  // own model error (no lens calibration) cancels.
  auto ref = reference_.find(marker.id);
  if (ref == reference_.end()) return std::nullopt;
  std::vector<cv::Point2d> pixels;
  for (const auto& p : marker.corners_px) pixels.push_back(p);
  for (const auto& p : ref->second.corners_px) pixels.push_back(p);
  auto on_table = table_from_image(*pose_, pixels, 0.0);
  geom::Vec2 sum{};
  for (std::size_t k = 0; k < 4; ++k) {
    if (!on_table[k] || !on_table[k + 4]) return std::nullopt;
    sum = sum + (*on_table[k] - *on_table[k + 4]);
  }
  return sum / 4.0;
}

std::vector<TableMonitor::Displacement> TableMonitor::displacements(
    const std::vector<MarkerObservation>& markers) const {
  std::vector<Displacement> out;
  for (const auto& m : markers) {
    // The corners' mean distance from their reference (so a turn about the marker counts too).
    auto ref = reference_.find(m.id);
    if (ref == reference_.end()) continue;
    std::vector<cv::Point2d> pixels;
    for (const auto& p : m.corners_px) pixels.push_back(p);
    for (const auto& p : ref->second.corners_px) pixels.push_back(p);
    auto on_table = table_from_image(*pose_, pixels, 0.0);
    double mm = 0;
    for (std::size_t k = 0; k < 4; ++k) {
      if (!on_table[k] || !on_table[k + 4]) {
        mm = std::numeric_limits<double>::infinity();
        break;
      }
      mm += geom::distance(*on_table[k], *on_table[k + 4]) / 4;
    }
    out.push_back({m.id, mm});
  }
  return out;
}

std::optional<double> TableMonitor::frame_noise2(int id) const {
  // A few differences at least: an estimate from one or two could be near 0 by chance.
  constexpr std::size_t kMinDifferences = 4;
  auto it = noise_.find(id);
  if (it == noise_.end() || it->second.differences2.size() < kMinDifferences) return std::nullopt;
  std::vector<double> d2 = it->second.differences2;
  std::nth_element(d2.begin(), d2.begin() + static_cast<std::ptrdiff_t>(d2.size() / 2), d2.end());
  // A difference of two frames has twice a frame's variance per axis; over both axes its square is
  // 2 sigma^2 times a chi-square of 2 degrees of freedom, whose median is 2 ln 2.
  return d2[d2.size() / 2] / (4 * std::numbers::ln2);
}

double TableMonitor::recent_drift_mm(std::size_t frames) const {
  if (!pose_ || agreeing_.empty() || frames == 0) return 0.0;
  // Each marker's displacements over all the agreeing frames kept, in order.
  std::map<int, std::vector<geom::Vec2>> by_marker;
  for (const auto& frame_markers : agreeing_)
    for (const auto& m : frame_markers)
      if (auto d = displacement_vector(m)) by_marker[m.id].push_back(*d);
  if (by_marker.empty()) return 0.0;
  const double k = static_cast<double>(reference_frames_);
  const double reference_share = k > 0 ? std::numbers::pi / (2 * k) : 0.0;
  double sum2 = 0;
  for (const auto& [id, ds] : by_marker) {
    const std::optional<double> noise = frame_noise2(id);
    if (!noise) continue;  // too soon to tell a drift from noise
    const double frame_noise2 = *noise;
    const std::size_t first = ds.size() > frames ? ds.size() - frames : 0;
    const double n = static_cast<double>(ds.size() - first);
    geom::Vec2 mean{};
    for (std::size_t i = first; i < ds.size(); ++i) mean = mean + ds[i] / n;
    // What noise alone puts in the mean's square (both axes): a mean within 3 standard errors of
    // the reference is noise (0); beyond, the drift is the mean with that taken off.
    const double noise2 = 2 * frame_noise2 * (1 / n + reference_share);
    const double mean2 = geom::length_squared(mean);
    if (mean2 > 9 * noise2 / 2) sum2 += mean2 - noise2;
  }
  return std::sqrt(sum2 / static_cast<double>(by_marker.size()));
}

std::optional<TableMonitorEvent> TableMonitor::check_drift(long long frame) {
  const std::size_t recent = static_cast<std::size_t>(std::max(options_.drift_frames, 0));
  if (recent < 2) return std::nullopt;
  if (!reference_checked_ && agreeing_.size() >= recent) {
    // The first drift_frames agreeing frames against the reference itself, once per pose: a pose
    // located from a few frames of a camera still swinging is off from the start, which comparing
    // later frames with earlier ones cannot show. Once only, so that the reference's own error (a
    // few frames' median, counted in the standard error) is not tested again and again.
    reference_checked_ = true;
    const std::vector<std::vector<MarkerObservation>> first(agreeing_.begin(),
                                                            agreeing_.begin() + static_cast<std::ptrdiff_t>(recent));
    std::map<int, std::vector<geom::Vec2>> by_marker;
    for (const auto& frame_markers : first)
      for (const auto& m : frame_markers)
        if (auto d = displacement_vector(m)) by_marker[m.id].push_back(*d);
    const double k = static_cast<double>(reference_frames_);
    const double reference_share = k > 0 ? std::numbers::pi / (2 * k) : 0.0;
    int off_markers = 0;
    double shift = 0;
    for (const auto& [id, ds] : by_marker) {
      const std::optional<double> noise2 = frame_noise2(id);
      if (!noise2 || 2 * ds.size() < recent) continue;
      const double n = static_cast<double>(ds.size());
      geom::Vec2 mean{};
      for (const auto& d : ds) mean = mean + d / n;
      const double off = geom::length(mean);
      if (off >
          std::max(options_.min_drift_mm, options_.drift_sigmas * std::sqrt(*noise2 * (1 / n + reference_share)))) {
        ++off_markers;
        shift += off;
      }
    }
    if (off_markers >= options_.min_moved_markers) return refit_to(first, frame, shift / off_markers);
    return std::nullopt;
  }
  if (agreeing_.size() < 2 * recent) return std::nullopt;
  // The last drift_frames frames against those before them since the pose was set: both through
  // the same reference, so its own error (the few frames the pose came from) cancels, and only a
  // change of view shows.
  const std::vector<std::vector<MarkerObservation>> window(agreeing_.end() - static_cast<std::ptrdiff_t>(recent),
                                                           agreeing_.end());
  std::map<int, std::pair<std::vector<geom::Vec2>, std::vector<geom::Vec2>>> by_marker;  // before, recent
  for (std::size_t f = 0; f < agreeing_.size(); ++f)
    for (const auto& m : agreeing_[f])
      if (auto d = displacement_vector(m))
        (f + recent < agreeing_.size() ? by_marker[m.id].first : by_marker[m.id].second).push_back(*d);
  auto mean_of = [](const std::vector<geom::Vec2>& ds) {
    geom::Vec2 mean{};
    for (const auto& d : ds) mean = mean + d / static_cast<double>(ds.size());
    return mean;
  };
  int drifted = 0;
  double shift = 0;
  for (const auto& [id, parts] : by_marker) {
    const auto& [before, now] = parts;
    // A marker seen in fewer than half the frames (a hand over it) says too little.
    if (2 * now.size() < recent || 2 * before.size() < recent) continue;
    const std::optional<double> noise2 = frame_noise2(id);
    if (!noise2) continue;
    const double standard_error =
        std::sqrt(*noise2 * (1 / static_cast<double>(now.size()) + 1 / static_cast<double>(before.size())));
    const double off = geom::length(mean_of(now) - mean_of(before));
    if (off > std::max(options_.min_drift_mm, options_.drift_sigmas * standard_error)) {
      ++drifted;
      shift += off;
    }
  }
  if (drifted < options_.min_moved_markers) return std::nullopt;
  return refit_to(window, frame, shift / drifted);
}

std::optional<TableMonitorEvent> TableMonitor::refit_to(const std::vector<std::vector<MarkerObservation>>& frames,
                                                        long long frame, double shift_mm) {
  std::vector<MarkerObservation> combined = median_observations(frames);
  CameraPoseEstimate estimate = estimate_camera_pose(table_, combined, lens_, image_size_);
  if (!estimate.pose) return std::nullopt;
  TableMonitorEvent event;
  event.kind = TableMonitorEvent::Kind::drifted;
  event.frame = frame;
  event.shift_mm = shift_mm;
  const std::string what =
      fmt::format("camera drifted (markers off {:.2f} mm, beyond their noise), table pose re-fitted", event.shift_mm);
  event.message = describe(frame, what.c_str(), 0.0, &estimate);
  set_pose(std::move(*estimate.pose), combined, frames.size());
  // The frames the pose now comes from are the first to compare later ones with: if the drift
  // went on (or began within them), the next window differs from them, and the pose is fitted
  // again to it. They are its reference: no need to check it against them.
  agreeing_ = frames;
  reference_checked_ = true;
  events_.push_back(event);
  return event;
}

std::optional<TableMonitorEvent> TableMonitor::try_new_pose(long long frame, TableMonitorEvent::Kind kind,
                                                            double shift_mm) {
  std::vector<MarkerObservation> combined = median_observations(pending_);
  CameraPoseEstimate estimate = estimate_camera_pose(table_, combined, lens_, image_size_);
  bool consistent = estimate.pose.has_value();
  if (consistent)
    for (const auto& frame_markers : pending_)
      if (marker_fit_rms_px(*estimate.pose, table_, frame_markers) > options_.max_fit_px) consistent = false;
  if (!consistent) {
    // Still moving (or one bad frame): slide the window and wait for steadier frames.
    pending_.erase(pending_.begin());
    return std::nullopt;
  }
  TableMonitorEvent event;
  event.kind = kind;
  event.frame = frame;
  event.shift_mm = shift_mm;
  event.message = describe(
      frame,
      kind == TableMonitorEvent::Kind::acquired ? "table pose acquired" : "camera moved, table pose re-estimated",
      shift_mm, &estimate);
  set_pose(std::move(*estimate.pose), combined, pending_.size());
  events_.push_back(event);
  return event;
}

std::optional<TableMonitorEvent> TableMonitor::update(long long frame, const std::vector<MarkerObservation>& markers) {
  std::vector<MarkerObservation> seen = corner_markers_seen_once(markers);
  if (seen.size() < 2) return std::nullopt;  // neutral: too little to confirm or deny anything

  if (!pose_) {
    pending_.push_back(seen);
    if (static_cast<int>(pending_.size()) < options_.confirm_frames) return std::nullopt;
    return try_new_pose(frame, TableMonitorEvent::Kind::acquired, 0.0);
  }

  std::vector<Displacement> moved;
  for (const auto& d : displacements(seen))
    if (d.mm > options_.moved_mm) moved.push_back(d);
  double shift = 0;
  for (const auto& d : moved) shift += d.mm / static_cast<double>(moved.size());

  if (static_cast<int>(moved.size()) >= options_.min_moved_markers) {
    pending_.push_back(seen);
    if (static_cast<int>(pending_.size()) < options_.confirm_frames) return std::nullopt;
    return try_new_pose(frame, TableMonitorEvent::Kind::camera_moved, shift);
  }
  pending_.clear();  // the markers agree with the pose: whatever moved before was not the camera
  // A frame that agrees with the pose (one marker moved on its own at most) counts towards a drift
  // (and recent_drift_mm's few frames).
  agreeing_.push_back(seen);
  for (const auto& m : seen) {
    const std::optional<geom::Vec2> d = displacement_vector(m);
    if (!d) continue;
    MarkerNoise& noise = noise_[m.id];
    if (noise.last) {
      noise.differences2.push_back(geom::length_squared(*d - *noise.last));
      if (noise.differences2.size() > kNoiseDifferences) noise.differences2.erase(noise.differences2.begin());
    }
    noise.last = d;
  }
  if (agreeing_.size() > kAgreeingFrames) agreeing_.erase(agreeing_.begin());
  if (auto event = check_drift(frame)) return event;

  // A single marker moved on its own (knocked): say so once it has stayed moved for
  // confirm_frames frames, and again only after it was back in place.
  for (const auto& m : seen) {
    auto d = std::find_if(moved.begin(), moved.end(), [&](const Displacement& x) { return x.id == m.id; });
    int& streak = moved_marker_streak_[m.id];
    if (d == moved.end()) {
      streak = 0;
      continue;
    }
    if (++streak != options_.confirm_frames) continue;
    TableMonitorEvent event;
    event.kind = TableMonitorEvent::Kind::marker_moved;
    event.frame = frame;
    event.shift_mm = d->mm;
    event.message = describe(
        frame,
        ("corner marker " + std::to_string(m.id) + " moved on its own; ignored (the other markers agree with the pose)")
            .c_str(),
        d->mm, nullptr);
    events_.push_back(event);
    return event;
  }
  return std::nullopt;
}

}  // namespace diskref::calib
