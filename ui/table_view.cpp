// The table view: top-down in millimetres, table +y up the screen, with a grid, the play area,
// the corner markers and every disk.

#include <algorithm>
#include <cmath>

#include <fmt/format.h>

#include "ui/hit_test.h"
#include "ui/imgui_draw.h"
#include "ui/panels.h"
#include "ui/scene_overlay.h"

namespace diskref::ui {

void draw_table_view(Screen& s, const ScreenRect& rect) {
  if (!begin_panel("Table view (mm, seen from above)###table", rect)) {
    s.table_view_drawn.reset();
    s.table_counters_drawn.reset();
    s.table_text_drawn = {};
    ImGui::End();
    return;
  }
  // The grid's step is said on the checkbox's line, at its right, where it covers no marker or disk.
  const ImVec2 header = ImGui::GetCursorScreenPos();
  ImGui::Checkbox(s.game_view ? "zoom to the move (or the dispute)" : "zoom to the dispute", &s.zoom_to_dispute);
  const float header_right = ImGui::GetItemRectMax().x;
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  ScreenRect area = ScreenRect{origin.x, origin.y, avail.x, avail.y}.inset(6);
  ImDrawList* dl = ImGui::GetWindowDrawList();

  // Show the play area and the corner markers around it.
  Vec2 lo{0, 0};
  Vec2 hi = s.table.play_area_mm;
  for (const model::CornerMarker& m : s.table.corner_markers) {
    for (Vec2 c : m.corners_mm()) {
      lo = {std::min(lo.x, c.x), std::min(lo.y, c.y)};
      hi = {std::max(hi.x, c.x), std::max(hi.y, c.y)};
    }
  }
  std::optional<TableBox> focus = s.zoom_to_dispute ? dispute_bounds(s, 40.0) : std::nullopt;
  // Zoomed to a move or a drop, its text goes in a strip of its own along the view's bottom, where
  // it covers nothing (zoomed, the disks fill the view); otherwise beside where the move ended, and
  // beside the drop's counters.
  const std::vector<ColoredLine> move_text = game_move_lines(s);
  const std::vector<ColoredLine> drop_text = counter_reading_lines(s, std::max(200.0, area.w - 16));
  std::vector<ColoredLine> caption_text = move_text;
  caption_text.insert(caption_text.end(), drop_text.begin(), drop_text.end());
  const Vec2 caption = text_box_size(caption_text);
  const bool as_caption = focus && !caption_text.empty() && caption.y < area.h * 0.5;
  ScreenRect fit_area = area;
  if (as_caption) fit_area.h -= caption.y + 4;
  TableViewTransform view =
      focus ? fit_table(focus->min, focus->max, fit_area) : fit_table(lo - Vec2{5, 5}, hi + Vec2{5, 5}, area);
  s.table_view_drawn = view;
  dl->PushClipRect(im(area.min()), im(area.max()), true);
  auto to_screen = [&](Vec2 p) { return view.screen_from_table(p); };

  // Cloth, grid, play area, markers.
  Vec2 pa = s.table.play_area_mm;
  dl->AddRectFilled(im(to_screen({0, pa.y})), im(to_screen({pa.x, 0})), im_color(colors::kTableCloth));
  double step = grid_step_mm(view.px_per_mm, 12.0);
  for (double x = step; x < pa.x; x += step) {
    bool major = std::fmod(x, step * 4) < 1e-6;
    dl->AddLine(im(to_screen({x, 0})), im(to_screen({x, pa.y})), im_color(colors::kGrid, major ? 255 : 130), 1.0f);
  }
  for (double y = step; y < pa.y; y += step) {
    bool major = std::fmod(y, step * 4) < 1e-6;
    dl->AddLine(im(to_screen({0, y})), im(to_screen({pa.x, y})), im_color(colors::kGrid, major ? 255 : 130), 1.0f);
  }
  dl->AddRect(im(to_screen({0, pa.y})), im(to_screen({pa.x, 0})), im_color(colors::kPlayArea), 0.0f, 0, 1.5f);
  for (const model::CornerMarker& m : s.table.corner_markers) {
    auto c = m.corners_mm();
    std::vector<Vec2> q;
    for (Vec2 p : c) q.push_back(to_screen(p));
    fill_polygon(dl, q, IM_COL32(200, 200, 200, 255));
    draw_label(dl, to_screen(m.center_mm) - Vec2{3, 7}, IM_COL32(20, 20, 20, 255), fmt::format("{}", m.id));
  }

  auto map = [&](const std::vector<Vec2>& pts, double) {
    std::vector<Vec2> out;
    out.reserve(pts.size());
    for (Vec2 p : pts) out.push_back(to_screen(p));
    return out;
  };
  OverlayStyle style;
  style.fill_disks = true;
  const SceneDrawn scene = draw_scene(dl, s, map, style);
  s.table_text_drawn = {scene.labels, std::nullopt};
  s.table_counters_drawn = draw_game_counters(dl, s, map, style, !as_caption, scene);
  const std::optional<Vec2> move_at = draw_game_move(dl, s, map, style);
  if (as_caption) {
    const Vec2 at{area.x, area.y + area.h - caption.y};
    draw_text_box(dl, at, caption_text);
    if (s.table_counters_drawn) s.table_counters_drawn->box = ScreenRect{at.x, at.y, caption.x, caption.y};
    if (!move_text.empty()) s.table_text_drawn.move_text = ScreenRect{at.x, at.y, caption.x, caption.y};
  } else if (move_at) {
    s.table_text_drawn.move_text = draw_text_block(dl, *move_at, move_text, drawn_boxes(scene, s.table_counters_drawn));
  }
  draw_game_banner(dl, s, area);
  dl->PopClipRect();
  const std::string grid = fmt::format("grid {:.0f} mm", step);
  const ImVec2 grid_size = ImGui::CalcTextSize(grid.c_str());
  const double grid_x = area.x + area.w - static_cast<double>(grid_size.x) - 4;
  if (grid_x >
      static_cast<double>(header_right) + 8)  // a narrow view leaves it out rather than write over the checkbox
    draw_label(dl, Vec2{grid_x, static_cast<double>(header.y + (ImGui::GetFrameHeight() - grid_size.y) / 2)},
               IM_COL32(200, 200, 200, 255), grid);

  ImGui::InvisibleButton("##table_click", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  if (ImGui::IsItemHovered()) {
    Vec2 m = view.table_from_screen(vec(ImGui::GetIO().MousePos));
    bool left = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    bool right = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
    if ((left || right)) {
      if (auto hit = pick_disk_in_table(s.scene, m, 6.0 / view.px_per_mm)) {
        const std::string& name = s.scene.disks[*hit].name();
        left ? s.click_disk(name) : s.click_mover(name);
      }
    }
    if (s.scene.frame >= 0) {
      ImGui::SetTooltip("%s", fmt::format("({:.0f}, {:.0f}) mm", m.x, m.y).c_str());
    }
  }
  ImGui::End();
}

}  // namespace diskref::ui
