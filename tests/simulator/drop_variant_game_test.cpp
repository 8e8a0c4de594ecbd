// The game file the bench `counter_drops` writes beside each rendered set of drops, to watch them on
// the companion screen: the referee loads it with the render's own table and disks, and its ships
// start where the render puts them.

#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "engine/io/json_cursor.h"
#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "referee/game_file.h"
#include "simulator/drop_variety.h"

namespace diskref::simulator {
namespace {

namespace fs = std::filesystem;

TEST(DropVariantGame, LoadsWithTheRendersTableAndDisksWithItsShipsWhereTheRenderPutsThem) {
  const DropVariant variant = standard_drop_variants("").front();
  const nlohmann::json scenario = varied_drops(variant);
  const model::TableSpec table = model::parse_table(io::JsonCursor(scenario.at("table"), "scenario.json table"));
  const model::DiskRegistry registry =
      model::parse_disk_registry(io::JsonCursor(scenario.at("disks"), "scenario.json disks"));
  const fs::path file = fs::temp_directory_path() / "diskref-drop-variant-game.json";
  std::ofstream(file) << drop_variant_game(fs::path(DISKREF_SOURCE_DIR) / "data" / "rules").dump(1);
  const referee::GameFile game = referee::load_game_file(file, table, registry);
  fs::remove(file);
  EXPECT_FALSE(game.drop_zone) << "drops anywhere on the table";
  // Every ship of the render, at its start.
  int ships = 0;
  for (const nlohmann::json& start : scenario.at("start")) {
    const model::DiskSpec* spec = registry.find(start.at("disk").get<std::string>());
    if (spec == nullptr || spec->kind != model::DiskKind::ship) continue;
    ++ships;
    bool found = false;
    for (const rules::ShipState& ship : game.initial.ships)
      if (ship.id == spec->name) {
        found = true;
        EXPECT_NEAR(ship.pose.position.x, start.at("x").get<double>(), 1e-9) << ship.id;
        EXPECT_NEAR(ship.pose.position.y, start.at("y").get<double>(), 1e-9) << ship.id;
      }
    EXPECT_TRUE(found) << spec->name;
  }
  EXPECT_EQ(ships, 3);
  EXPECT_EQ(game.initial.ships.size(), 3u);
}

}  // namespace
}  // namespace diskref::simulator
