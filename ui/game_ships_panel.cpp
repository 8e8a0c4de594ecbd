// The ship panels (--game): one card per ship, as the books stand, from the published GameView.
// Destroyed ships are struck through in grey; the ship holding the option is framed.

#include <fmt/format.h>

#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

constexpr Rgb kShipName{255, 230, 140};
constexpr Rgb kDestroyed{140, 140, 140};

// "shields 5/7" with the value large: the numbers are what people read from a metre.
void stat(const char* label, int value, int max, Rgb color) {
  ImGui::TextDisabled("%s", label);
  ImGui::SameLine();
  ImGui::TextColored(im_color4(color), "%d", value);
  ImGui::SameLine(0, 2);
  ImGui::TextDisabled("/%d", max);
}

void ship_card(const ShipShown& v) {
  Rgb name_color = v.destroyed ? kDestroyed : kShipName;
  if (v.acting) {
    ImGui::TextColored(im_color4(colors::kMoving), ">");
    ImGui::SameLine();
  }
  ImGui::TextColored(im_color4(name_color), "%s", v.id.c_str());
  ImGui::SameLine();
  ImGui::TextDisabled("%s", fmt::format("{}, {}", v.controller, v.name).c_str());
  if (v.destroyed) {
    ImGui::SameLine();
    ImGui::TextColored(im_color4(colors::kContact), "DESTROYED");
  }
  if (v.cloaked) {
    ImGui::SameLine();
    ImGui::TextColored(im_color4(colors::kSelectB), "CLOAKED");
  }
  Rgb value = v.destroyed ? kDestroyed : Rgb{240, 240, 240};
  stat("speed", v.speed, v.max_speed, value);
  ImGui::SameLine(0, 18);
  stat("shields", v.shields, v.max_shields, v.shields == 0 ? colors::kStale : value);
  ImGui::SameLine(0, 18);
  stat("hull", v.hull, v.max_hull, v.hull * 3 <= v.max_hull ? colors::kContact : value);

  std::string orders;
  for (std::size_t i = 0; i < v.orders.size(); ++i)
    orders += fmt::format("{}{}. {}", i ? "   " : "", i + 1, v.orders[i]);
  ImGui::TextDisabled("orders");
  ImGui::SameLine();
  ImGui::TextUnformatted(orders.empty() ? "not placed" : orders.c_str());
  if (!v.crits.empty()) {
    std::string crits;
    for (const std::string& c : v.crits) crits += (crits.empty() ? "" : ", ") + c;
    ImGui::TextColored(im_color4(colors::kContact), "crits: %s", crits.c_str());
  }
  std::string crew;
  for (const CrewShown& c : v.crew) {
    crew += (crew.empty() ? "" : ", ") + c.label;
    if (c.revealed && !c.ready) crew += " (activated)";
  }
  ImGui::TextDisabled("crew/tech");
  ImGui::SameLine();
  ImGui::TextWrapped("%s", crew.empty() ? "none" : crew.c_str());
}

}  // namespace

void draw_ships_panel(Screen& s, const ScreenRect& rect) {
  if (!begin_panel("Ships###ships", rect)) {
    ImGui::End();
    return;
  }
  if (!s.game_view) {
    ImGui::TextUnformatted("The game starts when the table is seen.");
    ImGui::End();
    return;
  }
  for (std::size_t i = 0; i < s.game_view->ships.size(); ++i) {
    const ShipShown& v = s.game_view->ships[i];
    ImGui::PushID(static_cast<int>(i));
    ImVec2 top = ImGui::GetCursorScreenPos();
    ship_card(v);
    ImVec2 bottom = ImGui::GetCursorScreenPos();
    if (v.acting) {
      ImGui::GetWindowDrawList()->AddRect(ImVec2(top.x - 4, top.y - 2),
                                          ImVec2(top.x + ImGui::GetContentRegionAvail().x + 2, bottom.y - 2),
                                          im_color(colors::kMoving), 3.0f, 0, 2.0f);
    }
    ImGui::Separator();
    ImGui::PopID();
  }
  ImGui::End();
}

}  // namespace diskref::ui
