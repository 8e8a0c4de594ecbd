// A referee's game file (`diskref referee --game`), beside the skirmish sample's, with its table
// and registry.
#include <nlohmann/json.hpp>
#include "engine/model/disk_registry.h"

#include "engine/model/table_spec.h"
#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"
#include "referee/game_file.h"

DISKREF_FUZZ_TARGET(game_file) {
  using namespace diskref;
  static const model::TableSpec table = model::load_table(fuzz::source_file("sample_videos/skirmish/table.json"));
  static const model::DiskRegistry registry =
      model::load_disk_registry(fuzz::source_file("sample_videos/skirmish/disks.json"));
  (void)referee::load_game_file(fuzz::place_input("sample_videos/skirmish/input.json", input), table, registry);
}
