// A table file (play area and corner markers).
#include <nlohmann/json.hpp>
#include "engine/model/table_spec.h"

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(table) {
  using namespace diskref;
  (void)model::load_table(fuzz::place_input("table.json", input));
}
