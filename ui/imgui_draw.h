#pragma once
// Small drawing helpers shared by the panels (ImGui's draw list with diskref's value types).

#include <optional>
#include <string>
#include <vector>

#include <imgui.h>

#include "referee/call.h"
#include "ui/theme.h"
#include "ui/view_transform.h"

namespace diskref::ui {

inline ImVec2 im(Vec2 v) {
  return {static_cast<float>(v.x), static_cast<float>(v.y)};
}
inline Vec2 vec(ImVec2 v) {
  return {v.x, v.y};
}
inline ImU32 im_color(Rgb c, int alpha = 255) {
  return IM_COL32(c.r, c.g, c.b, alpha);
}
inline ImVec4 im_color4(Rgb c, float alpha = 1.0f) {
  return {c.r / 255.0f, c.g / 255.0f, c.b / 255.0f, alpha};
}

// Starts a fixed panel window at `rect` (no moving, resizing or collapsing: there is no window
// manager, and the layout owns placement).
// `open`: a close button in the title bar that clears it (null: none). A panel that can be closed
// is laid over the others (the dispute from a photo over the views): it comes to the front.
bool begin_panel(const char* title, const ScreenRect& rect, ImGuiWindowFlags extra = 0, bool* open = nullptr);

void draw_polygon(ImDrawList* dl, const std::vector<Vec2>& pts, ImU32 color, float thickness, bool closed = true);
void fill_polygon(ImDrawList* dl, const std::vector<Vec2>& pts, ImU32 color);
// An arrow from `from` to `to` with a small head.
void draw_arrow(ImDrawList* dl, Vec2 from, Vec2 to, ImU32 color, float thickness);
// The draw list's current clip rectangle: what a view may draw in.
ScreenRect clip_rect(ImDrawList* dl);
// Text with a dark outline so it reads on any background.
void draw_label(ImDrawList* dl, Vec2 at, ImU32 color, const std::string& text);
// Lines of text on a dark box beside `anchor` (to its right, left, below or above it: never over
// it; the first of those that fits inside the current clip rectangle and covers none of
// `keep_clear`, else the fitting one covering least), kept inside the clip rectangle: a verdict cut
// off at a view's edge is a verdict half read.
struct ColoredLine {
  ImU32 color;
  std::string text;
};
// Returns where the box went (nothing for no lines).
std::optional<ScreenRect> draw_text_block(ImDrawList* dl, Vec2 anchor, const std::vector<ColoredLine>& lines,
                                          const std::vector<ScreenRect>& keep_clear = {});
// The same lines on their dark box with its top-left corner at `at`; returns the box's size.
Vec2 text_box_size(const std::vector<ColoredLine>& lines);
void draw_text_box(ImDrawList* dl, Vec2 at, const std::vector<ColoredLine>& lines);
// A call's colour: green yes, red no, amber too close.
Rgb verdict_color(referee::Call c);
// A full-width filled banner with the call in large type (`yes` / `no` / "TOO CLOSE TO CALL") and
// `detail` beside it: the live dispute panel's and the Photo tab's, alike. `scale`: the call's type
// size as a multiple of the font's (the detail stays at the font's). Returns where it went.
ScreenRect verdict_banner(referee::Call c, const char* yes, const char* no, const std::string& detail,
                          float scale = 1.0f);
// The same banner in any colour with any word ("CANNOT TELL", "NO RULING").
ScreenRect word_banner(Rgb color, const char* word, const std::string& detail, float scale = 1.0f);

// A dashed polyline (stale disks, ghosts).
void draw_dashed(ImDrawList* dl, const std::vector<Vec2>& pts, ImU32 color, float thickness, float dash_px);

}  // namespace diskref::ui
