// A play script for `diskref play`, beside the bundled ones (its "../rules" and table files are
// found): loaded and played to the end.
#include <nlohmann/json.hpp>
#include "engine/rules/script.h"

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(play_script) {
  using namespace diskref;
  const rules::Script script = rules::load_script(fuzz::place_input("data/scripts/input.json", input));
  (void)rules::play_result_to_json(rules::run_script(script), std::nullopt).dump();
}
