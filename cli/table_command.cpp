// `diskref table`: find the camera's pose relative to the table from the four corner markers in an
// image, or in the first frames of a video, report how good it is and write the table pose file
// that `diskref track --table-pose` reads.

#include <cstdio>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_pose.h"
#include "cli/commands.h"
#include "cli/image_input.h"
#include "engine/io/atomic_write.h"
#include "engine/model/table_spec.h"
#include "vision/apriltag_detector.h"
#include "vision/frame_source.h"

namespace diskref::cli {
namespace {

struct TableOptions {
  std::string input;
  std::string table;
  std::string calib;
  std::string out;
  int frames = 30;
};

std::vector<calib::MarkerObservation> corner_markers_in(vision::AprilTagDetector& detector, const cv::Mat& gray) {
  std::vector<calib::MarkerObservation> out;
  for (const auto& tag : detector.detect(gray))
    if (model::is_corner_marker(tag.id)) out.push_back({tag.id, tag.corners});
  return out;
}

struct Observed {
  std::vector<std::vector<calib::MarkerObservation>> frames;  // the frames with the most corner markers
  cv::Size image_size;
  std::string summary;
};

// The corner markers of an image, or of the first `frame_limit` frames of a video; of a video, the
// frames that see the most corner markers are kept (a hand over a marker in a few frames).
Observed observe(const TableOptions& o, vision::AprilTagDetector& detector) {
  Observed observed;
  if (is_image_file(o.input)) {
    cv::Mat gray = read_gray_image(o.input);
    observed.image_size = gray.size();
    observed.frames.push_back(corner_markers_in(detector, gray));
    observed.summary = "image " + o.input;
    return observed;
  }
  auto source = vision::open_video_file(o.input);
  observed.image_size = source->frame_size();
  std::vector<std::vector<calib::MarkerObservation>> all;
  std::size_t most = 0;
  while (static_cast<int>(all.size()) < o.frames) {
    auto frame = source->next();
    if (!frame) break;
    all.push_back(corner_markers_in(detector, to_gray(frame->image)));
    most = std::max(most, all.back().size());
  }
  for (auto& markers : all)
    if (markers.size() == most) observed.frames.push_back(std::move(markers));
  observed.summary = "the first " + std::to_string(all.size()) + " frames of " + o.input + "; " +
                     std::to_string(observed.frames.size()) + " of them see " + std::to_string(most) +
                     " corner marker(s) and are combined (median corners)";
  return observed;
}

void print_report(const calib::CameraPose& pose, const calib::CameraPoseEstimate& estimate) {
  for (const auto& note : estimate.notes) std::printf("note: %s\n", note.c_str());
  cv::Vec3d c = pose.camera_center_table();
  fmt::print("camera centre (table frame): x {:.1f}, y {:.1f}, z {:.1f} mm\n", c[0], c[1], c[2]);
  fmt::print("lens: {}, fx {:.1f} fy {:.1f} cx {:.1f} cy {:.1f} px\n",
             pose.lens_calibrated ? "calibrated" : "estimated (no --calib)", pose.camera.fx(), pose.camera.fy(),
             pose.camera.cx(), pose.camera.cy());
  fmt::print("fit to the marker corners: {:.3f} px RMS in the image, {:.3f} mm RMS on the table\n",
             pose.reprojection_rms_px, pose.reprojection_rms_mm);
  std::printf("markers used:");
  for (int id : pose.markers_used) std::printf(" %d", id);
  if (!pose.markers_missing.empty()) {
    std::printf("; not used:");
    for (int id : pose.markers_missing) std::printf(" %d", id);
  }
  std::printf("\nmarker residuals (mm RMS):");
  for (const auto& r : pose.marker_residuals) fmt::print(" {}: {:.3f}", r.id, r.rms_mm);
  // The lens checked where the markers are, usually near the image's edges: each marker's corners
  // reprojected through the pose, against the calibration's predicted uncertainty there.
  std::printf("\nmarker reprojection errors (px RMS, a check of the lens at the image's edges):\n");
  for (const auto& r : pose.marker_residuals) {
    std::string predicted;
    if (pose.camera.uncertainty)
      predicted = fmt::format("; the lens is known to {:.2f} px there (1 sigma)",
                              pose.camera.uncertainty->at(r.centre_px, pose.camera.image_size));
    fmt::print("  marker {} at ({:.0f}, {:.0f}) px: {:.3f} px{}\n", r.id, r.centre_px.x, r.centre_px.y, r.rms_px,
               predicted);
  }
  std::printf("marker centre distances, measured vs table file:\n");
  for (const auto& d : pose.distance_checks)
    fmt::print("  {}-{}  {:.2f} vs {:.2f} mm  ({}{:.2f} mm)\n", d.id_a, d.id_b, d.measured_mm, d.expected_mm,
               d.measured_mm >= d.expected_mm ? "+" : "", d.measured_mm - d.expected_mm);
}

int run_table(const TableOptions& o) {
  io::check_output_path(o.out);
  model::TableSpec table = model::load_table(o.table);
  std::optional<calib::CameraModel> lens;
  if (!o.calib.empty()) lens = calib::load_camera_model(o.calib);

  // Full resolution: the corner markers must be found even when small, and this runs once.
  vision::DetectorOptions detector_options;
  detector_options.quad_decimate = 1.0;
  vision::AprilTagDetector detector(detector_options);
  Observed observed = observe(o, detector);
  // A camera file for another camera mode is named, not blamed on the corner markers.
  if (lens)
    calib::check_camera_fits_image(*lens, observed.image_size, o.calib,
                                   is_image_file(o.input) ? "the image" : "the video");
  fmt::print("table: {} (play area {:.1f} x {:.1f} mm)\n", o.table, table.play_area_mm.x, table.play_area_mm.y);
  std::printf("from: %s (%dx%d)\n", observed.summary.c_str(), observed.image_size.width, observed.image_size.height);

  calib::CameraPoseEstimate estimate =
      calib::estimate_camera_pose(table, calib::median_observations(observed.frames), lens, observed.image_size);
  if (!estimate.pose) {
    for (const auto& note : estimate.notes) std::fprintf(stderr, "note: %s\n", note.c_str());
    std::fprintf(stderr, "diskref table: %s: no table pose: %s\n", o.input.c_str(), estimate.problem.c_str());
    return kExitFailure;
  }
  print_report(*estimate.pose, estimate);
  calib::save_camera_pose(*estimate.pose, o.out);
  std::printf("wrote %s\n", o.out.c_str());
  return kExitOk;
}

}  // namespace

RunFunction add_table_command(CLI::App& app) {
  auto o = std::make_shared<TableOptions>();
  CLI::App* sub = app.add_subcommand(
      "table",
      "Find the table plane from the corner markers in an image or a video's first frames (writes a table "
      "pose file for track --table-pose)");
  sub->footer("Example:\n  diskref table table.jpg --table table.json --calib camera.json --out table_pose.json");
  sub->add_option("input", o->input, "Image, or video (its first frames are used)")->required();
  sub->add_option("--table", o->table, "Table file (JSON, spec §3)")->required();
  sub->add_option("--calib", o->calib, "Camera file from diskref calibrate (without it: no lens correction)");
  sub->add_option("--out", o->out, "Table pose file to write (JSON)")->required();
  sub->add_option("--frames", o->frames, "Video: use the first N frames")
      ->capture_default_str()
      ->check(CLI::Range(1, 10000));
  return [o] { return run_table(*o); };
}

}  // namespace diskref::cli
