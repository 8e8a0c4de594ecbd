#include "ui/scene_overlay.h"

#include <algorithm>

#include <fmt/format.h>

#include "engine/geometry/outline.h"
#include "ui/imgui_draw.h"
#include "ui/label_placement.h"

namespace diskref::ui {
namespace {

double height_of(const referee::SeenDisk& d) {
  return d.spec->thickness_mm;
}

void draw_flip(ImDrawList* dl, const Screen& s, const TableToScreen& map, const OverlayStyle& style) {
  const referee::FlipVerdict& f = *s.flip;
  const referee::SeenDisk& m = s.scene.disks[f.mover];
  double z = height_of(m);
  ImU32 ghost = im_color(colors::kGhost, 200);
  // The region each flip passes over, faintly, under everything else.
  for (const std::vector<Vec2>& region : f.swept) fill_polygon(dl, map(region, z), im_color(colors::kGhost, 28));
  // The track of the centre, start to end.
  std::vector<Vec2> centres{m.pose->position};
  for (const geom::Pose& p : f.path.landings) centres.push_back(p.position);
  draw_polygon(dl, map(centres, z), im_color(colors::kGhost, 150), 1.5f, false);

  for (std::size_t i = 0; i < f.path.landings.size(); ++i) {
    const geom::Pose& landing = f.path.landings[i];
    bool last = i + 1 == f.path.landings.size();
    bool outside = f.path.first_flip_outside && static_cast<int>(i) + 1 >= *f.path.first_flip_outside;
    bool end_hits = last && !f.path.end_overlaps.empty();
    std::vector<Vec2> pts = map(geom::outline_polygon({m.spec->shape, landing}, 8.0), z);
    ImU32 col = (outside || end_hits) ? im_color(colors::kContact, 230) : ghost;
    if (last) {
      fill_polygon(dl, pts, (outside || end_hits) ? im_color(colors::kContact, 60) : im_color(colors::kGhost, 45));
      draw_polygon(dl, pts, col, style.line_px);
    } else {
      draw_dashed(dl, pts, col, style.line_px * 0.75f, 5.0f);
    }
    Vec2 c = map({landing.position}, z)[0];
    draw_label(dl, c - Vec2{4, 7}, col, fmt::format("{}{}", i + 1, outside ? " out" : ""));
  }
  // Torpedoes it would hit on the way.
  for (const geom::TorpedoContact& t : f.path.torpedo_contacts) {
    auto idx = s.scene.index_of(t.disk);
    if (!idx || !s.scene.disks[*idx].has_pose()) continue;
    const referee::SeenDisk& d = s.scene.disks[*idx];
    std::vector<Vec2> pts = map(geom::outline_polygon(d.placed(), 8.0), height_of(d));
    draw_polygon(dl, pts, im_color(colors::kContact), style.line_px + 2.0f);
  }
}

void draw_pair(ImDrawList* dl, const Screen& s, const TableToScreen& map) {
  const referee::PairVerdict& p = *s.pair;
  // The template where it reaches (or as close as it gets), on the table surface.
  geom::Rect placed{p.range.template_length_mm, p.template_rect.width_mm};
  std::vector<Vec2> tpl = map(geom::outline_polygon({placed, p.range.template_pose}), 0.0);
  fill_polygon(dl, tpl, im_color(colors::kTemplate, 50));
  draw_polygon(dl, tpl, im_color(colors::kTemplate, 220), 1.5f);
  // The gap between the outlines.
  if (p.range.gap_mm > 0) {
    std::vector<Vec2> gap = map({p.range.point_a, p.range.point_b}, 0.0);
    draw_dashed(dl, gap, im_color(colors::kTemplate), 1.5f, 4.0f);
  }
}

}  // namespace

std::vector<ScreenRect> drawn_boxes(const SceneDrawn& drawn, const std::optional<Screen::CountersDrawn>& counters) {
  std::vector<ScreenRect> out = rects_of(drawn.labels);
  out.insert(out.end(), drawn.markers.begin(), drawn.markers.end());
  for (const std::vector<Vec2>& outline : drawn.outlines)
    if (!outline.empty()) out.push_back(bounding_rect(outline));
  if (counters) {
    for (const NamedRect& label : counters->labels) out.push_back(label.rect);
    if (counters->box) out.push_back(*counters->box);
  }
  return out;
}

SceneDrawn draw_scene(ImDrawList* dl, const Screen& s, const TableToScreen& map, const OverlayStyle& style) {
  if (s.pair) draw_pair(dl, s, map);
  if (s.flip) draw_flip(dl, s, map, style);

  SceneDrawn drawn;
  for (const model::CornerMarker& m : s.table.corner_markers) {
    const auto corners = m.corners_mm();
    drawn.markers.push_back(bounding_rect(map(std::vector<Vec2>(corners.begin(), corners.end()), 0.0)));
  }
  std::vector<std::vector<Vec2>>& outlines = drawn.outlines;
  outlines.resize(s.scene.disks.size());
  // The names, placed once every disk is drawn.
  struct Name {
    std::size_t disk;
    std::string text;
    ImU32 colour;
  };
  std::vector<Name> names;
  for (std::size_t i = 0; i < s.scene.disks.size(); ++i) {
    const referee::SeenDisk& d = s.scene.disks[i];
    if (!d.has_pose()) continue;
    double z = height_of(d);
    outlines[i] = map(geom::outline_polygon(d.placed()), z);
    const std::vector<Vec2>& pts = outlines[i];
    Rgb state = state_color(d.track);
    ImU32 col = im_color(state);

    if (style.fill_disks) {
      Rgb fill = d.spec->color_rgb ? Rgb{static_cast<std::uint8_t>(*d.spec->color_rgb >> 16),
                                         static_cast<std::uint8_t>(*d.spec->color_rgb >> 8),
                                         static_cast<std::uint8_t>(*d.spec->color_rgb)}
                                   : Rgb{110, 120, 135};
      fill_polygon(dl, pts, im_color(fill, d.spec->kind == model::DiskKind::template_ ? 90 : 170));
    }
    bool is_a = s.choice.a == d.name();
    bool is_b = s.choice.b == d.name();
    if (is_a || is_b) draw_polygon(dl, pts, im_color(is_a ? colors::kSelectA : colors::kSelectB), style.line_px + 4.0f);
    if (d.track.state == model::TrackState::stale) {
      draw_dashed(dl, pts, col, style.line_px, 6.0f);
    } else {
      draw_polygon(dl, pts, col, style.line_px);
    }

    // Heading arrow from the centre to just inside the front of the outline, and a centre dot.
    double reach = 0.8 * geom::bounding_radius(d.spec->shape);
    std::vector<Vec2> axis = map({d.pose->position, d.pose->position + d.pose->heading_dir() * reach}, z);
    draw_arrow(dl, axis[0], axis[1], col, style.line_px);
    dl->AddCircleFilled(im(axis[0]), 3.5f, col);

    // Counters are many and small: their names would cover each other (a drop's reading labels
    // them with what they show, ui/game_counters.cpp).
    if (d.spec->kind == model::DiskKind::counter && !is_a && !is_b) continue;
    std::string label = d.name();
    if (is_a) label = "A  " + label;
    if (is_b) label = "B  " + label;
    if (s.choice.mover == d.name()) label += "  (moves)";
    names.push_back({i, std::move(label), is_a ? im_color(colors::kSelectA) : is_b ? im_color(colors::kSelectB) : col});
  }
  // Under each disk, unless that covers another name or another disk (ships meeting, a ship
  // beside a planet).
  std::vector<ScreenRect> footprints;
  for (const std::vector<Vec2>& pts : outlines) footprints.push_back(bounding_rect(pts));
  std::vector<LabelWish> wishes;
  for (const Name& n : names) {
    const ScreenRect& f = footprints[n.disk];
    wishes.push_back({f.center(), vec(ImGui::CalcTextSize(n.text.c_str())), f.h / 2 + 2, static_cast<long>(n.disk)});
  }
  const ScreenRect view = clip_rect(dl);
  // Nor over a corner marker.
  std::vector<ScreenRect> keep_clear = footprints;
  keep_clear.insert(keep_clear.end(), drawn.markers.begin(), drawn.markers.end());
  const std::vector<Vec2> at = place_labels(wishes, view, keep_clear);
  for (std::size_t k = 0; k < names.size(); ++k) {
    draw_label(dl, at[k], names[k].colour, names[k].text);
    drawn.labels.push_back(
        {s.scene.disks[names[k].disk].name(), {at[k].x, at[k].y, wishes[k].size.x, wishes[k].size.y}});
  }
  return drawn;
}

}  // namespace diskref::ui
