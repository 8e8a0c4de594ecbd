#include "setup/table_check.h"

#include <algorithm>
#include <cmath>
#include <map>
#include <numbers>

#include <fmt/format.h>

#include "calibration/camera_plan_view.h"

namespace diskref::setup {
namespace {

cv::Point2d centre(const calib::MarkerObservation& m) {
  cv::Point2d c(0, 0);
  for (const cv::Point2d& p : m.corners_px) c += p * 0.25;
  return c;
}

std::string ids_text(const std::vector<int>& ids) {
  std::string out;
  for (std::size_t i = 0; i < ids.size(); ++i)
    out += (i == 0 ? "" : i + 1 == ids.size() ? " and " : ", ") + std::to_string(ids[i]);
  return out;
}

// Where a corner of the play area is, in words, for a marker id (spec §1: 0 at the origin, 1 along
// +x, 3 along +y; the near edge is the one from 0 to 1).
const char* corner_words(int id) {
  static const char* const kWords[] = {"near left", "near right", "far right", "far left"};
  return kWords[std::clamp(id, 0, 3)];
}

constexpr double kTurnedDeg = 30;
// A camera more tilted than this sees the far side coarser and at a slant: said, not refused.
constexpr double kTiltNoteDeg = 30;

}  // namespace

std::vector<Advice> marker_layout_problems(const std::vector<calib::MarkerObservation>& markers) {
  std::vector<Advice> out;
  if (markers.size() < 2) return out;
  // Seen from above, the markers go round counter-clockwise 0, 1, 2, 3. The image is the view from
  // above (a camera looking down does not mirror it), drawn with y down: going round them in
  // decreasing image angle about their middle must meet the ids in increasing cyclic order.
  if (markers.size() >= 3) {
    cv::Point2d mid(0, 0);
    for (const auto& m : markers) mid += centre(m) / static_cast<double>(markers.size());
    std::vector<std::pair<double, int>> around;
    for (const auto& m : markers) {
      const cv::Point2d d = centre(m) - mid;
      around.emplace_back(-std::atan2(d.y, d.x), m.id);
    }
    std::sort(around.begin(), around.end());
    std::vector<int> seen;
    for (const auto& a : around) seen.push_back(a.second);
    std::rotate(seen.begin(), std::min_element(seen.begin(), seen.end()), seen.end());
    std::vector<int> expected = seen;
    std::sort(expected.begin(), expected.end());
    if (seen != expected) {
      std::string order;
      for (int id : seen) order += (order.empty() ? "" : ", ") + std::to_string(id);
      // The swaps of two markers that put them in order (a layout going round the wrong way has
      // two: either diagonal pair; which one was swapped only the table shows).
      std::vector<std::string> swaps;
      for (std::size_t i = 0; i < seen.size(); ++i)
        for (std::size_t j = i + 1; j < seen.size(); ++j) {
          std::vector<int> trial = seen;
          std::swap(trial[i], trial[j]);
          std::rotate(trial.begin(), std::min_element(trial.begin(), trial.end()), trial.end());
          if (trial == expected) {
            const int a = std::min(seen[i], seen[j]), b = std::max(seen[i], seen[j]);
            swaps.push_back(
                fmt::format("markers {} and {} (marker {} belongs at the {} corner, marker {} at the {} corner)", a, b,
                            a, corner_words(a), b, corner_words(b)));
          }
        }
      std::sort(swaps.begin(), swaps.end(), [](const std::string& x, const std::string& y) { return x > y; });
      std::string fix;
      if (swaps.size() == 1)
        fix = "swap " + swaps[0];
      else if (swaps.size() > 1)
        fix = "swap " + swaps[0] + ", or " + swaps[1] + ": whichever pair is not where the kit's first page shows";
      if (fix.empty())
        fix =
            "put marker 0 at the near left corner, then 1, 2 and 3 going round counter-clockwise seen from above "
            "(the kit's first page shows where)";
      out.push_back(
          problem("the corner markers are in the wrong corners: going round the table counter-clockwise (seen "
                  "from above) they read " +
                      order + ", not in order",
                  fix));
      return out;  // a turned marker cannot be told while the reference is wrong
    }
  }
  // Each marker's +x (its card's text direction) must run along the table's +x: from marker 0 to 1
  // and from 3 to 2; from 0 to 3 (and 1 to 2) is +y, a quarter turn on.
  std::map<int, cv::Point2d> at;
  for (const auto& m : markers) at[m.id] = centre(m);
  cv::Point2d reference(0, 0);
  auto add = [&](int a, int b, bool is_y) {
    if (!at.count(a) || !at.count(b)) return;
    cv::Point2d d = at[b] - at[a];
    d /= std::max(1e-9, cv::norm(d));
    // Image y is down: the image of table +x is the image of table +y turned by +90 degrees (x, y) -> (-y, x).
    reference += is_y ? cv::Point2d(-d.y, d.x) : d;
  };
  add(0, 1, false), add(3, 2, false), add(0, 3, true), add(1, 2, true);
  if (cv::norm(reference) < 1e-6) return out;
  reference /= cv::norm(reference);
  for (const auto& m : markers) {
    cv::Point2d axis = m.corners_px[1] - m.corners_px[0];
    const double angle =
        std::atan2(reference.x * axis.y - reference.y * axis.x, reference.dot(axis)) * 180 / std::numbers::pi;
    if (std::fabs(angle) < kTurnedDeg) continue;
    const int quarter = static_cast<int>(std::lround(angle / 90));
    const std::string by = std::abs(quarter) == 2 ? "half a turn" : "a quarter turn";
    // Positive image angles (y down) turn clockwise as seen from above.
    out.push_back(
        problem(fmt::format("corner marker {} is turned {} {} on the table", m.id, by,
                            std::abs(quarter) == 2 ? ""
                            : quarter > 0          ? "clockwise"
                                                   : "counter-clockwise"),
                fmt::format("turn marker {} {}so that its card's text reads upright from the near edge, like the "
                            "other markers (its right edge towards marker {})",
                            m.id,
                            std::abs(quarter) == 2 ? "round "
                            : quarter > 0          ? "back counter-clockwise "
                                                   : "back clockwise ",
                            m.id == 0 || m.id == 3 ? (m.id == 0 ? 1 : 2) : m.id)));
  }
  return out;
}

TableCheck::TableCheck(model::TableSpec table, std::optional<calib::CameraModel> lens,
                       const model::DiskRegistry* registry)
    : table_(std::move(table)), lens_(std::move(lens)), registry_(registry), detector_([] {
        vision::DetectorOptions o;
        o.quad_decimate = 1.0;  // full resolution: the markers must be found even when small
        return o;
      }()) {}

void TableCheck::add_frame(const cv::Mat& gray) {
  image_size_ = gray.size();
  std::vector<calib::MarkerObservation> all;
  for (const auto& tag : detector_.detect(gray))
    if (model::is_corner_marker(tag.id)) all.push_back({tag.id, tag.corners});
  last_ = calib::corner_markers_seen_once(all);
  frames_.push_back(last_);
  if (frames_.size() > kTableFrames) frames_.pop_front();
  advice_.clear();
  pose_.reset();
  ready_ = false;

  std::vector<int> found, missing;
  for (int id = 0; id < model::kCornerMarkerCount; ++id) {
    const bool seen = std::any_of(last_.begin(), last_.end(), [&](const auto& m) { return m.id == id; });
    (seen ? found : missing).push_back(id);
  }
  if (!found.empty()) advice_.push_back(ok("corner markers found: " + ids_text(found)));

  std::vector<Advice> layout = marker_layout_problems(last_);
  if (!layout.empty()) {
    // The pictures so far are of the wrong layout: they do not count once it is put right.
    frames_.clear();
    advice_.insert(advice_.end(), layout.begin(), layout.end());
    return;
  }
  if (lens_ && lens_->image_size != image_size_) {
    if (auto problem_text = calib::camera_fits_image_problem(*lens_, image_size_); !problem_text.empty()) {
      advice_.push_back(problem("the calibration is for another camera mode: " + problem_text,
                                "calibrate again with the camera at the resolution it films the table at"));
      return;
    }
  }

  std::vector<std::vector<calib::MarkerObservation>> history(frames_.begin(), frames_.end());
  calib::CameraPoseEstimate estimate =
      calib::estimate_camera_pose(table_, calib::median_observations(history), lens_, image_size_);
  if (!estimate.pose) {
    advice_.push_back(problem("no table position yet: " + estimate.problem,
                              found.size() < 2
                                  ? "put all four corner markers in the picture: flat, uncovered and evenly lit "
                                    "(the kit's first page shows where they go)"
                                  : "check that the markers lie at the corners the kit's first page shows"));
    return;
  }
  pose_ = estimate.pose;
  const calib::CameraPose& pose = *pose_;

  // Markers not read: out of the picture, or in it and not read.
  for (int id : missing) {
    const model::CornerMarker& m = table_.corner_markers[static_cast<std::size_t>(id)];
    const double h = 0.9 * m.size_mm;
    bool inside = true;
    for (geom::Vec2 c : {m.center_mm + geom::Vec2{-h, -h}, m.center_mm + geom::Vec2{h, h},
                         m.center_mm + geom::Vec2{-h, h}, m.center_mm + geom::Vec2{h, -h}}) {
      const cv::Point2d p = calib::image_from_table(pose, {c.x, c.y, 0});
      inside = inside && p.x >= 0 && p.y >= 0 && p.x < image_size_.width && p.y < image_size_.height;
    }
    const cv::Point2d p = calib::image_from_table(pose, {m.center_mm.x, m.center_mm.y, 0});
    if (!inside)
      advice_.push_back(
          problem(fmt::format("corner marker {} ({} corner) is outside the picture", id, corner_words(id)),
                  "move or raise the camera until the whole play area and all four markers are in the "
                  "picture (or move the marker in: the table file puts its centre at " +
                      fmt::format("({:g}, {:g}) mm)", m.center_mm.x, m.center_mm.y)));
    else
      advice_.push_back(
          problem(fmt::format("corner marker {} ({} corner) is in the picture (near pixel {:.0f}, {:.0f}) but not read",
                              id, corner_words(id), p.x, p.y),
                  "uncover it, lay it flat and light it evenly (no glare); check that it is marker " +
                      std::to_string(id) + " of this kit"));
  }
  // A marker that disagrees with the others is out of place.
  for (int id : pose.markers_missing) {
    if (std::find(missing.begin(), missing.end(), id) != missing.end()) continue;
    const model::CornerMarker& m = table_.corner_markers[static_cast<std::size_t>(id)];
    double off = 0;
    for (const auto& r : pose.marker_residuals)
      if (r.id == id) off = r.rms_mm;
    advice_.push_back(
        problem(fmt::format("corner marker {} is not where the table file puts it (about {:.0f} mm off); it "
                            "is left out",
                            id, off),
                fmt::format("put it back at the {} corner, its centre at ({:g}, {:g}) mm in the table's "
                            "frame (the kit's first page shows where); tape it down",
                            corner_words(id), m.center_mm.x, m.center_mm.y)));
  }
  // Distances between marker centres against the table file.
  double worst = 0;
  bool distances_ok = true;
  for (const calib::MarkerDistanceCheck& d : pose.distance_checks) {
    const double diff = d.measured_mm - d.expected_mm;
    worst = std::max(worst, std::fabs(diff));
    if (std::fabs(diff) <= kMarkerDistanceToleranceMm) continue;
    distances_ok = false;
    advice_.push_back(
        problem(fmt::format("markers {} and {} are {:.1f} mm apart, the table file says {:.1f} mm ({:+.1f} mm)", d.id_a,
                            d.id_b, d.measured_mm, d.expected_mm, diff),
                fmt::format("the play area is {:g} x {:g} mm: lay the markers at its corners as the kit's "
                            "first page shows; if your play area has another size, set it in the first "
                            "step and print the markers again",
                            table_.play_area_mm.x, table_.play_area_mm.y)));
  }
  if (distances_ok && !pose.distance_checks.empty())
    advice_.push_back(ok(fmt::format("distances between the markers agree with the table file to {:.1f} mm", worst)));
  const bool fit_ok = pose.reprojection_rms_px <= 2.0;
  if (fit_ok)
    advice_.push_back(ok(fmt::format("table found: fit {:.2f} px, {:.2f} mm over markers {}", pose.reprojection_rms_px,
                                     pose.reprojection_rms_mm, ids_text(pose.markers_used))));
  else
    advice_.push_back(
        problem(fmt::format("the table's fit is poor: {:.1f} px", pose.reprojection_rms_px),
                "check that the markers lie flat and that the camera does not move; calibrate the lens if "
                "it is not calibrated"));
  const cv::Vec3d c = pose.camera_center_table();
  const double tilt = std::acos(std::clamp(-pose.rotation(2, 2), -1.0, 1.0)) * 180 / std::numbers::pi;
  advice_.push_back(ok(fmt::format("camera {:.0f} mm above the table, {:.0f} degrees from straight down", c[2], tilt)));
  if (tilt > kTiltNoteDeg)
    advice_.push_back(note("the camera looks at the table at a slant",
                           "a camera straight above the middle sees the far side as sharply as the near one"));
  if (!pose.lens_calibrated)
    advice_.push_back(
        note("no lens calibration: the lens is taken for a plain pinhole", "calibrate the lens first (previous step)"));

  ready_ = pose.markers_used.size() >= 3 && distances_ok && fit_ok && missing.size() <= 1 && !has_problem(advice_);
  // What this camera, where it is, reads of the kit (the disks step says it again, disk by disk).
  const model::CameraPlan plan = model::plan_camera(calib::camera_view(pose), table_, registry_);
  for (const model::PlanProblem& p : model::plan_problems(plan, table_, registry_, std::nullopt))
    advice_.push_back(problem(p.problem, p.fix));
  if (registry_ != nullptr && plan.unreadable().empty())
    advice_.push_back(
        ok(fmt::format("every tag of the kit reads from here ({:.2f} mm per pixel at worst)", plan.mm_per_px_worst)));
}

}  // namespace diskref::setup
