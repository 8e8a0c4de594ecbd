// The dispute tool: range, overlap and a template on the table for two chosen disks; the flip path
// for a chosen ship and speed. Every verdict comes with its margin and the measurement's
// uncertainty, and says "too close to call" when the margin is inside it.

#include <string>

#include <fmt/format.h>

#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

// A combo over the disks on the table (those with a pose), optionally restricted to ships.
void disk_combo(const char* label, const Screen& s, std::optional<std::string>& chosen, bool ships_only, float width) {
  ImGui::SetNextItemWidth(width);
  const char* preview = chosen ? chosen->c_str() : "(click a disk)";
  if (ImGui::BeginCombo(label, preview)) {
    if (ImGui::Selectable("(none)", !chosen)) chosen.reset();
    for (const referee::SeenDisk& d : s.scene.disks) {
      if (!d.has_pose() || (ships_only && d.spec->kind != model::DiskKind::ship)) continue;
      if (ImGui::Selectable(d.name().c_str(), chosen == d.name())) chosen = d.name();
    }
    ImGui::EndCombo();
  }
}

const char* call_word(referee::Call c, const char* yes, const char* no) {
  return c == referee::Call::yes ? yes : c == referee::Call::no ? no : "too close to call";
}

void pair_section(Screen& s) {
  float w = ImGui::GetContentRegionAvail().x;
  ImGui::TextColored(im_color4(colors::kSelectA), "A");
  ImGui::SameLine();
  disk_combo("##a", s, s.choice.a, false, w * 0.34f);
  ImGui::SameLine();
  ImGui::TextColored(im_color4(colors::kSelectB), "B");
  ImGui::SameLine();
  disk_combo("##b", s, s.choice.b, false, w * 0.34f);
  ImGui::SameLine();
  if (ImGui::SmallButton("swap")) std::swap(s.choice.a, s.choice.b);

  ImGui::SetNextItemWidth(w * 0.55f);
  std::vector<const char*> names;
  for (const auto& t : s.templates) names.push_back(t.label.c_str());
  ImGui::Combo("template", &s.choice.template_index, names.data(), static_cast<int>(names.size()));
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.18f);
  ImGui::SliderInt("x reach", &s.choice.reach_multiplier, 1, 4);

  if (!s.pair) {
    ImGui::TextDisabled(
        "%s", s.pair_problem.empty()
                  ? "Left-click two disks in either view (A, then B)."
                  : (s.choice.a->c_str() + std::string(" / ") + s.choice.b->c_str() + ": " + s.pair_problem).c_str());
    return;
  }
  const referee::PairVerdict& p = *s.pair;
  double band = referee::kCallSigmas * p.sigma_mm;
  verdict_banner(p.in_range, "IN RANGE", "OUT OF RANGE",
                 fmt::format("margin {:+.2f} mm \u00b1 {:.2f}", p.range.margin_mm, band));
  ImGui::Text("gap %.2f mm   reach %.2f mm   margin %+.2f mm", p.range.gap_mm, p.range.reach_mm, p.range.margin_mm);
  ImGui::TextDisabled("uncertainty \u00b1%.2f mm (%.0f sigma; sigma A %.2f, B %.2f mm)", band, referee::kCallSigmas,
                      s.scene.disks[p.a].track.sigma_mm, s.scene.disks[p.b].track.sigma_mm);
  ImGui::Text("Overlap: %s   separation %+.2f mm", call_word(p.overlapping, "overlapping", "no"),
              p.separation.distance);
  for (const referee::TemplateTouch& t : p.templates) {
    ImGui::TextColored(im_color4(verdict_color(t.touches_both)), "Template %s on the table: %s",
                       t.template_name.c_str(), call_word(t.touches_both, "touches both", "does not touch both"));
    ImGui::TextDisabled("  to A %+.2f mm (%s), to B %+.2f mm (%s)", t.check.separation_from_mm,
                        call_word(t.touches_a, "touches", "apart"), t.check.separation_to_mm,
                        call_word(t.touches_b, "touches", "apart"));
  }
}

void flip_section(Screen& s) {
  float w = ImGui::GetContentRegionAvail().x;
  ImGui::TextUnformatted("Ship");
  ImGui::SameLine();
  disk_combo("##mover", s, s.choice.mover, true, w * 0.40f);
  ImGui::SameLine();
  ImGui::SetNextItemWidth(w * 0.30f);
  ImGui::SliderInt("speed (flips)", &s.choice.flips, 1, 8);
  if (!s.flip) {
    ImGui::TextDisabled("Right-click a ship in either view to see its flip path.");
    return;
  }
  const referee::FlipVerdict& f = *s.flip;
  const geom::FlipOutput& path = f.path;
  if (!path.landings.empty()) {
    const geom::Pose& end = path.landings.back();
    ImGui::Text("ends at (%.1f, %.1f) mm, heading %.1f deg", end.position.x, end.position.y, end.heading_deg());
  }
  if (path.torpedo_contacts.empty()) {
    if (f.nearest_torpedo) {
      ImGui::TextColored(im_color4(f.nearest_torpedo->overlapping == referee::Call::too_close ? colors::kVerdictTooClose
                                                                                              : colors::kVisible),
                         "torpedo contacts: %s (nearest %s, %+.2f mm)",
                         f.nearest_torpedo->overlapping == referee::Call::too_close ? "too close to call" : "none",
                         f.nearest_torpedo->disk.c_str(), f.nearest_torpedo->separation_mm);
    } else {
      ImGui::TextUnformatted("torpedo contacts: none (no torpedoes)");
    }
  } else {
    std::string text = "torpedo contacts:";
    for (const auto& c : path.torpedo_contacts) {
      text += fmt::format(" {} at flip {} ({:+.1f} mm);", c.disk, c.flip, c.separation_mm);
    }
    ImGui::TextColored(im_color4(colors::kContact), "%s", text.c_str());
  }
  if (f.at_end.empty()) {
    ImGui::TextUnformatted("ends overlapping: nothing");
  } else {
    for (const referee::NearMiss& n : f.at_end) {
      ImGui::TextColored(
          im_color4(verdict_color(n.overlapping == referee::Call::yes ? referee::Call::no : referee::Call::too_close)),
          "ends overlapping %s: %s (%+.2f mm)", n.disk.c_str(), call_word(n.overlapping, "yes", "no"), n.separation_mm);
    }
  }
  ImGui::TextColored(
      im_color4(f.leaves_play_area == referee::Call::no ? colors::kVisible : verdict_color(referee::Call::no)),
      "leaves the play area: %s (edge margin %+.1f mm)", call_word(f.leaves_play_area, "yes", "no"),
      path.play_area_margin_mm);
}

}  // namespace

void draw_dispute_panel(Screen& s, const ScreenRect& rect) {
  if (!begin_panel("Dispute###dispute", rect)) {
    ImGui::End();
    return;
  }
  pair_section(s);
  ImGui::Separator();
  flip_section(s);
  // The same questions from a photo of the table (a phone's): its own panel over the views.
  if (s.photo != nullptr) {
    ImGui::Separator();
    if (ImGui::Button("From a photo...")) s.show_photo = true;
    ImGui::SameLine();
    ImGui::TextDisabled("or drop a photo on the window");
  }
  ImGui::End();
}

}  // namespace diskref::ui
