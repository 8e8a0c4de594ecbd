// A game data file (data/rules/*.json) after the bundled critical types, as `diskref play` merges
// them.
#include <nlohmann/json.hpp>
#include "engine/rules/data_loading.h"

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(game_data) {
  using namespace diskref;
  (void)rules::load_game_data(
      {fuzz::source_file("data/rules/crit_types.json"), fuzz::place_input("rules/input.json", input)});
}
