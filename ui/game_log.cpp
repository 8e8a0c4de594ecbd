// The game log (--game): every entry of the referee's log with its number (what a correction
// names), one line each (referee::entry_text); warnings amber, refusals red, corrections blue.
// An entry with verdicts read from the table can be decided again from here.

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

Rgb tone_color(GameLogLine::Tone t) {
  switch (t) {
    case GameLogLine::Tone::warning:
      return colors::kStale;
    case GameLogLine::Tone::refusal:
      return Rgb{255, 120, 110};
    case GameLogLine::Tone::correction:
      return colors::kSelectB;
    case GameLogLine::Tone::info:
      break;
  }
  return Rgb{225, 225, 225};
}

void redecide_popup(Screen& s, const GameLogLine& line) {
  if (!ImGui::BeginPopup("redecide")) return;
  ImGui::Text("Entry #%zu: decide again", line.number);
  for (std::size_t i = 0; i < line.verdicts.size(); ++i) {
    const referee::Verdict& v = line.verdicts[i];
    ImGui::PushID(static_cast<int>(i));
    ImGui::TextUnformatted(
        fmt::format("{} with {}: {:+.1f} ± {:.1f} mm", referee::to_string(v.kind), v.with, v.margin_mm, v.sigma_mm)
            .c_str());
    ImGui::SameLine();
    if (ImGui::Button("yes")) {
      s.game->submit(redecide_line(line.number, v, true));
      ImGui::CloseCurrentPopup();
    }
    ImGui::SameLine();
    if (ImGui::Button("no")) {
      s.game->submit(redecide_line(line.number, v, false));
      ImGui::CloseCurrentPopup();
    }
    ImGui::PopID();
  }
  ImGui::EndPopup();
}

// Fixing an input the entry took: its correction is put in the turn panel's free line, to be
// edited there (the wrong hits, the wrong crit) and given with Enter.
void fix_popup(Screen& s, const GameLogLine& line) {
  if (!ImGui::BeginPopup("fix")) return;
  ImGui::Text("Entry #%zu: fix an input it took (edit it in the turn panel, then Enter)", line.number);
  for (const auto& [index, given] : line.inputs) {
    ImGui::PushID(static_cast<int>(index));
    if (ImGui::Selectable(fmt::format("input {}: {}", index, given.dump()).c_str())) {
      s.typed_input = fix_line(index, given).dump();
      ImGui::CloseCurrentPopup();
    }
    ImGui::PopID();
  }
  ImGui::EndPopup();
}

}  // namespace

void draw_game_log(Screen& s) {
  if (!s.game_view) return;
  ImGui::BeginChild("game_log", ImVec2(0, 0), false);
  for (const GameLogLine& line : s.game_view->log) {
    ImGui::PushID(static_cast<int>(line.number));
    if (!line.verdicts.empty() && s.game != nullptr) {
      if (ImGui::SmallButton("?")) ImGui::OpenPopup("redecide");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("decide this ruling again");
      redecide_popup(s, line);
      ImGui::SameLine();
    }
    if (!line.inputs.empty() && s.game != nullptr) {
      if (ImGui::SmallButton("fix")) ImGui::OpenPopup("fix");
      if (ImGui::IsItemHovered()) ImGui::SetTooltip("correct an input this entry took");
      fix_popup(s, line);
      ImGui::SameLine();
    }
    ImGui::TextDisabled("#%zu %6.2f s", line.number, line.t);
    ImGui::SameLine();
    ImGui::PushStyleColor(ImGuiCol_Text, im_color4(tone_color(line.tone)));
    ImGui::TextWrapped("%s", line.text.c_str());
    ImGui::PopStyleColor();
    ImGui::PopID();
  }
  if (ImGui::GetScrollY() >= ImGui::GetScrollMaxY() - 4) ImGui::SetScrollHereY(1.0f);  // follow the newest
  ImGui::EndChild();
}

}  // namespace diskref::ui
