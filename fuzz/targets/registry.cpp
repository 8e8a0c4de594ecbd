// A disk registry (disks.json).
#include <nlohmann/json.hpp>
#include "engine/model/disk_registry.h"

#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"

DISKREF_FUZZ_TARGET(registry) {
  using namespace diskref;
  (void)model::load_disk_registry(fuzz::place_input("disks.json", input));
}
