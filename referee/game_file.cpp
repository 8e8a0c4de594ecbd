#include "referee/game_file.h"

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"

namespace diskref::referee {
namespace {

// The registry kinds a game piece may be.
bool fits(rules::TerrainKind kind, model::DiskKind disk) {
  switch (kind) {
    case rules::TerrainKind::planet: return disk == model::DiskKind::planet || disk == model::DiskKind::terrain;
    case rules::TerrainKind::terrain: return disk == model::DiskKind::terrain || disk == model::DiskKind::planet;
    case rules::TerrainKind::obstruction: return disk == model::DiskKind::obstruction || disk == model::DiskKind::terrain;
  }
  return false;
}

// Where in the file an entry of `list` with this id stands, for messages.
io::JsonCursor entry_named(const io::JsonCursor& root, const char* list, const std::string& id) {
  auto entries = root.at(list);
  for (std::size_t i = 0; i < entries.size(); ++i)
    if (entries.at(i).at("id").string() == id) return entries.at(i).at("id");
  return root;
}

}  // namespace

GameFile load_game_file(const std::filesystem::path& file, const model::TableSpec& table,
                        const model::DiskRegistry& registry) {
  nlohmann::json doc = io::read_json_file(file);
  io::JsonCursor root(doc, file.string());
  if (root.json().is_object() && root.has("setup") && root.has("actions"))
    root.fail("this is a play script: the referee's game file is its \"setup\" alone (the table gives the moves)");
  GameFile out;
  out.file = file;
  rules::SetupOptions options;
  options.poses_from_table = true;
  options.posed = &out.expected_poses;
  rules::Setup setup = rules::load_setup(root, file, &table, &registry, options);
  out.data = std::move(setup.data);
  out.initial = std::move(setup.initial);

  for (const rules::ShipState& ship : out.initial.ships) {
    const model::DiskSpec* disk = registry.find(ship.id);
    if (disk == nullptr)
      entry_named(root, "ships", ship.id).fail("no disk \"" + ship.id + "\" in the disk registry: every ship is a disk on the table");
    if (disk->kind != model::DiskKind::ship)
      entry_named(root, "ships", ship.id)
          .fail("\"" + ship.id + "\" is a " + std::string(model::to_string(disk->kind)) + " in the disk registry, not a ship");
  }
  for (const rules::Terrain& terrain : out.initial.terrain) {
    const model::DiskSpec* disk = registry.find(terrain.id);
    if (disk == nullptr)
      entry_named(root, "terrain", terrain.id).fail("no disk \"" + terrain.id + "\" in the disk registry: terrain lies on the table");
    if (!fits(terrain.kind, disk->kind))
      entry_named(root, "terrain", terrain.id)
          .fail("\"" + terrain.id + "\" is a " + std::string(model::to_string(disk->kind)) + " in the disk registry, not " +
                std::string(rules::to_string(terrain.kind)) + " terrain");
  }
  return out;
}

}  // namespace diskref::referee
