// `diskref plan`: where to put the camera. From a resolution, a field of view and a height (or a
// calibration, or the table pose of a camera already mounted): the millimetres per pixel over the
// play area, the smallest tag that reads (spec §2: 2.5 px per cell), whether the play area and the
// corner markers are in view, which tags of a registry do not read, and what to change. With
// several resolutions and heights, and --markdown, the table in docs/guide/first-table.md.

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "calibration/camera_model.h"
#include "calibration/camera_plan_view.h"
#include "calibration/camera_pose.h"
#include "cli/commands.h"
#include "cli/option_checks.h"
#include "engine/io/input_error.h"
#include "engine/model/bounds.h"
#include "engine/model/camera_plan.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"

namespace diskref::cli {
namespace {

struct PlanOptions {
  std::vector<std::string> resolutions;  // WxH
  double fov_deg = 0;
  std::vector<double> heights_mm;
  std::string calib;
  std::string table_pose;
  std::string table;
  std::string play_area;  // WxH mm, instead of --table
  std::string disks;
  bool markdown = false;
};

model::TableSpec table_from(const PlanOptions& o) {
  if (!o.table.empty() && !o.play_area.empty()) throw io::InputError("", "--table/--play-area", "give one of them");
  if (!o.table.empty()) return model::load_table(o.table);
  if (o.play_area.empty()) return model::default_table();
  const auto [w, h] = parse_play_area(o.play_area, "--play-area");
  return model::table_with_markers({w, h}, 40);
}

std::string ids_text(const std::vector<int>& ids) {
  std::string out;
  for (int id : ids) out += (out.empty() ? "" : " ") + std::to_string(id);
  return out;
}

void print_plan(const model::CameraPlan& plan, const model::TableSpec& table, const model::DiskRegistry* registry,
                const std::optional<model::PinholeCamera>& pinhole) {
  fmt::print("camera: {}\n", plan.camera);
  fmt::print("play area {:g} x {:g} mm: {:.3f} mm per pixel at its centre, {:.3f} mm where coarsest\n",
             table.play_area_mm.x, table.play_area_mm.y, plan.mm_per_px_centre, plan.mm_per_px_worst);
  fmt::print("smallest tag that reads everywhere on it: {:.1f} mm ({:g} px per cell, spec §2)\n", plan.smallest_tag_mm,
             model::kMinPixelsPerCell);
  fmt::print("in view: play area {} ({:.0f} px from the picture's edge at the closest), corner markers {}\n",
             plan.sees_play_area() ? "yes" : "NO", plan.play_area_margin_px,
             plan.markers_out_of_view.empty() ? "all" : "NOT " + ids_text(plan.markers_out_of_view));
  if (pinhole) {
    const model::HeightAdvice a = model::advise_height(*pinhole, table, registry);
    fmt::print("heights: everything in view from {:.0f} mm up; {} reads up to {:.0f} mm{}\n",
               std::ceil(a.lowest_seeing_all_mm),
               a.smallest_tag + " (" + fmt::format("{:g}", a.smallest_tag_mm) + " mm)",
               std::floor(a.highest_reading_all_mm),
               a.possible() ? ""
                            : fmt::format(": no height does both (that needs {:.0f} px on the short side)",
                                          std::ceil(a.short_side_px_needed)));
  }
  if (registry != nullptr) {
    int readable = 0;
    for (const model::TagReading& t : plan.tags) readable += t.readable();
    fmt::print("tags: {} of {} read\n", readable, plan.tags.size());
  }
  for (const model::PlanProblem& p : model::plan_problems(plan, table, registry, pinhole))
    fmt::print("problem: {}\n  fix: {}\n", p.problem, p.fix);
}

// One markdown row: camera, height, scale, smallest tag, in view, tags that do not read.
void print_row(const std::string& camera, double height_mm, const model::CameraPlan& plan,
               const model::DiskRegistry* registry) {
  std::string unread;
  if (registry != nullptr) {
    std::vector<std::string> seen;  // one entry per size: "torpedo 9.5 mm"
    for (const model::TagReading& t : plan.unreadable()) {
      std::string kind = t.what.substr(0, t.what.find_first_of(" -"));
      std::string item = fmt::format("{} {:g} mm", kind, t.size_mm);
      if (std::find(seen.begin(), seen.end(), item) == seen.end()) seen.push_back(item);
    }
    for (const std::string& s : seen) unread += (unread.empty() ? "" : ", ") + s;
    if (unread.empty()) unread = "none";
  }
  fmt::print("| {} | {:.0f} cm | {:.2f} | {:.1f} mm | {} | {} |\n", camera, height_mm / 10, plan.mm_per_px_worst,
             plan.smallest_tag_mm,
             plan.sees_everything()  ? "yes"
             : plan.sees_play_area() ? "play area, not every marker"
                                     : "no",
             unread);
}

int run_plan(const PlanOptions& o) {
  const model::TableSpec table = table_from(o);
  std::optional<model::DiskRegistry> registry;
  if (!o.disks.empty()) registry = model::load_disk_registry(o.disks);
  const model::DiskRegistry* reg = registry ? &*registry : nullptr;

  if (!o.table_pose.empty()) {
    // A camera already mounted: the lens and where it is.
    if (!o.resolutions.empty() || o.fov_deg > 0 || !o.heights_mm.empty() || !o.calib.empty())
      throw io::InputError(
          "", "--table-pose",
          "is the whole camera: give it without --camera-resolution/--camera-fov/--camera-height/--calib");
    const calib::CameraPose pose = calib::load_camera_pose(o.table_pose);
    calib::check_camera_pose_fits_table(pose, table, o.table_pose);
    print_plan(model::plan_camera(calib::camera_view(pose), table, reg), table, reg, std::nullopt);
    return kExitOk;
  }
  if (o.heights_mm.empty())
    throw io::InputError("", "--camera-height",
                         "give the camera's height above the table (mm), e.g. --camera-height 1000");

  std::vector<std::pair<std::string, model::PinholeCamera>> cameras;  // label, camera (height set below)
  std::optional<calib::CameraModel> lens;
  if (!o.calib.empty()) {
    if (!o.resolutions.empty() || o.fov_deg > 0)
      throw io::InputError("", "--calib",
                           "gives the resolution and field of view: leave out --camera-resolution and --camera-fov");
    lens = calib::load_camera_model(o.calib);
    cameras.emplace_back(o.calib, calib::planning_pinhole(*lens, 1000));
  } else {
    if (o.resolutions.empty() || !(o.fov_deg > 0))
      throw io::InputError(
          "", "--camera-resolution/--camera-fov",
          "give the camera's resolution and horizontal field of view (e.g. --camera-resolution 1920x1080 "
          "--camera-fov 70), or its calibration (--calib camera.json)");
    for (const std::string& r : o.resolutions) {
      auto [w, h] = parse_resolution(r, "--camera-resolution");
      cameras.emplace_back(fmt::format("{}x{}, {:g}°", w, h, o.fov_deg), model::PinholeCamera{w, h, o.fov_deg, 1000});
    }
  }

  if (o.markdown) {
    fmt::print(
        "| camera | height | mm per pixel (coarsest) | smallest tag that reads | table and markers in view | tags that "
        "do not read |\n");
    fmt::print("|---|---|---|---|---|---|\n");
  }
  bool first = true;
  for (auto& [label, camera] : cameras)
    for (double h : o.heights_mm) {
      camera.height_mm = h;
      const model::CameraView view =
          lens ? calib::camera_view_straight_above(
                     *lens, h, table.play_area_mm / 2.0,
                     (camera.width_px >= camera.height_px) == (table.play_area_mm.x >= table.play_area_mm.y))
               : model::straight_above_play_area(camera, table);
      const model::CameraPlan plan = model::plan_camera(view, table, reg);
      if (o.markdown) {
        print_row(label, h, plan, reg);
        continue;
      }
      if (!first) std::printf("\n");
      first = false;
      print_plan(plan, table, reg, camera);
    }
  return kExitOk;
}

}  // namespace

RunFunction add_plan_command(CLI::App& app) {
  auto o = std::make_shared<PlanOptions>();
  CLI::App* sub = app.add_subcommand(
      "plan", "Where to put the camera: mm per pixel over the play area, the smallest tag that reads, what is in view");
  sub->add_option("--camera-resolution", o->resolutions,
                  "Camera resolution WIDTHxHEIGHT (repeat it to compare cameras)");
  sub->add_option("--camera-fov", o->fov_deg,
                  "Horizontal field of view, degrees (a camera's data sheet often gives the diagonal one)")
      ->check(finite_between(model::bounds::kMinFieldOfViewDeg, model::bounds::kMaxFieldOfViewDeg));
  sub->add_option("--camera-height", o->heights_mm, "Height of the camera above the table, mm (repeat it to compare)")
      ->check(finite_between(model::bounds::kMinCameraHeightMm, model::bounds::kMaxCameraDistanceMm));
  sub->add_option("--calib", o->calib, "A calibration (camera file, spec §7) instead of resolution and field of view");
  sub->add_option("--table-pose", o->table_pose,
                  "A mounted camera: the table pose file diskref table wrote (lens and place)");
  sub->add_option("--table", o->table, "Table file (spec §3; default: the 914.4 mm square with 40 mm markers)");
  sub->add_option("--play-area", o->play_area, "Play area WIDTHxHEIGHT in mm instead of a table file (40 mm markers)");
  sub->add_option("--disks", o->disks, "Disk registry (spec §4): say which of its tags read");
  sub->add_flag("--markdown", o->markdown,
                "One markdown table row per camera and height (as in docs/guide/first-table.md)");
  sub->footer(
      "Examples:\n"
      "  diskref plan --camera-resolution 1920x1080 --camera-fov 70 --camera-height 1000 --disks disks.json\n"
      "  diskref plan --camera-resolution 1920x1080 --camera-resolution 3840x2160 --camera-fov 70 \\\n"
      "    --camera-height 600 --camera-height 900 --camera-height 1200 --disks disks.json --markdown\n"
      "  diskref plan --table-pose table_pose.json --table table.json --disks disks.json");
  return [o] { return run_plan(*o); };
}

}  // namespace diskref::cli
