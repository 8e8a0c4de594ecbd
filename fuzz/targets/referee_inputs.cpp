// A referee's inputs (`diskref referee --inputs`, JSON lines), given to a referee of the skirmish
// sample's game, which applies what it can without a table and finishes.
#include <nlohmann/json.hpp>
#include "engine/model/disk_registry.h"

#include "engine/model/table_spec.h"
#include "fuzz/fuzz_files.h"
#include "fuzz/fuzz_target.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/referee.h"

DISKREF_FUZZ_TARGET(referee_inputs) {
  using namespace diskref;
  static const model::TableSpec table = model::load_table(fuzz::source_file("sample_videos/skirmish/table.json"));
  static const model::DiskRegistry registry =
      model::load_disk_registry(fuzz::source_file("sample_videos/skirmish/disks.json"));
  static const referee::GameFile game =
      referee::load_game_file(fuzz::source_file("sample_videos/skirmish/game.json"), table, registry);
  std::vector<referee::Input> inputs = referee::load_inputs(fuzz::place_input("inputs.jsonl", input));
  referee::Referee r(game, table, registry);
  for (referee::Input& i : inputs) r.add_input(std::move(i));
  r.finish();
}
