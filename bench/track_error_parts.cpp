// track_error_parts: where a still disk's position error comes from, on a rendered session whose
// exact truth is known (README "`diskref track`", sigma). For every disk lying still, per rest
// (a disk on one face in one place), the tracker's error against the truth is split into
//   detector  the tag's detected corners against the exact projection of its true 3-D corners
//             (truth.h), both mapped onto the table through the tracker's own table pose (also in
//             image pixels);
//   pose      the exact corners mapped through the tracker's pose against the true place: what
//             the table pose (and the height assumed for the tag) adds;
// and shown with the sigma_mm the tracker reports for it, the table pose's share and lift per mm
// there (pose_uncertainty.h), and what decides the detector's bias for a still tag: the tag's
// angle to the pixel grid and its side in pixels (tag_measurement.h). This is how the detector's
// still-bias figures in TagMeasurementOptions were measured.
//
//   build/bench/track_error_parts SCENARIO.json [--video VIDEO] [--no-lens] [--frames N]
//
// Without --video the frames are rendered in this process (no video compression); with it they
// are read from VIDEO (the same scenario rendered by `diskref render`, e.g. a sample's or a
// bench render's scenario.json), to see what H.264 adds. --no-lens: the tracker is not given the
// lens (as for the bench's renders without a lens model).

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>

#include "simulator/lens_rays.h"
#include "simulator/session.h"
#include "vision/frame_source.h"
#include "vision/pose_uncertainty.h"
#include "vision/tag_square_fit.h"
#include "vision/tracker.h"

namespace {

using namespace diskref;

struct Sum {
  long long n = 0;
  double tx = 0, ty = 0, dx = 0, dy = 0, px = 0, py = 0, pix_x = 0, pix_y = 0, sigma = 0, out_x = 0, out_y = 0;
  double txx = 0, tyy = 0;
  double pose_sigma = 0, lift_sigma = 0;
  double image_angle_deg = 0;
  double side_px = 0;  // the tag's mean side in the image (last frame)  // the tag's bottom edge in the image, modulo 90 degrees (last frame)  // the tracker's pose share and lift share at the rest (last frame)
  std::array<geom::Vec2, 4> corners_mm{};  // sum over frames of the detected corners on the table
  double size_mm = 0;
};

cv::Point2d project(const simulator::CameraRig& rig, const cv::Point3d& p) {
  const cv::Vec3d c = rig.rotation * cv::Vec3d(p.x, p.y, p.z) + rig.translation;
  return simulator::pixel_from_ray(rig.camera, {c[0] / c[2], c[1] / c[2]});
}

// RMS per coordinate of the rest's mean corners (about the true centre) against the best square of
// free size: what a steady detector error leaves in the tag's shape.
double shape_rms(const Sum& s) {
  std::array<geom::Vec2, 4> mean;
  for (std::size_t k = 0; k < 4; ++k) mean[k] = s.corners_mm[k] / static_cast<double>(s.n);
  const vision::TagSquareFit fit = vision::fit_tag_square(mean, s.size_mm);
  double sum = 0;
  for (const auto& r : fit.shape_residuals_mm) sum += r.x * r.x + r.y * r.y;
  return std::sqrt(sum / 8);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: track_error_parts SCENARIO.json [--video VIDEO] [--no-lens] [--frames N]\n");
    return 2;
  }
  std::filesystem::path video;
  bool lens_known = true;
  int max_frames = -1;
  for (int i = 2; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--video" && i + 1 < argc) video = argv[++i];
    else if (a == "--no-lens") lens_known = false;
    else if (a == "--frames" && i + 1 < argc) max_frames = std::stoi(argv[++i]);
  }
  const simulator::Scenario scenario = simulator::load_scenario(argv[1]);
  simulator::SessionRenderer session(scenario);
  const simulator::CameraRig& rig = scenario.rig;
  simulator::GroundTruth truth(session.model(), rig);
  std::optional<calib::CameraModel> lens;
  if (lens_known) lens = rig.camera;
  vision::Tracker tracker(scenario.table, scenario.registry, lens);
  std::unique_ptr<vision::FrameSource> source;
  if (!video.empty()) source = vision::open_video_file(video);

