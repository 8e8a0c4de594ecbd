// A first table's setup file (setup.json in a setup folder: `diskref ui --setup`, `diskref setup`).
#include <nlohmann/json.hpp>
#include "fuzz/fuzz_files.h"

#include "fuzz/fuzz_target.h"
#include "setup/setup_state.h"

DISKREF_FUZZ_TARGET(setup_state) {
  using namespace diskref;
  const setup::SetupState s =
      setup::open_setup(fuzz::place_input("mytable/setup.json", input).parent_path(), std::nullopt);
  (void)s.next_step();
  for (const auto& [key, found] : s.done)
    for (setup::Step step : setup::kAllSteps)
      if (key == setup::step_key(step)) (void)setup::step_summary(step, found);
}
