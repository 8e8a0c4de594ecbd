// The disks on the table: pose, face, state and uncertainty, one row each. Clicking a row picks
// the disk for the dispute tool, as clicking it in a view does.

#include <fmt/format.h>

#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {

void draw_disks_panel(Screen& s, const ScreenRect& rect) {
  if (!begin_panel("Disks###disks", rect)) {
    ImGui::End();
    return;
  }
  if (!s.scene.unknown.empty()) {
    std::string names;
    for (const auto& n : s.scene.unknown) names += " " + n;
    ImGui::TextColored(im_color4(colors::kStale), "not in the registry:%s", names.c_str());
  }
  ImGuiTableFlags flags =
      ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_ScrollY | ImGuiTableFlags_SizingFixedFit;
  if (ImGui::BeginTable("disks", 7, flags)) {
    ImGui::TableSetupScrollFreeze(0, 1);
    ImGui::TableSetupColumn("disk", ImGuiTableColumnFlags_WidthStretch);
    ImGui::TableSetupColumn("x mm");
    ImGui::TableSetupColumn("y mm");
    ImGui::TableSetupColumn("head");
    ImGui::TableSetupColumn("face");
    ImGui::TableSetupColumn("state");
    ImGui::TableSetupColumn("sigma");
    ImGui::TableHeadersRow();
    for (const referee::SeenDisk& d : s.scene.disks) {
      ImGui::TableNextRow();
      ImGui::TableNextColumn();
      bool selected = s.choice.a == d.name() || s.choice.b == d.name();
      if (ImGui::Selectable(d.name().c_str(), selected, ImGuiSelectableFlags_SpanAllColumns) && d.has_pose()) {
        s.click_disk(d.name());
      }
      ImGui::TableNextColumn();
      if (d.has_pose()) {
        ImGui::Text("%7.1f", d.pose->position.x);
        ImGui::TableNextColumn();
        ImGui::Text("%7.1f", d.pose->position.y);
        ImGui::TableNextColumn();
        ImGui::Text("%5.1f", d.pose->heading_deg());
      } else {
        ImGui::TextDisabled("-");
        ImGui::TableNextColumn();
        ImGui::TextDisabled("-");
        ImGui::TableNextColumn();
        ImGui::TextDisabled("-");
      }
      ImGui::TableNextColumn();
      ImGui::TextUnformatted(std::string(to_string(d.track.face)).c_str());
      ImGui::TableNextColumn();
      std::string state(to_string(d.track.state));
      if (d.track.state == model::TrackState::visible && d.track.motion == model::Motion::moving) state = "moving";
      if (d.track.state == model::TrackState::stale && d.track.age_s) {
        state = fmt::format("stale {:.0f}s", *d.track.age_s);
      }
      ImGui::TextColored(im_color4(state_color(d.track)), "%s", state.c_str());
      ImGui::TableNextColumn();
      ImGui::Text("%.2f", d.track.sigma_mm);
    }
    ImGui::EndTable();
  }
  ImGui::End();
}

}  // namespace diskref::ui
