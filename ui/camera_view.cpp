// The camera view: the frame as the camera sees it, with the table drawn over it where the
// calibration says it is.

#include <algorithm>
#include <string>

#include <fmt/format.h>

#include "ui/calibration_quality.h"
#include "ui/camera_overlay.h"
#include "ui/hit_test.h"
#include "ui/imgui_draw.h"
#include "ui/panels.h"
#include "ui/scene_overlay.h"

namespace diskref::ui {

void draw_camera_view(Screen& s, const ScreenRect& rect) {
  if (!begin_panel("Camera view###camera", rect)) {
    ImGui::End();
    return;
  }
  ImVec2 origin = ImGui::GetCursorScreenPos();
  ImVec2 avail = ImGui::GetContentRegionAvail();
  ScreenRect area{origin.x, origin.y, avail.x, avail.y};
  ImDrawList* dl = ImGui::GetWindowDrawList();

  if (!s.snap || s.texture == 0) {
    ImGui::TextUnformatted("Waiting for the first frame...");
    ImGui::End();
    return;
  }
  const std::optional<calib::CameraPose>& pose = s.snap->result.table_pose;
  // Fit the table (play area and corner markers) to the view when its place in the image is
  // known: the disks are then as large as the view allows. Otherwise the whole image.
  ImageViewTransform view = fit_image(s.texture_size, area);
  if (pose && s.fit_camera_to_table) {
    std::vector<Vec2> around;
    for (const model::CornerMarker& m : s.table.corner_markers) {
      for (Vec2 c : m.corners_mm()) around.push_back(c);
    }
    ImageViewTransform unit;  // image pixels as they are
    std::vector<Vec2> px = screen_from_table(*pose, unit, around, 0.0);
    Vec2 lo = px.front();
    Vec2 hi = px.front();
    for (Vec2 p : px) {
      lo = {std::min(lo.x, p.x), std::min(lo.y, p.y)};
      hi = {std::max(hi.x, p.x), std::max(hi.y, p.y)};
    }
    Vec2 pad = (hi - lo) * 0.03;
    view = fit_image_region(s.texture_size, lo - pad - Vec2{0.5, 0.5}, hi + pad - Vec2{0.5, 0.5}, area);
  }
  s.camera_view_drawn = view;
  ScreenRect img = view.image_rect();
  dl->PushClipRect(im(area.min()), im(area.max()), true);
  dl->AddImage(reinterpret_cast<ImTextureID>(static_cast<std::uintptr_t>(s.texture)), im(img.min()), im(img.max()));
  // From here on `img` is the part of the image on the screen.
  img = ScreenRect{std::max(img.x, area.x), std::max(img.y, area.y), 0, 0};
  img.w = std::min(view.image_rect().max().x, area.max().x) - img.x;
  img.h = std::min(view.image_rect().max().y, area.max().y) - img.y;
  SceneDrawn scene;  // its outlines are what a click picks
  s.camera_counters_drawn.reset();
  s.camera_text_drawn = {};
  if (pose) {
    auto map = [&](const std::vector<Vec2>& pts, double z) { return screen_from_table(*pose, view, pts, z); };
    draw_polygon(dl, map(play_area_edge_mm(s.table.play_area_mm, 24), 0.0), im_color(colors::kPlayArea, 200), 1.5f);
    scene = draw_scene(dl, s, map, OverlayStyle{});
    s.camera_text_drawn = {scene.labels, std::nullopt};
    // Not over the status line along the picture's bottom.
    dl->PushClipRect(im(img.min()), im(img.max() - Vec2{0, 26}), true);
    s.camera_counters_drawn = draw_game_counters(dl, s, map, OverlayStyle{}, true, scene);
    dl->PopClipRect();
    if (std::optional<Vec2> at = draw_game_move(dl, s, map, OverlayStyle{})) {
      s.camera_text_drawn.move_text =
          draw_text_block(dl, *at, game_move_lines(s), drawn_boxes(scene, s.camera_counters_drawn));
    }
  }
  if (s.show_detections) {
    for (const OverlayTag& t : s.snap->result.detections) {
      std::vector<Vec2> q;
      for (const cv::Point2d& c : t.corners_px) q.push_back(view.screen_from_image({c.x, c.y}));
      draw_polygon(dl, q, im_color(colors::kDetection, 200), 1.0f);
    }
  }
  // Calibration trouble is shown where people look, not only in its tab.
  Vec2 warn_at = img.min() + Vec2{8, 6 + draw_game_banner(dl, s, img)};
  s.camera_warnings_drawn = calibration_warnings(pose, s.lens_rms(), s.camera_moved);
  s.camera_warnings_drawn.insert(s.camera_warnings_drawn.end(), s.standing_warnings.begin(), s.standing_warnings.end());
  // Wrapped to the view: a warning cut off at the edge is a warning half read.
  const float wrap = static_cast<float>(std::max(100.0, img.w - 24));
  for (const std::string& w : s.camera_warnings_drawn) {
    // On a dark box: a warning about the camera is read over any picture.
    const std::string text = "WARNING: " + w;
    const ImVec2 size = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap);
    dl->AddRectFilled(im(warn_at - Vec2{4, 2}),
                      im(warn_at + Vec2{static_cast<double>(size.x) + 4, static_cast<double>(size.y) + 2}),
                      IM_COL32(60, 20, 10, 230));
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), im(warn_at), im_color(colors::kStale), text.c_str(), nullptr,
                wrap);
    warn_at.y += static_cast<double>(size.y) + 6;
  }
  std::string status = fmt::format("frame {}   t {:.2f} s   {}", s.snap->source.index, s.snap->source.t,
                                   s.worker ? s.worker->producer_description() : "");
  draw_label(dl, Vec2{img.x + 8, img.y + img.h - 22}, IM_COL32(235, 235, 235, 255), status);
  dl->PopClipRect();

  // Clicks: left picks disks for the dispute tool, right picks the ship to move.
  ImGui::SetCursorScreenPos(origin);
  ImGui::InvisibleButton("##camera_click", avail, ImGuiButtonFlags_MouseButtonLeft | ImGuiButtonFlags_MouseButtonRight);
  if (pose && ImGui::IsItemHovered()) {
    Vec2 m = vec(ImGui::GetIO().MousePos);
    bool left = ImGui::IsMouseClicked(ImGuiMouseButton_Left);
    bool right = ImGui::IsMouseClicked(ImGuiMouseButton_Right);
    if (left || right) {
      if (auto hit = pick_outline(scene.outlines, m, 6.0)) {
        const std::string& name = s.scene.disks[*hit].name();
        left ? s.click_disk(name) : s.click_mover(name);
      }
    }
  }
  ImGui::End();
}

}  // namespace diskref::ui
