// The live feed's address for phones (net::FeedAccess): the URL with its token and its QR code,
// drawn module by module, dark on white, with the standard's quiet zone, at a whole number of
// pixels a module (a code drawn between pixels blurs, and phones read it worse).
#include <algorithm>
#include <cmath>

#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

// Pixels a module: the code (with its quiet zone) at most half the view's height and width, at
// least 3 pixels a module (under that, a phone at arm's length misses modules).
float feed_qr_module_px(int modules, const ScreenRect& over) {
  const double side = std::min(over.h / 2.0, over.w / 2.0);
  return static_cast<float>(std::clamp(std::floor(side / modules), 3.0, 12.0));
}

void draw_feed_qr(Screen& s, const net::QrMatrix& qr, float px) {
  const int quiet = net::QrMatrix::kQuietZone, modules = qr.width + 2 * quiet;
  const float side = px * static_cast<float>(modules);
  const ImVec2 at = ImGui::GetCursorScreenPos();
  ImGui::Dummy(ImVec2(side, side));
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->AddRectFilled(at, ImVec2(at.x + side, at.y + side), IM_COL32(255, 255, 255, 255));
  // A row's dark modules side by side as one rectangle: fewer rectangles, no seams between them.
  for (int y = 0; y < qr.width; ++y)
    for (int x = 0; x < qr.width;) {
      if (!qr.is_dark(x, y)) {
        ++x;
        continue;
      }
      int end = x;
      while (end < qr.width && qr.is_dark(end, y)) ++end;
      const float x0 = at.x + px * static_cast<float>(x + quiet), y0 = at.y + px * static_cast<float>(y + quiet);
      dl->AddRectFilled(ImVec2(x0, y0), ImVec2(x0 + px * static_cast<float>(end - x), y0 + px), IM_COL32(0, 0, 0, 255));
      x = end;
    }
  s.feed_qr_drawn = ScreenRect{static_cast<double>(at.x), static_cast<double>(at.y), static_cast<double>(side),
                               static_cast<double>(side)};
}

}  // namespace

void draw_feed_access(Screen& s, const ScreenRect& over) {
  s.feed_qr_drawn.reset();
  if (!s.game || !s.game->feed_access()) return;
  const net::FeedAccess& a = *s.game->feed_access();
  if (!ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed('Q', false)) s.show_feed_access = !s.show_feed_access;
  if (!s.show_feed_access || a.qr.width == 0) return;
  const float px = feed_qr_module_px(a.qr.width + 2 * net::QrMatrix::kQuietZone, over);
  const float side = px * static_cast<float>(a.qr.width + 2 * net::QrMatrix::kQuietZone);
  const ImGuiStyle& style = ImGui::GetStyle();
  // Wide enough for its title and a few words a line of the address, the code centred.
  const float width = std::max(side, ImGui::GetFontSize() * 13) + 2 * style.WindowPadding.x;
  // Over the table view's top right corner, where it hides the least of the play area's edge.
  ImGui::SetNextWindowPos(ImVec2(static_cast<float>(over.x + over.w) - width - 8, static_cast<float>(over.y) + 8),
                          ImGuiCond_Appearing);
  ImGui::SetNextWindowSize(ImVec2(width, 0), ImGuiCond_Always);
  if (ImGui::Begin("Phones: scan to follow###feed_access", &s.show_feed_access,
                   ImGuiWindowFlags_NoSavedSettings | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoResize |
                       ImGuiWindowFlags_NoFocusOnAppearing)) {
    const float inner = width - 2 * style.WindowPadding.x;
    ImGui::SetCursorPosX(ImGui::GetCursorPosX() + (inner - side) / 2);
    draw_feed_qr(s, a.qr, px);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + inner);
    ImGui::TextDisabled(a.token_needed ? "the overlay, with its token:" : "the overlay (open to all):");
    ImGui::TextUnformatted(a.url.c_str());
    ImGui::TextDisabled("[Q] hide");
    ImGui::PopTextWrapPos();
  }
  ImGui::End();
}

}  // namespace diskref::ui
