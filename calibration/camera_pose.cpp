#include "calibration/camera_pose.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <sstream>

#include <fmt/format.h>
#include <opencv2/calib3d.hpp>

#include "calibration/pinhole_from_plane.h"

namespace diskref::calib {
namespace {

// A fit worse than this (RMS over the marker corners) means a marker disagrees with the others:
// corners are found to about 0.1 px, so a few pixels is a moved marker or a wrong table file.
constexpr double kDisagreementPx = 1.5;

std::string join_ids(const std::vector<int>& ids) {
  std::ostringstream out;
  for (std::size_t i = 0; i < ids.size(); ++i) out << (i ? ", " : "") << ids[i];
  return out.str();
}

// The corner markers seen once each, by id; the ones seen twice are named in the notes.
std::map<int, MarkerObservation> usable_markers(const std::vector<MarkerObservation>& markers,
                                                std::vector<std::string>& notes) {
  std::vector<int> twice;
  std::map<int, MarkerObservation> out;
  for (const auto& m : corner_markers_seen_once(markers, &twice)) out[m.id] = m;
  for (int id : twice)
    notes.push_back("corner marker " + std::to_string(id) +
                    " seen more than once in one image; ignored (a false detection or a second copy of the tag?)");
  return out;
}

struct Correspondences {
  std::vector<cv::Point3d> table_mm;
  std::vector<cv::Point2d> image_px;
};

Correspondences correspondences(const model::TableSpec& table, const std::map<int, MarkerObservation>& markers,
                                int leave_out = -1) {
  Correspondences c;
  for (const auto& [id, observation] : markers) {
    if (id == leave_out) continue;
    auto corners = table.corner_markers[static_cast<std::size_t>(id)].corners_mm();
    for (std::size_t k = 0; k < 4; ++k) {
      c.table_mm.emplace_back(corners[k].x, corners[k].y, 0.0);
      c.image_px.push_back(observation.corners_px[k]);
    }
  }
  return c;
}

cv::Matx33d rotation_from(const cv::Vec3d& rvec) {
  cv::Matx33d r;
  cv::Rodrigues(rvec, r);
  return r;
}

// The camera model and camera_from_table fitted to the correspondences; nullopt when the markers
// put the camera under the table (a mirrored table file) or no pose fits.
std::optional<CameraPose> fit_pose(const Correspondences& c, const std::optional<CameraModel>& lens,
                                   cv::Size image_size) {
  CameraPose pose;
  cv::Vec3d rvec, tvec;
  if (lens) {
    pose.camera = *lens;
    pose.lens_calibrated = true;
    cv::Mat k(lens->camera_matrix), dist = lens->dist_mat();
    cv::Mat r, t;
    if (!cv::solvePnP(c.table_mm, c.image_px, k, dist, r, t, false, cv::SOLVEPNP_IPPE)) return std::nullopt;
    cv::solvePnPRefineLM(c.table_mm, c.image_px, k, dist, r, t);
    rvec = cv::Vec3d(r.reshape(1, 3));
    tvec = cv::Vec3d(t.reshape(1, 3));
  } else {
    auto fit = fit_pinhole_to_plane(c.table_mm, c.image_px, image_size);
    if (!fit) return std::nullopt;
    pose.camera.image_size = image_size;
    pose.camera.camera_matrix = fit->camera_matrix;
    pose.lens_calibrated = false;
    rvec = fit->rvec;
    tvec = fit->tvec;
  }
  pose.rotation = rotation_from(rvec);
  pose.translation = tvec;
  if (!(pose.camera_center_table()[2] > 0)) return std::nullopt;
  return pose;
}

double reprojection_rms_px(const CameraPose& pose, const Correspondences& c) {
  auto projected = image_from_table(pose, c.table_mm);
  double sum = 0;
  for (std::size_t i = 0; i < projected.size(); ++i) {
    cv::Point2d d = projected[i] - c.image_px[i];
    sum += d.dot(d);
  }
  return std::sqrt(sum / static_cast<double>(projected.size()));
}

// Fills the quality members. The fit's errors are over the markers the pose was fitted to
// (`used`); the residuals and the distance checks cover every marker seen (`seen`), a marker left
// out for disagreeing included, so that the checks show what is wrong.
void measure_quality(CameraPose& pose, const model::TableSpec& table, const std::map<int, MarkerObservation>& used,
                     const std::map<int, MarkerObservation>& seen) {
  pose.reprojection_rms_px = reprojection_rms_px(pose, correspondences(table, used));
  Correspondences c = correspondences(table, seen);
  auto mapped = table_from_image(pose, c.image_px, 0.0);
  auto reprojected = image_from_table(pose, c.table_mm);
  double used_sum = 0;
  std::map<int, geom::Vec2> centres;
  pose.marker_residuals.clear();
  std::size_t i = 0;
  for (const auto& [id, observation] : seen) {
    double marker_sum = 0, marker_sum_px = 0;
    geom::Vec2 centre{0, 0};
    cv::Point2d seen_at(0, 0);
    for (int k = 0; k < 4; ++k, ++i) {
      const cv::Point2d off = reprojected[i] - c.image_px[i];
      marker_sum_px += off.dot(off);
      seen_at += c.image_px[i] / 4.0;
      geom::Vec2 expected{c.table_mm[i].x, c.table_mm[i].y};
      // A corner whose ray misses the table (behind the camera) counts as far off.
      geom::Vec2 on_table = mapped[i].value_or(geom::Vec2{1e9, 1e9});
      marker_sum += geom::length_squared(on_table - expected);
      centre = centre + on_table / 4.0;
    }
    if (used.count(id)) used_sum += marker_sum;
    centres[id] = centre;
    pose.marker_residuals.push_back({id, std::sqrt(marker_sum / 4), std::sqrt(marker_sum_px / 4), seen_at});
  }
  pose.reprojection_rms_mm = std::sqrt(used_sum / (4.0 * static_cast<double>(used.size())));
  pose.distance_checks.clear();
  for (auto a = centres.begin(); a != centres.end(); ++a)
    for (auto b = std::next(a); b != centres.end(); ++b) {
      geom::Vec2 expected = table.corner_markers[static_cast<std::size_t>(a->first)].center_mm -
                            table.corner_markers[static_cast<std::size_t>(b->first)].center_mm;
      pose.distance_checks.push_back(
          {a->first, b->first, geom::length(expected), geom::distance(a->second, b->second)});
    }
}

}  // namespace

cv::Vec3d CameraPose::camera_center_table() const {
  return -(rotation.t() * translation);
}

cv::Point2d image_from_table(const CameraPose& pose, const cv::Point3d& table_mm) {
  return image_from_table(pose, std::vector<cv::Point3d>{table_mm}).front();
}

std::vector<cv::Point2d> image_from_table(const CameraPose& pose, const std::vector<cv::Point3d>& table_mm) {
  if (table_mm.empty()) return {};
  cv::Vec3d rvec;
  cv::Rodrigues(pose.rotation, rvec);
  std::vector<cv::Point2d> out;
  cv::projectPoints(table_mm, rvec, pose.translation, cv::Mat(pose.camera.camera_matrix), pose.camera.dist_mat(), out);
  return out;
}

std::optional<geom::Vec2> table_from_image(const CameraPose& pose, const cv::Point2d& pixel, double height_mm) {
  return table_from_image(pose, std::vector<cv::Point2d>{pixel}, height_mm).front();
}

std::vector<std::optional<geom::Vec2>> table_from_image(const CameraPose& pose, const std::vector<cv::Point2d>& pixels,
                                                        double height_mm) {
  std::vector<std::optional<geom::Vec2>> out;
  if (pixels.empty()) return out;
  std::vector<cv::Point2d> normalized;
  // Undistortion is iterative; OpenCV's default of 5 iterations leaves up to ~0.1 px at the
  // image corners of a strongly distorted lens, so iterate to convergence.
  cv::undistortPoints(pixels, normalized, cv::Mat(pose.camera.camera_matrix), pose.camera.dist_mat(), cv::noArray(),
                      cv::noArray(), cv::TermCriteria(cv::TermCriteria::COUNT + cv::TermCriteria::EPS, 50, 1e-12));
  cv::Matx33d table_from_camera = pose.rotation.t();
  cv::Vec3d centre = pose.camera_center_table();
  out.reserve(pixels.size());
  for (const auto& n : normalized) {
    cv::Vec3d ray = table_from_camera * cv::Vec3d(n.x, n.y, 1.0);
    double s = (height_mm - centre[2]) / ray[2];
    if (!(s > 0) || !std::isfinite(s)) {
      out.emplace_back(std::nullopt);
      continue;
    }
    out.emplace_back(geom::Vec2{centre[0] + s * ray[0], centre[1] + s * ray[1]});
  }
  return out;
}

CameraPoseEstimate estimate_camera_pose(const model::TableSpec& table, const std::vector<MarkerObservation>& markers,
                                        const std::optional<CameraModel>& lens_in, cv::Size image_size) {
  CameraPoseEstimate result;
  std::optional<CameraModel> lens = lens_in;
  if (lens && lens->image_size != image_size) {
    double aspect_lens = static_cast<double>(lens->image_size.width) / lens->image_size.height;
    double aspect_image = static_cast<double>(image_size.width) / image_size.height;
    if (std::abs(aspect_lens / aspect_image - 1) > 0.01) {
      result.problem = "the lens was calibrated on " + std::to_string(lens->image_size.width) + "x" +
                       std::to_string(lens->image_size.height) + " images but these are " +
                       std::to_string(image_size.width) + "x" + std::to_string(image_size.height) +
                       " (another aspect ratio: calibrate at this resolution)";
      return result;
    }
    lens = scaled(*lens, image_size);
    result.notes.push_back("lens calibrated at " + std::to_string(lens_in->image_size.width) + "x" +
                           std::to_string(lens_in->image_size.height) + ", scaled to " +
                           std::to_string(image_size.width) + "x" + std::to_string(image_size.height));
  }

  const std::map<int, MarkerObservation> seen = usable_markers(markers, result.notes);
  std::map<int, MarkerObservation> used = seen;
  if (used.size() < 2) {
    result.problem = "only " + std::to_string(used.size()) + " corner marker" + (used.size() == 1 ? "" : "s") +
                     " visible (need 2; 3 or 4 for a pose that checks itself)";
    return result;
  }
  std::vector<int> hidden;
  for (int id = 0; id < model::kCornerMarkerCount; ++id)
    if (!used.count(id)) hidden.push_back(id);
  auto pose = fit_pose(correspondences(table, used), lens, image_size);
  if (!pose) {
    result.problem =
        "no camera pose above the table fits the corner markers (is the table file's marker layout "
        "mirrored or are the marker ids in the wrong corners?)";
    return result;
  }

  // One marker disagreeing with the others (moved, or a wrong position in the table file): fit
  // without it, and keep that fit when it explains the rest much better.
  double rms = reprojection_rms_px(*pose, correspondences(table, used));
  if (rms > kDisagreementPx && used.size() >= 3) {
    int best_left_out = -1;
    double best_rms = rms;
    std::optional<CameraPose> best_pose;
    for (const auto& [id, observation] : used) {
      auto reduced = correspondences(table, used, id);
      auto candidate = fit_pose(reduced, lens, image_size);
      if (!candidate) continue;
      double candidate_rms = reprojection_rms_px(*candidate, reduced);
      if (candidate_rms < best_rms) {
        best_rms = candidate_rms;
        best_left_out = id;
        best_pose = candidate;
      }
    }
    if (best_pose && best_rms < kDisagreementPx && best_rms < rms / 3) {
      used.erase(best_left_out);
      pose = best_pose;
      result.notes.push_back(
          fmt::format("corner marker {} disagrees with the others (fit {:.1f} px with it, {:.1f} px "
                      "without; was it moved?); not used",
                      best_left_out, rms, best_rms));
    }
  }

  for (const auto& [id, observation] : used) pose->markers_used.push_back(id);
  for (int id = 0; id < model::kCornerMarkerCount; ++id)
    if (!used.count(id)) pose->markers_missing.push_back(id);
  measure_quality(*pose, table, used, seen);
  if (!hidden.empty())
    result.notes.push_back("corner marker" + std::string(hidden.size() > 1 ? "s " : " ") + join_ids(hidden) +
                           " hidden; pose from markers " + join_ids(pose->markers_used));
  if (!pose->lens_calibrated)
    result.notes.push_back(fmt::format(
        "no lens calibration: pinhole without distortion, focal length {:.1f} px estimated from the markers",
        pose->camera.fx()));
  // Three small squares fix a pinhole only up to its focal length (their own foreshortening is all
  // that is left to tell it): measured on rendered tables, the far corner is then off by 1.5-2 mm.
  if (!pose->lens_calibrated && pose->markers_used.size() < 4)
    result.notes.push_back("without a lens calibration and with only " + std::to_string(pose->markers_used.size()) +
                           " corner markers the focal length is uncertain: far from the markers expect errors of a "
                           "few mm (calibrate the lens, or uncover the markers)");
  result.pose = std::move(pose);
  return result;
}

double marker_fit_rms_px(const CameraPose& pose, const model::TableSpec& table,
                         const std::vector<MarkerObservation>& markers) {
  std::map<int, MarkerObservation> by_id;
  for (const auto& m : corner_markers_seen_once(markers)) by_id[m.id] = m;
  if (by_id.empty()) return 0;
  return reprojection_rms_px(pose, correspondences(table, by_id));
}

std::vector<MarkerObservation> corner_markers_seen_once(const std::vector<MarkerObservation>& markers,
                                                        std::vector<int>* seen_twice) {
  std::map<int, int> count;
  for (const auto& m : markers)
    if (model::is_corner_marker(m.id)) ++count[m.id];
  std::vector<MarkerObservation> out;
  for (const auto& m : markers)
    if (model::is_corner_marker(m.id) && count[m.id] == 1) out.push_back(m);
  if (seen_twice)
    for (const auto& [id, n] : count)
      if (n > 1) seen_twice->push_back(id);
  return out;
}

std::vector<MarkerObservation> median_observations(const std::vector<std::vector<MarkerObservation>>& frames) {
  std::map<int, std::vector<MarkerObservation>> by_id;
  for (const auto& frame : frames)
    for (const auto& m : corner_markers_seen_once(frame)) by_id[m.id].push_back(m);
  std::size_t most = 0;
  for (const auto& [id, seen] : by_id) most = std::max(most, seen.size());
  std::vector<MarkerObservation> out;
  for (const auto& [id, seen] : by_id) {
    if (2 * seen.size() < most) continue;
    MarkerObservation combined;
    combined.id = id;
    for (std::size_t k = 0; k < 4; ++k) {
      std::vector<double> xs, ys;
      for (const auto& m : seen) {
        xs.push_back(m.corners_px[k].x);
        ys.push_back(m.corners_px[k].y);
      }
      auto middle = [](std::vector<double>& v) {
        std::sort(v.begin(), v.end());
        std::size_t n = v.size();
        return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
      };
      combined.corners_px[k] = {middle(xs), middle(ys)};
    }
    out.push_back(combined);
  }
  return out;
}

}  // namespace diskref::calib