  // (disk, face, rounded true place) -> sums
  std::map<std::string, Sum> rests;
  std::vector<std::vector<calib::MarkerObservation>> marker_history;
  std::shared_ptr<const calib::CameraPose> uncertainty_pose;
  std::optional<vision::PoseUncertainty> uncertainty;
  const int frames = max_frames > 0 ? std::min(max_frames, session.frame_count()) : session.frame_count();
  for (int f = 0; f < frames; ++f) {
    cv::Mat image;
    if (source) {
      auto frame = source->next();
      if (!frame) break;
      image = frame->image;
    } else {
      image = session.frame(f).clone();
    }
    vision::TrackerResult r = tracker.process(image, f, session.frame_time(f));
    std::vector<calib::MarkerObservation> markers;
    for (const vision::DetectionRecord& record : r.detections)
      if (record.corner_marker) markers.push_back({record.tag.id, record.tag.corners});
    if (markers.size() >= 2 && marker_history.size() < 15) marker_history.push_back(markers);
    if (!r.table_pose) continue;
    if (r.table_pose != uncertainty_pose) {
      // As the tracker does (tracker.cpp, use_pose): the pose's uncertainty from the markers' median.
      uncertainty_pose = r.table_pose;
      uncertainty.emplace(scenario.table, *r.table_pose, calib::median_observations(marker_history), lens, image.size());
    }
    const simulator::SceneInstant instant = session.timeline().at(session.frame_time(f));
    for (const vision::DetectionRecord& record : r.detections) {
      if (record.corner_marker || record.rejected || !record.disk_index) continue;
      const simulator::DiskInstant* d = nullptr;
      for (const auto& di : instant.disks)
        if (di.disk == *record.disk_index) d = &di;
      if (!d || d->moving || !d->resting) continue;
      const auto corners3 = truth.tag_corners(*d);
      if (corners3.size() != 4) continue;
      const model::DiskSpec& spec = scenario.registry.disks()[d->disk];
      const auto ref = scenario.registry.find_tag(record.tag.id);
      if (!ref || scenario.registry.tag(*ref).face != d->top_face) continue;
      // Mapped at the true height for a template (whatever it lies on), so that the pose part is
      // the pose's alone; disks lie at their thickness, as the tracker assumes.
      const double height = corners3[0].z;
      std::vector<cv::Point2d> detected(record.tag.corners.begin(), record.tag.corners.end()), exact;
      for (const auto& c : corners3) exact.push_back(project(rig, c));
      const double tracker_height = spec.kind == model::DiskKind::template_ ? height : spec.thickness_mm;
      auto det_mm = calib::table_from_image(*r.table_pose, detected, tracker_height);
      auto exact_mm = calib::table_from_image(*r.table_pose, exact, tracker_height);
      geom::Vec2 det_c{}, exact_c{};
      cv::Point2d det_px(0, 0), exact_px(0, 0);
      bool ok = true;
      for (std::size_t k = 0; k < 4; ++k) {
        if (!det_mm[k] || !exact_mm[k]) ok = false;
        else {
          det_c = det_c + *det_mm[k] / 4.0;
          exact_c = exact_c + *exact_mm[k] / 4.0;
        }
        det_px += detected[k] * 0.25;
        exact_px += exact[k] * 0.25;
      }
      if (!ok) continue;
      geom::Vec2 true_c{};
      for (const auto& c : corners3) true_c = true_c + geom::Vec2{c.x, c.y} / 4.0;
      const geom::Vec2 measured = record.table_from_disk->position;
      char key[128];
      std::snprintf(key, sizeof key, "%-10s %-4s (%4.0f,%4.0f)", spec.name.c_str(), std::string(model::to_string(d->top_face)).c_str(),
                    true_c.x, true_c.y);
      Sum& s = rests[key];
      ++s.n;
      for (std::size_t k = 0; k < 4; ++k) s.corners_mm[k] = s.corners_mm[k] + (*det_mm[k] - true_c);
      s.size_mm = scenario.registry.tag(*ref).size_mm;
      s.pose_sigma = uncertainty->sigma_mm(true_c, tracker_height);
      const cv::Point2d edge = detected[1] - detected[0];
      s.side_px = 0;
      for (std::size_t k = 0; k < 4; ++k) s.side_px += cv::norm(detected[(k + 1) % 4] - detected[k]) / 4;
      s.image_angle_deg = std::fmod(std::atan2(edge.y, edge.x) * 180 / M_PI + 360, 90.0);
      s.lift_sigma = uncertainty->lift_per_mm(true_c, tracker_height);
      s.tx += measured.x - true_c.x;
      s.ty += measured.y - true_c.y;
      s.txx += (measured.x - true_c.x) * (measured.x - true_c.x);
      s.tyy += (measured.y - true_c.y) * (measured.y - true_c.y);
      s.dx += det_c.x - exact_c.x;
      s.dy += det_c.y - exact_c.y;
      s.px += exact_c.x - true_c.x;
      s.py += exact_c.y - true_c.y;
      s.pix_x += det_px.x - exact_px.x;
      s.pix_y += det_px.y - exact_px.y;
      for (const auto& t : r.track.disks)
        if (t.name == spec.name && t.x && t.y) {
          s.sigma = t.sigma_mm;
          s.out_x = *t.x - true_c.x;
          s.out_y = *t.y - true_c.y;
        }
    }
  }
  std::printf("%-32s %5s | %-15s | %-15s | %-15s | %-15s | %-15s | %s\n", "rest", "n", "raw mean x y", "raw sd x y",
              "detector x y", "detector px u v", "pose x y", "last output err, sigma | mean corners' shape rms mm | pose sigma, lift per mm | image angle mod 90, side px");
  for (const auto& [key, s] : rests) {
    const double n = static_cast<double>(s.n);
    const double mx = s.tx / n, my = s.ty / n;
    std::printf("%-32s %5lld | %+7.3f %+7.3f | %7.3f %7.3f | %+7.3f %+7.3f | %+7.3f %+7.3f | %+7.3f %+7.3f | %+7.3f %+7.3f %6.3f | %6.3f | %6.3f %5.3f | %4.1f %5.1f\n",
                key.c_str(), s.n, mx, my, std::sqrt(std::max(0.0, s.txx / n - mx * mx)), std::sqrt(std::max(0.0, s.tyy / n - my * my)),
                s.dx / n, s.dy / n, s.pix_x / n, s.pix_y / n, s.px / n, s.py / n, s.out_x, s.out_y, s.sigma, shape_rms(s), s.pose_sigma, s.lift_sigma, s.image_angle_deg, s.side_px);
  }
  return 0;
}
