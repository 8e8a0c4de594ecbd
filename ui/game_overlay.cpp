// The move just made and the table's warnings, over the camera and table views (--game). Only
// what the referee logged is drawn; nothing here measures or decides.

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include <fmt/format.h>

#include "engine/geometry/outline.h"
#include "referee/call.h"
#include "ui/imgui_draw.h"
#include "ui/scene_overlay.h"

namespace diskref::ui {
namespace {

constexpr Rgb kObserved{60, 200, 255};
constexpr Rgb kBanner{190, 20, 20};
// The referee's default off-path tolerance: a drift beyond it is drawn red (the warning itself
// comes from the referee's log).
const double kOffPathMm = referee::RefereeOptions{}.off_path_tolerance_mm;

std::string verdict_text(const referee::Verdict& v) {
  std::string call = v.call == referee::Call::too_close ? "TOO CLOSE" : v.call == referee::Call::yes ? "YES" : "no";
  return fmt::format("{}{} {}: {:+.1f} ± {:.1f} mm {}{}", v.flip > 0 ? fmt::format("flip {} ", v.flip) : "",
                     referee::to_string(v.kind), v.with, v.margin_mm, v.sigma_mm, call, v.decided ? " (referee)" : "");
}

}  // namespace

namespace {

const rules::ShipState* ship_in_books(const Screen& s, const std::string& id) {
  for (const rules::ShipState& ship : s.game_view->state.ships)
    if (ship.id == id) return &ship;
  return nullptr;
}

ImU32 attack_color(const referee::Observed& o) {
  return im_color(o.verdicts.front().call == referee::Call::yes ? colors::kTemplate : colors::kContact);
}

}  // namespace

std::vector<ColoredLine> game_move_lines(const Screen& s) {
  std::vector<ColoredLine> lines;
  if (!s.game_view) return lines;
  if (s.game_view->last_attack) {
    const referee::Observed& o = s.game_view->last_attack->observed;
    lines.push_back({attack_color(o), fmt::format("{}: {}", o.disk, verdict_text(o.verdicts.front()))});
  }
  if (!s.game_view->last_move) return lines;
  const referee::Observed& o = s.game_view->last_move->observed;
  // The drift of each flip, then the verdicts (the landings are too close together on the screen
  // for a label each).
  std::string drifts;
  bool off = false;
  for (std::size_t i = 0; i < o.drift_mm.size(); ++i) {
    drifts += i ? "  " : "";
    drifts += o.drift_mm[i] ? fmt::format("{}: {:.1f}", i + 1, *o.drift_mm[i]) : fmt::format("{}: -", i + 1);
    off = off || (o.drift_mm[i] && *o.drift_mm[i] > kOffPathMm);
  }
  if (!drifts.empty())
    lines.push_back({off ? im_color(colors::kContact) : im_color(kObserved), o.disk + " drift mm  " + drifts});
  for (const referee::Verdict& v : o.verdicts) {
    // Every move is "inside the play area": only an edge that mattered is drawn (as in the log).
    if (v.kind == referee::VerdictKind::edge && v.call == referee::Call::no) continue;
    bool yes = v.call == referee::Call::yes;
    Rgb c = v.call == referee::Call::too_close ? colors::kVerdictTooClose : yes ? colors::kContact : colors::kVisible;
    lines.push_back({im_color(c), verdict_text(v)});
  }
  return lines;
}

std::optional<Vec2> draw_game_move(ImDrawList* dl, const Screen& s, const TableToScreen& map,
                                   const OverlayStyle& style) {
  if (!s.game_view) return std::nullopt;
  std::optional<Vec2> anchor;
  if (s.game_view->last_attack) {
    // An attack's range: a line between the two disks where the books have them.
    const referee::Observed& o = s.game_view->last_attack->observed;
    const rules::ShipState* from = ship_in_books(s, o.disk);
    const rules::ShipState* to = ship_in_books(s, o.verdicts.front().with);
    if (from != nullptr && to != nullptr) {
      std::vector<Vec2> line = map({from->pose.position, to->pose.position}, 0.0);
      draw_dashed(dl, line, attack_color(o), 2.5f, 8.0f);
      anchor = (line[0] + line[1]) * 0.5;
    }
  }
  if (!s.game_view->last_move) return anchor;
  const referee::Observed& o = s.game_view->last_move->observed;
  const model::DiskSpec* spec = s.registry.find(o.disk);
  if (spec == nullptr) return anchor;
  double z = spec->thickness_mm;
  auto outline = [&](const geom::Pose& p) { return map(geom::outline_polygon({spec->shape, p}, 8.0), z); };

  for (const geom::Pose& legal : o.legal_landings)
    draw_dashed(dl, outline(legal), im_color(colors::kGhost, 210), style.line_px, 6.0f);
  std::vector<Vec2> track;
  if (o.start) track.push_back(o.start->pose.position);
  for (std::size_t i = 0; i < o.landings.size(); ++i) {
    if (!o.landings[i]) continue;
    const geom::Pose& p = o.landings[i]->pose;
    track.push_back(p.position);
    draw_polygon(dl, outline(p), im_color(kObserved, 230), style.line_px);
    Vec2 c = map({p.position}, z)[0];
    std::optional<double> drift = i < o.drift_mm.size() ? o.drift_mm[i] : std::nullopt;
    bool off = drift && *drift > kOffPathMm;
    draw_label(dl, c + Vec2{-4, -8}, off ? im_color(colors::kContact) : im_color(kObserved), fmt::format("{}", i + 1));
  }
  if (track.size() > 1) draw_polygon(dl, map(track, z), im_color(kObserved, 160), 1.5f, false);
  const std::optional<referee::Rest>& end = o.placed ? o.placed : o.end;
  if (end) anchor = map({end->pose.position}, z)[0];
  return anchor;
}

double draw_game_banner(ImDrawList* dl, const Screen& s, const ScreenRect& area) {
  if (!s.game_view || s.game_view->alerts.empty()) return 0;
  // Each warning as the log has it ("WARNING off_path: ..."), with its number, wrapped to the
  // view: a warning cut off at the edge is a warning half read.
  const float wrap = static_cast<float>(std::max(100.0, area.w - 20));
  std::vector<std::string> lines;
  double h = 8;
  for (const GameLogLine& a : s.game_view->alerts) {
    lines.push_back(fmt::format("#{} {}", a.number, a.text));
    h += static_cast<double>(ImGui::CalcTextSize(lines.back().c_str(), nullptr, false, wrap).y) + 4;
  }
  dl->AddRectFilled(im(area.min()), im(Vec2{area.x + area.w, area.y + h}), im_color(kBanner, 235));
  Vec2 at = area.min() + Vec2{10, 4};
  for (const std::string& line : lines) {
    dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), im(at), IM_COL32(255, 255, 255, 255), line.c_str(), nullptr,
                wrap);
    at.y += static_cast<double>(ImGui::CalcTextSize(line.c_str(), nullptr, false, wrap).y) + 4;
  }
  return h;
}

}  // namespace diskref::ui
