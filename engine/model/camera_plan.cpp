#include "engine/model/camera_plan.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include <fmt/format.h>

namespace diskref::model {
namespace {

constexpr double kInfinity = std::numeric_limits<double>::infinity();
// The grid the image's scale is sampled on over the play area (per side).
constexpr int kScaleGrid = 17;
// Finite-difference step for the projection's Jacobian (mm).
constexpr double kStepMm = 0.5;
// A typical disk's thickness, for the plan's smallest tag (spec §4's default).
constexpr double kTypicalThicknessMm = 2.0;

// Half the side of a tag's printed square (9 cells of size/5): the part that must be in view.
double printed_half_mm(double size_mm) {
  return kPrintedTagScale * size_mm / 2;
}

// Pixels per millimetre at a table point in the direction where the image is coarsest (the smaller
// singular value of the projection's Jacobian); 0 when the point or its neighbours are not imaged.
double worst_px_per_mm(const CameraView& view, double x, double y, double z) {
  auto p = [&](double dx, double dy) { return view.image_from_table(x + dx, y + dy, z); };
  auto xp = p(kStepMm, 0), xm = p(-kStepMm, 0), yp = p(0, kStepMm), ym = p(0, -kStepMm);
  if (!xp || !xm || !yp || !ym) return 0;
  const geom::Vec2 jx = (*xp - *xm) / (2 * kStepMm), jy = (*yp - *ym) / (2 * kStepMm);
  // J^T J = [[a, b], [b, c]]; its smaller eigenvalue is the squared smaller singular value.
  const double a = geom::dot(jx, jx), b = geom::dot(jx, jy), c = geom::dot(jy, jy);
  const double mean = (a + c) / 2, spread = std::sqrt(std::max(0.0, (a - c) * (a - c) / 4 + b * b));
  return std::sqrt(std::max(0.0, mean - spread));
}

// How far inside the image a pixel lies (negative outside). The image spans [-0.5, size - 0.5].
double inside_margin_px(const CameraView& view, const std::optional<geom::Vec2>& px) {
  if (!px) return -kInfinity;
  return std::min({px->x + 0.5, view.width_px - 0.5 - px->x, px->y + 0.5, view.height_px - 0.5 - px->y});
}

bool in_image(const CameraView& view, const std::optional<geom::Vec2>& px) {
  return inside_margin_px(view, px) >= 0;
}

// The worst scale over the play area at height z, sampled on a grid; only points in the image count.
double worst_px_per_mm_over_play_area(const CameraView& view, const TableSpec& table, double z) {
  double worst = kInfinity;
  for (int i = 0; i < kScaleGrid; ++i)
    for (int j = 0; j < kScaleGrid; ++j) {
      const double x = table.play_area_mm.x * i / (kScaleGrid - 1), y = table.play_area_mm.y * j / (kScaleGrid - 1);
      if (!in_image(view, view.image_from_table(x, y, z))) continue;
      worst = std::min(worst, worst_px_per_mm(view, x, y, z));
    }
  return std::isfinite(worst) ? worst : 0;
}

// The outline of the play area, sampled along its edges (a distorting lens bends them).
std::vector<geom::Vec2> play_area_edge(const TableSpec& table) {
  std::vector<geom::Vec2> out;
  const geom::Vec2 w = table.play_area_mm;
  const geom::Vec2 corners[] = {{0, 0}, {w.x, 0}, {w.x, w.y}, {0, w.y}};
  for (int k = 0; k < 4; ++k)
    for (int s = 0; s < 8; ++s) out.push_back(corners[k] + (corners[(k + 1) % 4] - corners[k]) * (s / 8.0));
  return out;
}

std::array<geom::Vec2, 4> printed_corners(const CornerMarker& m) {
  const double h = printed_half_mm(m.size_mm);
  return {m.center_mm + geom::Vec2{-h, -h}, m.center_mm + geom::Vec2{h, -h}, m.center_mm + geom::Vec2{h, h},
          m.center_mm + geom::Vec2{-h, h}};
}

TagReading reading(std::string what, const TagSpec& tag, double px_per_mm, double largest_fitting_mm) {
  TagReading r;
  r.what = std::move(what);
  r.tag_id = tag.id;
  r.size_mm = tag.size_mm;
  r.px_per_cell = px_per_mm * tag.size_mm / kTagCornerCells;
  r.needed_mm = px_per_mm > 0 ? kMinPixelsPerCell * kTagCornerCells / px_per_mm : kInfinity;
  r.largest_fitting_mm = largest_fitting_mm;
  return r;
}

std::string join(const std::vector<std::string>& parts) {
  std::string out;
  for (std::size_t i = 0; i < parts.size(); ++i)
    out += (i == 0 ? "" : i + 1 == parts.size() ? " and " : ", ") + parts[i];
  return out;
}

}  // namespace

double px_per_mm_at(const CameraView& view, double x_mm, double y_mm, double z_mm) {
  return worst_px_per_mm(view, x_mm, y_mm, z_mm);
}

double PinholeCamera::focal_px() const {
  return (width_px / 2.0) / std::tan(geom::deg_to_rad(horizontal_fov_deg) / 2);
}

CameraView straight_above(const PinholeCamera& camera, geom::Vec2 over_mm, bool long_side_along_x) {
  CameraView view;
  view.width_px = camera.width_px;
  view.height_px = camera.height_px;
  const double f = camera.focal_px(), cx = (camera.width_px - 1) / 2.0, cy = (camera.height_px - 1) / 2.0;
  const double h = camera.height_mm;
  // camera_from_table, looking down: along x, image right = table +x and image down = table -y;
  // along y, image right = table +y and image down = table +x. Both are rotations (not mirrors).
  view.image_from_table = [=](double x, double y, double z) -> std::optional<geom::Vec2> {
    const double depth = h - z;
    if (!(depth > 0)) return std::nullopt;
    const double dx = x - over_mm.x, dy = y - over_mm.y;
    const double xc = long_side_along_x ? dx : dy, yc = long_side_along_x ? -dy : dx;
    return geom::Vec2{cx + f * xc / depth, cy + f * yc / depth};
  };
  view.table_from_image = [=](double u, double v) -> std::optional<geom::Vec2> {
    const double xc = (u - cx) * h / f, yc = (v - cy) * h / f;
    return long_side_along_x ? over_mm + geom::Vec2{xc, -yc} : over_mm + geom::Vec2{yc, xc};
  };
  view.description = fmt::format("{}x{}, {:g} degree field of view, {:g} mm above the table", camera.width_px,
                                 camera.height_px, camera.horizontal_fov_deg, camera.height_mm);
  return view;
}

CameraView straight_above_play_area(const PinholeCamera& camera, const TableSpec& table) {
  const bool image_wide = camera.width_px >= camera.height_px;
  const bool table_wide = table.play_area_mm.x >= table.play_area_mm.y;
  return straight_above(camera, table.play_area_mm / 2.0, image_wide == table_wide);
}

std::vector<TagReading> CameraPlan::unreadable() const {
  std::vector<TagReading> out;
  for (const TagReading& t : tags)
    if (!t.readable()) out.push_back(t);
  return out;
}

CameraPlan plan_camera(const CameraView& view, const TableSpec& table, const DiskRegistry* registry) {
  CameraPlan plan;
  plan.camera = view.description;
  const geom::Vec2 centre = table.play_area_mm / 2.0;
  const double centre_scale = worst_px_per_mm(view, centre.x, centre.y, 0);
  plan.mm_per_px_centre = centre_scale > 0 ? 1 / centre_scale : kInfinity;
  const double worst_scale = worst_px_per_mm_over_play_area(view, table, 0);
  plan.mm_per_px_worst = worst_scale > 0 ? 1 / worst_scale : kInfinity;
  const double typical = worst_px_per_mm_over_play_area(view, table, kTypicalThicknessMm);
  plan.smallest_tag_mm = typical > 0 ? kMinPixelsPerCell * kTagCornerCells / typical : kInfinity;

  plan.play_area_margin_px = kInfinity;
  for (geom::Vec2 p : play_area_edge(table))
    plan.play_area_margin_px =
        std::min(plan.play_area_margin_px, inside_margin_px(view, view.image_from_table(p.x, p.y, 0)));

  for (const CornerMarker& m : table.corner_markers) {
    double margin = kInfinity;
    for (geom::Vec2 c : printed_corners(m))
      margin = std::min(margin, inside_margin_px(view, view.image_from_table(c.x, c.y, 0)));
    if (margin < kViewMarginPx) plan.markers_out_of_view.push_back(m.id);
  }

  if (registry != nullptr) {
    std::map<double, double> scale_at_height;  // each disk thickness sampled once
    for (const DiskSpec& d : registry->disks()) {
      auto [it, fresh] = scale_at_height.emplace(d.thickness_mm, 0.0);
      if (fresh) it->second = worst_px_per_mm_over_play_area(view, table, d.thickness_mm);
      for (const TagSpec& t : d.tags)
        plan.tags.push_back(
            reading(d.name + " " + std::string(to_string(t.face)), t, it->second, largest_fitting_tag_mm(d.shape, t)));
    }
  }
  for (const CornerMarker& m : table.corner_markers) {
    TagSpec t{m.id, Face::up, m.size_mm, 0};
    plan.tags.push_back(
        reading("corner marker " + std::to_string(m.id), t, worst_px_per_mm(view, m.center_mm.x, m.center_mm.y, 0), 0));
  }

  // The image's border on the table, 16 points a side.
  if (view.table_from_image) {
    const double w = view.width_px - 0.5, h = view.height_px - 0.5;
    const geom::Vec2 corners[] = {{-0.5, -0.5}, {w, -0.5}, {w, h}, {-0.5, h}};
    for (int k = 0; k < 4; ++k)
      for (int s = 0; s < 16; ++s) {
        const geom::Vec2 px = corners[k] + (corners[(k + 1) % 4] - corners[k]) * (s / 16.0);
        if (auto p = view.table_from_image(px.x, px.y)) plan.footprint_mm.push_back(*p);
      }
  }
  return plan;
}

HeightAdvice advise_height(const PinholeCamera& camera, const TableSpec& table, const DiskRegistry* registry) {
  HeightAdvice advice;
  const double f = camera.focal_px();
  const bool image_wide = camera.width_px >= camera.height_px;
  const bool table_wide = table.play_area_mm.x >= table.play_area_mm.y;
  const bool along_x = image_wide == table_wide;
  const geom::Vec2 centre = table.play_area_mm / 2.0;
  // Everything that must be in view, as offsets from the camera's foot along the image's axes.
  double reach_u = 0, reach_v = 0;
  auto see = [&](geom::Vec2 p) {
    const geom::Vec2 d = p - centre;
    reach_u = std::max(reach_u, std::fabs(along_x ? d.x : d.y));
    reach_v = std::max(reach_v, std::fabs(along_x ? d.y : d.x));
  };
  for (geom::Vec2 p : play_area_edge(table)) see(p);
  for (const CornerMarker& m : table.corner_markers)
    for (geom::Vec2 c : printed_corners(m)) see(c);
  const double half_u = (camera.width_px - 1) / 2.0 - kViewMarginPx,
               half_v = (camera.height_px - 1) / 2.0 - kViewMarginPx;
  advice.lowest_seeing_all_mm = std::max(f * reach_u / half_u, f * reach_v / half_v);

  // The highest height reading each tag: f * (size / 5) / (h - z) >= 2.5.
  advice.highest_reading_all_mm = kInfinity;
  auto consider = [&](const std::string& what, double size_mm, double z) {
    const double highest = f * size_mm / kTagCornerCells / kMinPixelsPerCell + z;
    if (highest < advice.highest_reading_all_mm) {
      advice.highest_reading_all_mm = highest;
      advice.smallest_tag = what;
      advice.smallest_tag_mm = size_mm;
    }
  };
  if (registry != nullptr)
    for (const DiskSpec& d : registry->disks())
      for (const TagSpec& t : d.tags)
        consider(d.name + " " + std::string(to_string(t.face)), t.size_mm, d.thickness_mm);
  for (const CornerMarker& m : table.corner_markers) consider("corner marker " + std::to_string(m.id), m.size_mm, 0);

  // More pixels at the same field of view scale f and the image alike: the lowest height stays,
  // the highest grows in proportion (its z aside).
  if (std::isfinite(advice.highest_reading_all_mm)) {
    const double per_pixel_scale = f * advice.smallest_tag_mm / kTagCornerCells / kMinPixelsPerCell;
    const double factor = advice.lowest_seeing_all_mm / per_pixel_scale;
    advice.short_side_px_needed = std::min(camera.width_px, camera.height_px) * factor;
  }
  return advice;
}

std::vector<PlanProblem> view_problems(const CameraPlan& plan, const TableSpec& table, const DiskRegistry* registry,
                                       const std::optional<PinholeCamera>& pinhole) {
  std::vector<PlanProblem> out;
  std::optional<HeightAdvice> advice;
  if (pinhole) advice = advise_height(*pinhole, table, registry);

  std::string move_camera;
  if (advice)
    move_camera =
        advice->possible()
            ? fmt::format("raise the camera to at least {:.0f} mm above the table (everything reads up to {:.0f} mm)",
                          std::ceil(advice->lowest_seeing_all_mm), std::floor(advice->highest_reading_all_mm))
            : fmt::format("raise the camera to at least {:.0f} mm above the table, or use a wider lens",
                          std::ceil(advice->lowest_seeing_all_mm));
  else
    move_camera =
        "raise the camera, or move it over the middle of the play area, until the play area and the four "
        "corner markers are in the picture";
  if (!plan.sees_play_area())
    out.push_back({plan.play_area_margin_px < 0
                       ? fmt::format("the play area ({:g} x {:g} mm) is not all in the picture", table.play_area_mm.x,
                                     table.play_area_mm.y)
                       : fmt::format("the play area's edge comes within {:.0f} px of the picture's edge",
                                     plan.play_area_margin_px),
                   move_camera});
  if (!plan.markers_out_of_view.empty()) {
    std::vector<std::string> ids;
    for (int id : plan.markers_out_of_view) ids.push_back(std::to_string(id));
    out.push_back({fmt::format("corner marker{} {} {} not wholly in the picture", ids.size() > 1 ? "s" : "", join(ids),
                               ids.size() > 1 ? "are" : "is"),
                   move_camera});
  }

  return out;
}

std::vector<PlanProblem> plan_problems(const CameraPlan& plan, const TableSpec& table, const DiskRegistry* registry,
                                       const std::optional<PinholeCamera>& pinhole) {
  std::vector<PlanProblem> out = view_problems(plan, table, registry, pinhole);
  std::optional<HeightAdvice> advice;
  if (pinhole) advice = advise_height(*pinhole, table, registry);
  // Unreadable tags, grouped where they read alike (six torpedoes of one size, both faces, are one
  // line): the disks (or markers) by name, then their tag ids.
  struct Group {
    TagReading first;
    std::vector<std::string> names;
    std::vector<int> ids;
  };
  std::vector<Group> groups;
  for (const TagReading& t : plan.unreadable()) {
    auto same = [&](const Group& g) {
      return std::fabs(g.first.size_mm - t.size_mm) < 1e-9 && std::fabs(g.first.px_per_cell - t.px_per_cell) < 0.005 &&
             std::fabs(g.first.largest_fitting_mm - t.largest_fitting_mm) < 1e-6;
    };
    auto g = std::find_if(groups.begin(), groups.end(), same);
    if (g == groups.end()) g = groups.insert(groups.end(), Group{t, {}, {}});
    // "enterprise up" -> "enterprise"; a marker keeps its whole name.
    const std::string name = t.largest_fitting_mm > 0 ? t.what.substr(0, t.what.rfind(' ')) : t.what;
    if (std::find(g->names.begin(), g->names.end(), name) == g->names.end()) g->names.push_back(name);
    g->ids.push_back(t.tag_id);
  }
  for (const Group& g : groups) {
    const TagReading& t = g.first;
    std::vector<std::string> ids;
    for (int id : g.ids) ids.push_back(std::to_string(id));
    const bool consecutive = g.ids.size() > 2 && g.ids.back() - g.ids.front() + 1 == static_cast<int>(g.ids.size());
    const std::string tags = consecutive ? fmt::format("tags {} to {}", g.ids.front(), g.ids.back())
                                         : (g.ids.size() > 1 ? "tags " : "tag ") + join(ids);
    const bool many = g.ids.size() > 1;
    std::string problem = fmt::format(
        "{} ({}): {:g} mm tag{} read{} at {:.2f} px per cell where {} worst (spec §2 needs {:g})", join(g.names), tags,
        t.size_mm, many ? "s" : "", many ? "" : "s", t.px_per_cell, many ? "they read" : "it reads", kMinPixelsPerCell);
    std::string fix;
    const double needed = std::ceil(10 * t.needed_mm) / 10;
    if (t.largest_fitting_mm <= 0) {
      fix = fmt::format("print the marker at least {:.1f} mm (a bigger card), or bring the camera closer", needed);
    } else if (t.fixable_by_size()) {
      fix = fmt::format("print the tag at least {:.1f} mm (its disk takes up to {:.1f} mm), or bring the camera closer",
                        needed, std::floor(10 * t.largest_fitting_mm) / 10);
    } else if (advice && advice->possible()) {
      fix = fmt::format(
          "lower the camera to at most {:.0f} mm (it still sees everything from {:.0f} mm); the tag "
          "cannot grow: it needs {:.1f} mm and its disk takes at most {:.1f} mm",
          std::floor(advice->highest_reading_all_mm), std::ceil(advice->lowest_seeing_all_mm), needed,
          std::floor(10 * t.largest_fitting_mm) / 10);
    } else if (advice) {
      fix = fmt::format(
          "no height works for this camera (it must be at most {:.0f} mm up to read these tags but at "
          "least {:.0f} mm to see the whole table): use a camera with at least {:.0f} px on its short "
          "side at this field of view (a 4K camera has 2160), or a smaller play area",
          std::floor(advice->highest_reading_all_mm), std::ceil(advice->lowest_seeing_all_mm),
          std::ceil(advice->short_side_px_needed));
    } else {
      fix = fmt::format(
          "bring the camera {:.0f} % closer, or use one with {:.0f} % more pixels across: the tag needs "
          "{:.1f} mm and its disk takes at most {:.1f} mm",
          100 * (1 - t.px_per_cell / kMinPixelsPerCell), 100 * (kMinPixelsPerCell / t.px_per_cell - 1), needed,
          std::floor(10 * t.largest_fitting_mm) / 10);
    }
    out.push_back({problem, fix});
  }
  return out;
}

}  // namespace diskref::model
