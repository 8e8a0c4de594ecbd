// The counters of a drop over the camera and table views (--game): what the referee read from
// them, as its reading says (referee/counter_reading.h), and what a counter asked about lies on or
// against. Nothing here reads or decides.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/geometry/outline.h"
#include "ui/imgui_draw.h"
#include "ui/scene_overlay.h"

namespace diskref::ui {
namespace {

constexpr Rgb kTally{255, 255, 255};
constexpr Rgb kBacking{20, 24, 30};

// `text` in lines no wider than `width` pixels, broken between words.
std::vector<std::string> wrapped(const std::string& text, double width) {
  std::vector<std::string> out;
  std::string line;
  std::size_t at = 0;
  while (at < text.size()) {
    const std::size_t space = text.find(' ', at);
    const std::string word = text.substr(at, space == std::string::npos ? std::string::npos : space - at);
    const std::string longer = line.empty() ? word : line + " " + word;
    if (!line.empty() && static_cast<double>(ImGui::CalcTextSize(longer.c_str()).x) > width) {
      out.push_back(line);
      line = word;
    } else {
      line = longer;
    }
    if (space == std::string::npos) break;
    at = space + 1;
  }
  if (!line.empty()) out.push_back(line);
  return out;
}

// Whether the reading is worth showing now: while its drop waits, and for a few seconds after.
bool showing(const GameView& v) {
  if (!v.counters) return false;
  const bool waiting = v.expecting.need == referee::Expectation::Need::drops && v.expecting.counters;
  return waiting || v.counters->t >= v.t - LiveGame::kAlertShowS;
}

}  // namespace

void draw_game_counters(ImDrawList* dl, const Screen& s, const TableToScreen& map, const OverlayStyle& style) {
  if (!s.game_view || !showing(*s.game_view)) return;
  const referee::CountersSeen& seen = *s.game_view->counters;
  // The drop still waiting shows its latest reading (answers included).
  const referee::CounterReading& reading =
      s.game_view->expecting.counters ? *s.game_view->expecting.counters : seen.reading;
  std::vector<Vec2> placed;
  for (const referee::CounterSeen& c : reading.counters) {
    const model::DiskSpec* spec = s.registry.find(c.name);
    if (spec == nullptr || !c.pose) continue;
    const bool good = (c.readable && c.shows) || c.answered;
    const Rgb colour = good ? colors::kVisible : colors::kStale;
    // What it is asked about, when that is a thing on the table — the disk it overlaps, or what the
    // camera cannot read against it — solid under the counter's own dashes.
    if (!good && !c.why_outline_mm.empty())
      draw_polygon(dl, map(c.why_outline_mm, 0.0), im_color(colors::kContact, 235), style.line_px + 1.5f);
    // A counter standing tilted is drawn about its tag, as high as the tag is: its footprint is
    // not known.
    const double z = c.tilt_deg ? c.tag_z_mm : spec->thickness_mm;
    const std::vector<Vec2> outline = map(geom::outline_polygon({spec->shape, *c.pose}, 6.0), z);
    if (good) draw_polygon(dl, outline, im_color(colour, 235), style.line_px + 1.0f);
    else draw_dashed(dl, outline, im_color(colour, 235), style.line_px + 1.0f, 5.0f);
    const Vec2 centre = map({c.pose->position}, z)[0];
    placed.push_back(centre);
    const std::string text = referee::counter_label(c);
    const ImVec2 size = ImGui::CalcTextSize(text.c_str());
    const double sx = static_cast<double>(size.x), sy = static_cast<double>(size.y);
    const Vec2 at = centre + Vec2{-sx / 2, 12};
    dl->AddRectFilled(im(at + Vec2{-2, -1}), im(at + Vec2{sx + 2, sy + 1}), im_color(kBacking, 190));
    draw_label(dl, at, im_color(colour), text);
  }
  if (placed.empty()) return;
  // The tally and what is asked, beside the counters: right of them, left, below or above,
  // wherever the box fits in the view without covering them; else in the view's top left corner.
  Vec2 lo{1e9, 1e9}, hi{-1e9, -1e9};
  for (const Vec2& p : placed) {
    lo = {std::min(lo.x, p.x - 30), std::min(lo.y, p.y - 30)};
    hi = {std::max(hi.x, p.x + 30), std::max(hi.y, p.y + 40)};
  }
  std::vector<ColoredLine> lines;
  auto add = [&](const std::string& text, Rgb colour) {
    for (std::string& piece : wrapped(text, 420.0)) lines.push_back({im_color(colour), std::move(piece)});
  };
  add(seen.asked ? referee::describe_need(reading.need) : "counters dropped (no drop asked for)", kTally);
  add(reading.tally(), reading.complete() ? colors::kVisible : kTally);
  for (const std::string& q : reading.questions()) add("? " + q, colors::kStale);
  for (const std::string& note : reading.notes) add(note, colors::kLost);
  const Vec2 size = text_box_size(lines);
  const double w = size.x, h = size.y;
  const Vec2 view_lo = vec(dl->GetClipRectMin()) + Vec2{4, 4};
  const Vec2 view_hi = vec(dl->GetClipRectMax()) - Vec2{4, 4};
  auto fits = [&](Vec2 p) { return p.x >= view_lo.x && p.y >= view_lo.y && p.x + w <= view_hi.x && p.y + h <= view_hi.y; };
  const double mid_y = std::clamp((lo.y + hi.y - h) / 2, view_lo.y, std::max(view_lo.y, view_hi.y - h));
  const double mid_x = std::clamp((lo.x + hi.x - w) / 2, view_lo.x, std::max(view_lo.x, view_hi.x - w));
  // Else the view's corner where it covers the fewest counters.
  auto covered = [&](Vec2 p) {
    return std::count_if(placed.begin(), placed.end(), [&](const Vec2& c) {
      return c.x > p.x - 30 && c.x < p.x + w + 30 && c.y > p.y - 30 && c.y < p.y + h + 40;
    });
  };
  Vec2 at = view_lo;
  for (const Vec2& corner : {Vec2{view_hi.x - w, view_lo.y}, Vec2{view_lo.x, view_hi.y - h}, Vec2{view_hi.x - w, view_hi.y - h}})
    if (covered(corner) < covered(at)) at = corner;
  for (const Vec2& candidate : {Vec2{hi.x + 10, mid_y}, Vec2{lo.x - 10 - w, mid_y}, Vec2{mid_x, hi.y + 6}, Vec2{mid_x, lo.y - 6 - h}})
    if (fits(candidate)) {
      at = candidate;
      break;
    }
  draw_text_box(dl, at, lines);
}

}  // namespace diskref::ui
