#include "ui/imgui_draw.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string_view>

#include "ui/label_placement.h"
#include "ui/panel_help.h"

namespace diskref::ui {

namespace {

// "(?)" at the right of the current window's title bar, its help in a tooltip when the pointer is
// over it. Drawn over the title bar, so that it takes no room from the panel's content.
void title_help(std::string_view help, bool beside_close) {
  const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
  const float bar = ImGui::GetFontSize() + 2 * ImGui::GetStyle().FramePadding.y;
  const ImVec2 text = ImGui::CalcTextSize("(?)");
  // Left of the close button when the panel has one.
  const float right = beside_close ? bar + 4 : 8;
  const ImVec2 a(pos.x + size.x - text.x - right, pos.y + (bar - text.y) / 2), b(a.x + text.x, a.y + text.y);
  ImDrawList* dl = ImGui::GetWindowDrawList();
  dl->PushClipRect(pos, ImVec2(pos.x + size.x, pos.y + bar), false);
  dl->AddText(a, IM_COL32(200, 205, 215, 255), "(?)");
  dl->PopClipRect();
  if (ImGui::IsMouseHoveringRect(a, b, false)) {
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28);
    ImGui::TextUnformatted(help.data(), help.data() + help.size());
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
  }
}

}  // namespace

bool begin_panel(const char* title, const ScreenRect& rect, ImGuiWindowFlags extra, bool* open) {
  ImGui::SetNextWindowPos(im(rect.min()), ImGuiCond_Always);
  ImGui::SetNextWindowSize(ImVec2(static_cast<float>(rect.w), static_cast<float>(rect.h)), ImGuiCond_Always);
  // The layout's panels stay behind (ImGui puts a new window with NoBringToFrontOnFocus at the back);
  // a closable one lies over them.
  const ImGuiWindowFlags order = open != nullptr ? 0 : ImGuiWindowFlags_NoBringToFrontOnFocus;
  const bool shown = ImGui::Begin(title, open,
                                  ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse |
                                      ImGuiWindowFlags_NoSavedSettings | order | extra);
  // Every panel says what it is (ui/panel_help.h), by the id after "###" in its title.
  const std::string_view t(title);
  if (const auto at = t.find("###"); shown && at != std::string_view::npos && !(extra & ImGuiWindowFlags_NoTitleBar))
    if (const std::string_view help = panel_help(t.substr(at + 3)); !help.empty()) title_help(help, open != nullptr);
  return shown;
}

Rgb verdict_color(referee::Call c) {
  switch (c) {
    case referee::Call::yes:
      return colors::kVerdictYes;
    case referee::Call::no:
      return colors::kVerdictNo;
    case referee::Call::too_close:
      return colors::kVerdictTooClose;
  }
  return colors::kVerdictTooClose;
}

ScreenRect verdict_banner(referee::Call c, const char* yes, const char* no, const std::string& detail, float scale) {
  return word_banner(verdict_color(c),
                     c == referee::Call::yes  ? yes
                     : c == referee::Call::no ? no
                                              : "TOO CLOSE TO CALL",
                     detail, scale);
}

ScreenRect word_banner(Rgb color, const char* word, const std::string& detail, float scale) {
  ImDrawList* dl = ImGui::GetWindowDrawList();
  const ImVec2 p = ImGui::GetCursorScreenPos();
  const float w = ImGui::GetContentRegionAvail().x;
  const float line = ImGui::GetTextLineHeight(), big = ImGui::GetFontSize() * scale;
  const float h = std::max(line * 1.9f, big + line * 0.9f);
  dl->AddRectFilled(p, ImVec2(p.x + w, p.y + h), im_color(color), 4.0f);
  const float pad = (h - big) / 2;
  dl->AddText(ImGui::GetFont(), big, ImVec2(p.x + 8, p.y + pad), IM_COL32(255, 255, 255, 255), word);
  const float ww = ImGui::GetFont()->CalcTextSizeA(big, FLT_MAX, 0.0f, word).x;
  // The detail beside the call when it fits, else under the banner.
  const float dw = ImGui::CalcTextSize(detail.c_str()).x;
  const bool beside = 8 + ww + 14 + dw <= w;
  if (beside)
    dl->AddText(ImVec2(p.x + 8 + ww + 14, p.y + (h - line) / 2), IM_COL32(240, 240, 240, 255), detail.c_str());
  ImGui::Dummy(ImVec2(w, h + 2));
  if (!beside && !detail.empty()) ImGui::TextUnformatted(detail.c_str());
  return {static_cast<double>(p.x), static_cast<double>(p.y), static_cast<double>(w), static_cast<double>(h)};
}

void draw_polygon(ImDrawList* dl, const std::vector<Vec2>& pts, ImU32 color, float thickness, bool closed) {
  if (pts.size() < 2) return;
  std::vector<ImVec2> p;
  p.reserve(pts.size());
  for (Vec2 v : pts) p.push_back(im(v));
  dl->AddPolyline(p.data(), static_cast<int>(p.size()), color, closed ? ImDrawFlags_Closed : ImDrawFlags_None,
                  thickness);
}

void fill_polygon(ImDrawList* dl, const std::vector<Vec2>& pts, ImU32 color) {
  if (pts.size() < 3) return;
  std::vector<ImVec2> p;
  p.reserve(pts.size());
  for (Vec2 v : pts) p.push_back(im(v));
  dl->AddConvexPolyFilled(p.data(), static_cast<int>(p.size()), color);
}

