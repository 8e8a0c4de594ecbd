#pragma once
// The inputs the screen offers the referee (spec §9 JSON lines, without "t"): what the rules state
// and the referee's expectation allow now, each a button with a label. The rules decide what is
// legal: every candidate action is asked on a copy of the state (rules::needs, pure) and kept when
// it applies, or when it only needs a drop or a choice the table will give.

#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/rules/game_data.h"
#include "engine/rules/order_kind.h"
#include "engine/rules/state.h"
#include "referee/inputs.h"
#include "referee/referee.h"

namespace diskref::ui {

struct InputChoice {
  std::string label;    // "initiative", "reveal enterprise's order", "3 hits"
  nlohmann::json line;  // the input (spec §9 line) without "t"
};

std::vector<InputChoice> input_choices(const rules::GameState& state, const rules::GameData& data,
                                       const referee::Expectation& expecting);

// Step Two: a ship's three orders, face down (the screen asks for them only as a whole, once).
nlohmann::json orders_line(const rules::ShipState& ship, const std::vector<rules::OrderKind>& orders);
// Undo: input K dropped (the game replays without it).
nlohmann::json undo_line(std::size_t input_index);
// The ruling of log entry N (a verdict of it) decided again.
nlohmann::json redecide_line(std::size_t entry, const referee::Verdict& verdict, bool yes);
// A correction to edit and give: input `index` replaced by `given` (its line as it was given),
// which the referee then changes where it was wrong.
nlohmann::json fix_line(std::size_t index, const nlohmann::json& given);

// The line as an input at video time `t`; throws io::InputError when the line is not one.
referee::Input make_input(const nlohmann::json& line, double t);

}  // namespace diskref::ui
