// The counters of a drop over the camera and table views (--game): what the referee read from
// them, as its reading says (referee/counter_reading.h), and what a counter asked about lies on or
// against. Nothing here reads or decides.

#include <algorithm>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/geometry/outline.h"
#include "engine/geometry/vec2.h"
#include "ui/imgui_draw.h"
#include "ui/label_placement.h"
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

}  // namespace

std::vector<ColoredLine> counter_reading_lines(const Screen& s, double wrap_px) {
  std::vector<ColoredLine> lines;
  const referee::CounterReading* reading = shown_counter_reading(s);
  if (reading == nullptr) return lines;
  auto add = [&](const std::string& text, Rgb colour) {
    for (std::string& piece : wrapped(text, wrap_px)) lines.push_back({im_color(colour), std::move(piece)});
  };
  add(s.game_view->counters->asked ? referee::describe_need(reading->need) : "counters dropped (no drop asked for)",
      kTally);
  add(reading->tally(), reading->complete() ? colors::kVisible : kTally);
  for (const std::string& q : reading->questions()) add("? " + q, colors::kStale);
  for (const std::string& note : reading->notes) add(note, colors::kLost);
  return lines;
}

std::optional<Screen::CountersDrawn> draw_game_counters(ImDrawList* dl, const Screen& s, const TableToScreen& map,
                                                        const OverlayStyle& style, bool with_box,
                                                        const SceneDrawn& scene) {
  const referee::CounterReading* shown = shown_counter_reading(s);
  if (shown == nullptr) return std::nullopt;
  const referee::CounterReading& reading = *shown;
  Screen::CountersDrawn drawn;
  // Each counter outlined; their labels placed after, all together, so that none covers another.
  struct Label {
    std::string name;
    Vec2 centre;
    std::string text;
    Rgb colour;
  };
  std::vector<Label> labels;
  std::vector<ScreenRect> footprints;  // each counter's outline's box, kept clear of other labels
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
    if (good)
      draw_polygon(dl, outline, im_color(colour, 235), style.line_px + 1.0f);
    else
      draw_dashed(dl, outline, im_color(colour, 235), style.line_px + 1.0f, 5.0f);
    footprints.push_back(bounding_rect(outline));
    labels.push_back({c.name, map({c.pose->position}, z)[0], referee::counter_label(c), colour});
  }
  if (labels.empty()) return std::nullopt;
  const ScreenRect view = clip_rect(dl);
  std::vector<LabelWish> wishes;
  for (std::size_t i = 0; i < labels.size(); ++i)
    wishes.push_back(
        {labels[i].centre, vec(ImGui::CalcTextSize(labels[i].text.c_str())) + Vec2{4, 2}, 12, static_cast<long>(i)});
  // Clear of the other disks and their names too.
  std::vector<ScreenRect> keep_clear = footprints;
  for (std::size_t i = 0; i < scene.outlines.size() && i < s.scene.disks.size(); ++i) {
    const bool of_drop =
        std::any_of(labels.begin(), labels.end(), [&](const Label& l) { return l.name == s.scene.disks[i].name(); });
    if (!of_drop && !scene.outlines[i].empty()) keep_clear.push_back(bounding_rect(scene.outlines[i]));
  }
  for (const NamedRect& label : scene.labels) keep_clear.push_back(label.rect);
  keep_clear.insert(keep_clear.end(), scene.markers.begin(), scene.markers.end());
  const std::vector<Vec2> at = place_labels(wishes, view, keep_clear);
  for (std::size_t i = 0; i < labels.size(); ++i) {
    const ScreenRect r{at[i].x, at[i].y, wishes[i].size.x, wishes[i].size.y};
    // Placed away from its counter: a thin line from the counter to its label's nearest point.
    const Vec2 near{std::clamp(labels[i].centre.x, r.x, r.x + r.w), std::clamp(labels[i].centre.y, r.y, r.y + r.h)};
    if (geom::distance(near, labels[i].centre) > wishes[i].reach + 2)
      dl->AddLine(im(labels[i].centre), im(near), im_color(labels[i].colour, 160), 1.0f);
    dl->AddRectFilled(im(r.min()), im(r.max()), im_color(kBacking, 190));
    draw_label(dl, r.min() + Vec2{2, 1}, im_color(labels[i].colour), labels[i].text);
    drawn.labels.push_back({labels[i].name, r});
  }
  if (!with_box) return drawn;
  // The tally and what is asked, beside the counters: right of them, left, below or above, else
  // in a corner of the view; the first that fits in the view covering neither a counter, a label,
  // another disk nor its name, else the one covering least.
  std::vector<ScreenRect> occupied = footprints;
  for (const NamedRect& label : drawn.labels) occupied.push_back(label.rect);
  Vec2 lo{1e9, 1e9}, hi{-1e9, -1e9};
  for (const ScreenRect& r : occupied) {
    lo = {std::min(lo.x, r.x), std::min(lo.y, r.y)};
    hi = {std::max(hi.x, r.x + r.w), std::max(hi.y, r.y + r.h)};
  }
  occupied.insert(occupied.end(), keep_clear.begin() + static_cast<long>(footprints.size()), keep_clear.end());
  const std::vector<ColoredLine> lines = counter_reading_lines(s, 420.0);
  const Vec2 size = text_box_size(lines);
  const double w = size.x, h = size.y;
  const Vec2 view_lo = view.min() + Vec2{4, 4}, view_hi = view.max() - Vec2{4, 4};
  const double mid_y = std::clamp((lo.y + hi.y - h) / 2, view_lo.y, std::max(view_lo.y, view_hi.y - h));
  const double mid_x = std::clamp((lo.x + hi.x - w) / 2, view_lo.x, std::max(view_lo.x, view_hi.x - w));
  const Vec2 box_at =
      least_covering_spot({{hi.x + 10, mid_y},
                           {lo.x - 10 - w, mid_y},
                           {mid_x, hi.y + 6},
                           {mid_x, lo.y - 6 - h},
                           view_lo,
                           {view_hi.x - w, view_lo.y},
                           {view_lo.x, view_hi.y - h},
                           {view_hi.x - w, view_hi.y - h}},
                          size, {view_lo.x, view_lo.y, view_hi.x - view_lo.x, view_hi.y - view_lo.y}, occupied)
          .value_or(view_lo);
  draw_text_box(dl, box_at, lines);
  drawn.box = ScreenRect{box_at.x, box_at.y, w, h};
  return drawn;
}

}  // namespace diskref::ui
