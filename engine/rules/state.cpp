#include "engine/rules/state.h"

namespace diskref::rules {

std::string_view to_string(Step step) {
  switch (step) {
    case Step::reveal:
      return "reveal";
    case Step::orders:
      return "orders";
    case Step::execute:
      return "execute";
    case Step::boarding:
      return "boarding";
    case Step::game_over:
      return "game_over";
  }
  return "?";
}

std::string_view to_string(PhaseStage stage) {
  switch (stage) {
    case PhaseStage::initiative:
      return "initiative";
    case PhaseStage::ships:
      return "ships";
    case PhaseStage::torpedoes:
      return "torpedoes";
  }
  return "?";
}

std::string_view to_string(TerrainKind kind) {
  switch (kind) {
    case TerrainKind::planet:
      return "planet";
    case TerrainKind::terrain:
      return "terrain";
    case TerrainKind::obstruction:
      return "obstruction";
  }
  return "?";
}

std::string_view to_string(DropMode mode) {
  return mode == DropMode::table ? "table" : "virtual";
}

}  // namespace diskref::rules