void draw_arrow(ImDrawList* dl, Vec2 from, Vec2 to, ImU32 color, float thickness) {
  Vec2 d = to - from;
  double len = geom::length(d);
  if (len < 1e-6) return;
  Vec2 u = d / len;
  Vec2 n = geom::perp(u);
  double head = std::min(len * 0.45, 4.0 + 2.0 * static_cast<double>(thickness));
  dl->AddLine(im(from), im(to - u * (head * 0.5)), color, thickness);
  dl->AddTriangleFilled(im(to), im(to - u * head + n * (head * 0.55)), im(to - u * head - n * (head * 0.55)), color);
}

void draw_label(ImDrawList* dl, Vec2 at, ImU32 color, const std::string& text) {
  ImVec2 p = im(at);
  ImU32 shadow = IM_COL32(0, 0, 0, 220);
  for (int dx = -1; dx <= 1; ++dx) {
    for (int dy = -1; dy <= 1; ++dy) {
      if (dx != 0 || dy != 0)
        dl->AddText(ImVec2(p.x + static_cast<float>(dx), p.y + static_cast<float>(dy)), shadow, text.c_str());
    }
  }
  dl->AddText(p, color, text.c_str());
}

namespace {
constexpr double kTextPad = 4;
double text_line_height() {
  return static_cast<double>(ImGui::GetTextLineHeight()) + 1;
}
}  // namespace

Vec2 text_box_size(const std::vector<ColoredLine>& lines) {
  double w = 0;
  for (const ColoredLine& l : lines) w = std::max(w, static_cast<double>(ImGui::CalcTextSize(l.text.c_str()).x));
  return {w + 2 * kTextPad, text_line_height() * static_cast<double>(lines.size()) + 2 * kTextPad};
}

void draw_text_box(ImDrawList* dl, Vec2 at, const std::vector<ColoredLine>& lines) {
  if (lines.empty()) return;
  const Vec2 size = text_box_size(lines);
  dl->AddRectFilled(im(at), im(at + size), IM_COL32(12, 14, 18, 200), 4.0f);
  Vec2 line_at = at + Vec2{kTextPad, kTextPad};
  for (const ColoredLine& l : lines) {
    draw_label(dl, line_at, l.color, l.text);
    line_at.y += text_line_height();
  }
}

ScreenRect clip_rect(ImDrawList* dl) {
  const Vec2 lo = vec(dl->GetClipRectMin()), hi = vec(dl->GetClipRectMax());
  return {lo.x, lo.y, hi.x - lo.x, hi.y - lo.y};
}

std::optional<ScreenRect> draw_text_block(ImDrawList* dl, Vec2 anchor, const std::vector<ColoredLine>& lines,
                                          const std::vector<ScreenRect>& keep_clear) {
  if (lines.empty()) return std::nullopt;
  const Vec2 size = text_box_size(lines);
  constexpr double kGap = 20;  // clear of the disk the block speaks of
  const ScreenRect view = clip_rect(dl);
  const Vec2 lo = view.min(), hi = view.max();
  // Right of it, left, below, above; then the same farther out and slid along that side. Below or
  // above may also slide sideways into the view; beside it may not (it would cover it).
  auto slid = [&](double x) { return std::clamp(x, lo.x, std::max(lo.x, hi.x - size.x)); };
  std::vector<Vec2> spots;
  for (const double reach : {kGap, kGap + 30, kGap + 60}) {
    for (const double along : {0.0, -1.0, 1.0}) {
      const double dy = along * (size.y * 0.5 + 12), dx = along * size.x * 0.4;
      spots.push_back({anchor.x + reach, anchor.y - size.y * 0.5 + dy});
      spots.push_back({anchor.x - reach - size.x, anchor.y - size.y * 0.5 + dy});
      spots.push_back({slid(anchor.x - size.x * 0.5 + dx), anchor.y + reach});
      spots.push_back({slid(anchor.x - size.x * 0.5 + dx), anchor.y - reach - size.y});
    }
  }
  // Where none fits, right of it as far as the view allows.
  Vec2 at = least_covering_spot(spots, size, view, keep_clear).value_or(spots.front());
  at.x = std::clamp(at.x, lo.x, std::max(lo.x, hi.x - size.x));
  at.y = std::clamp(at.y, lo.y, std::max(lo.y, hi.y - size.y));
  draw_text_box(dl, at, lines);
  return ScreenRect{at.x, at.y, size.x, size.y};
}

void draw_dashed(ImDrawList* dl, const std::vector<Vec2>& pts, ImU32 color, float thickness, float dash_px) {
  if (pts.size() < 2) return;
  bool on = true;
  double left = dash_px;
  for (std::size_t i = 0; i < pts.size(); ++i) {
    Vec2 a = pts[i];
    Vec2 b = pts[(i + 1) % pts.size()];
    double seg = geom::distance(a, b);
    double done = 0;
    while (done < seg) {
      double step = std::min(left, seg - done);
      Vec2 p0 = a + (b - a) * (done / seg);
      Vec2 p1 = a + (b - a) * ((done + step) / seg);
      if (on) dl->AddLine(im(p0), im(p1), color, thickness);
      done += step;
      left -= step;
      if (left <= 0) {
        on = !on;
        left = dash_px;
      }
    }
  }
}

}  // namespace diskref::ui
