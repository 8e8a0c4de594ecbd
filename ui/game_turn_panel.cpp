// The turn panel (--game): turn, step, phase and the initiative order; what diskref expects next;
// one button (and one key) per input the rules allow now; undo; the latest refusal with the rule's
// reason; a free line for any other input. The panel builds no ruling: it submits spec §9 lines to
// the live game, which gives them to the referee at the next frame.

#include <array>
#include <cstdio>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/rules/order_kind.h"
#include "ui/imgui_draw.h"
#include "ui/panels.h"

namespace diskref::ui {
namespace {

constexpr Rgb kExpect{120, 210, 255};

void header(const GameView& v) {
  const TurnShown& t = v.turn;
  std::string line = fmt::format("Turn {}   {}", t.turn, t.step);
  if (t.phase > 0) line += fmt::format("   phase {} ({})", t.phase, t.stage);
  ImGui::TextUnformatted(line.c_str());
  if (!t.initiative.empty()) {
    ImGui::TextDisabled("initiative:");
    for (const std::string& ship : t.initiative) {
      ImGui::SameLine();
      if (ship == t.option)
        ImGui::TextColored(im_color4(colors::kMoving), "[%s]", ship.c_str());
      else
        ImGui::TextUnformatted(ship.c_str());
    }
  }
  if (t.winner)
    ImGui::TextColored(im_color4(colors::kTemplate), "Game over: %s",
                       t.winner->empty() ? "no side left" : t.winner->c_str());
  ImGui::PushStyleColor(ImGuiCol_Text, im_color4(kExpect));
  ImGui::TextWrapped("Next: %s", t.expecting.empty() ? "the next input" : t.expecting.c_str());
  ImGui::PopStyleColor();
}

void refusal(const GameView& v) {
  // The latest refusal stays until the game moves on by a few seconds: a referee looking away
  // must still see why the input did nothing.
  if (!v.refusal || v.refusal->t < v.t - LiveGame::kAlertShowS) return;
  ImGui::PushStyleColor(ImGuiCol_Text, im_color4(Rgb{255, 120, 110}));
  ImGui::TextWrapped("REFUSED (#%zu): %s", v.refusal->number, v.refusal->text.c_str());
  ImGui::PopStyleColor();
}

// Dear ImGui 1.86 with its GLFW backend indexes keys by GLFW key code, which for digits and
// letters is the character's ASCII code ('1', 'U'). Not while a text field has the keyboard.
bool key_pressed(char key) {
  return !ImGui::GetIO().WantTextInput && ImGui::IsKeyPressed(key, false);
}

void choices(Screen& s, const GameView& v) {
  if (v.choices.empty() && v.state.step == rules::Step::execute) {
    ImGui::TextDisabled("nothing to enter: diskref reads the next from the table");
  }
  float width = ImGui::GetContentRegionAvail().x;
  for (std::size_t i = 0; i < v.choices.size(); ++i) {
    const InputChoice& c = v.choices[i];
    std::string label = i < 9 ? fmt::format("[{}] {}", i + 1, c.label) : c.label;
    ImGui::PushID(static_cast<int>(i));
    if (ImGui::Button(label.c_str(), ImVec2(width * 0.49f, 0)) || (i < 9 && key_pressed(static_cast<char>('1' + i))))
      s.game->submit(c.line);
    ImGui::PopID();
    if (i % 2 == 0 && i + 1 < v.choices.size()) ImGui::SameLine();
  }
}

// Step Two: orders are face down; the screen asks for a ship's three at once, and shows none.
void orders(Screen& s, const GameView& v) {
  if (v.state.step != rules::Step::orders) return;
  for (const rules::ShipState& ship : v.state.ships) {
    if (ship.destroyed || !ship.orders.empty()) continue;
    std::array<int, 3>& picked = s.orders_picked.try_emplace(ship.id, std::array<int, 3>{0, 1, 2}).first->second;
    ImGui::PushID(ship.id.c_str());
    ImGui::TextUnformatted(ship.id.c_str());
    for (int k = 0; k < 3; ++k) {
      ImGui::SameLine();
      ImGui::PushID(k);
      ImGui::SetNextItemWidth(120);
      int& o = picked[static_cast<std::size_t>(k)];
      if (ImGui::BeginCombo("##o",
                            std::string(rules::display_name(rules::kAllOrders[static_cast<std::size_t>(o)])).c_str())) {
        for (int a = 0; a < static_cast<int>(rules::kAllOrders.size()); ++a) {
          if (ImGui::Selectable(
                  std::string(rules::display_name(rules::kAllOrders[static_cast<std::size_t>(a)])).c_str(), a == o))
            o = a;
        }
        ImGui::EndCombo();
      }
      ImGui::PopID();
    }
    ImGui::SameLine();
    if (ImGui::Button("place")) {
      std::vector<rules::OrderKind> kinds;
      for (int o : picked) kinds.push_back(rules::kAllOrders[static_cast<std::size_t>(o)]);
      s.game->submit(orders_line(ship, kinds));
    }
    ImGui::PopID();
  }
}

void typed(Screen& s) {
  ImGui::SetNextItemWidth(ImGui::GetContentRegionAvail().x - 70);
  char buf[512];
  std::snprintf(buf, sizeof buf, "%s", s.typed_input.c_str());
  bool enter = ImGui::InputTextWithHint("##typed", "any input as JSON, e.g. {\"do\": \"defer\", \"player\": \"owen\"}",
                                        buf, sizeof buf, ImGuiInputTextFlags_EnterReturnsTrue);
  s.typed_input = buf;
  ImGui::SameLine();
  if (ImGui::Button("give") || enter) {
    try {
      nlohmann::json line = nlohmann::json::parse(s.typed_input);
      make_input(line, 0);  // checked here so that a typo is said at once, not in the log
      s.game->submit(line);
      s.typed_input.clear();
      s.typed_input_error.clear();
    } catch (const std::exception& e) {
      s.typed_input_error = e.what();
    }
  }
  if (!s.typed_input_error.empty()) ImGui::TextColored(im_color4(colors::kContact), "%s", s.typed_input_error.c_str());
}

}  // namespace

void draw_turn_panel(Screen& s, const ScreenRect& rect) {
  if (!begin_panel("Turn###turn", rect)) {
    ImGui::End();
    return;
  }
  if (!s.game_view || s.game == nullptr) {
    ImGui::TextUnformatted("Waiting for the table.");
    ImGui::End();
    return;
  }
  const GameView& v = *s.game_view;
  header(v);
  refusal(v);
  ImGui::Separator();
  choices(s, v);
  orders(s, v);
  ImGui::Separator();
  if (v.undoable) {
    std::string label = fmt::format("[U] undo input {}", *v.undoable);
    if (ImGui::Button(label.c_str()) || key_pressed('U')) s.game->submit(undo_line(*v.undoable));
    ImGui::SameLine();
  }
  ImGui::TextDisabled("%zu inputs given", v.inputs_given);
  if (v.queued > 0) {
    ImGui::SameLine();
    bool paused = s.worker && s.worker->paused();
    ImGui::TextColored(im_color4(colors::kStale), "%zu waiting for the next frame%s", v.queued,
                       paused ? " (play the video)" : "");
  }
  typed(s);
  if (!v.note.empty()) ImGui::TextColored(im_color4(colors::kStale), "%s", v.note.c_str());
  // The network's status line (--serve, --mqtt): a loss in red, until it is said to be over.
  if (!v.network.empty()) {
    ImGui::PushStyleColor(ImGuiCol_Text, im_color4(v.network_trouble ? colors::kContact : colors::kLost));
    ImGui::TextWrapped("%s", v.network.c_str());
    ImGui::PopStyleColor();
  }
  // The feed's QR code for phones, closed: how to have it again.
  if (s.game->feed_access() && !s.show_feed_access &&
      ImGui::SmallButton("[Q] the feed's address and QR code for phones"))
    s.show_feed_access = true;
  // The last ruling in what room is left (the log has it whole).
  if (v.last_ruling) {
    ImGui::Separator();
    ImGui::BeginChild("last_ruling", ImVec2(0, 0), false);
    ImGui::TextDisabled("last ruling #%zu:", v.last_ruling->number);
    ImGui::TextWrapped("%s", v.last_ruling->text.c_str());
    ImGui::EndChild();
  }
  ImGui::End();
}

}  // namespace diskref::ui
