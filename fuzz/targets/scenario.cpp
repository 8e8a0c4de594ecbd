// A render scenario (`diskref render`), beside the bundled ones (its table and disk files are
// found): loaded, not rendered.
#include <nlohmann/json.hpp>
#include "fuzz/fuzz_files.h"

#include "fuzz/fuzz_target.h"
#include "simulator/scenario.h"

DISKREF_FUZZ_TARGET(scenario) {
  using namespace diskref;
  (void)simulator::load_scenario(fuzz::place_input("sample_videos/scenarios/input.json", input));
}
