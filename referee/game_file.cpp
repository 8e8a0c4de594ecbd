#include "referee/game_file.h"

#include <algorithm>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/io/json_cursor.h"

namespace diskref::referee {
namespace {

// The registry kinds a game piece may be.
bool fits(rules::TerrainKind kind, model::DiskKind disk) {
  switch (kind) {
    case rules::TerrainKind::planet:
      return disk == model::DiskKind::planet || disk == model::DiskKind::terrain;
    case rules::TerrainKind::terrain:
      return disk == model::DiskKind::terrain || disk == model::DiskKind::planet;
    case rules::TerrainKind::obstruction:
      return disk == model::DiskKind::obstruction || disk == model::DiskKind::terrain;
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

// Every counter's critical face names a critical type of this game (spec §4 addition).
void check_counters(const model::DiskRegistry& registry, const rules::GameData& data) {
  std::string known;
  for (const rules::CritType& c : data.crit_types) known += (known.empty() ? "" : ", ") + c.id;
  for (std::size_t i = 0; i < registry.disks().size(); ++i) {
    const model::DiskSpec& disk = registry.disks()[i];
    for (std::size_t k = 0; k < disk.tags.size(); ++k) {
      const model::CounterFace* face = model::counter_face(disk, disk.tags[k].face);
      if (face == nullptr || face->shows != model::CounterFace::Shows::critical) continue;
      const bool found = std::any_of(data.crit_types.begin(), data.crit_types.end(),
                                     [&](const rules::CritType& c) { return c.id == face->crit; });
      if (!found)
        throw io::InputError(
            registry.source().empty() ? "the disk registry" : registry.source(),
            fmt::format("disks[{}].tags[{}].crit", i, k),
            fmt::format("counter \"{}\": \"{}\" is no critical type of the game's data (its types: {})", disk.name,
                        face->crit, known.empty() ? "none" : known));
    }
  }
}

DropZone parse_drop_zone(const io::JsonCursor& cursor, const model::TableSpec& table) {
  std::vector<double> v = cursor.numbers(4);
  DropZone zone{v[0], v[1], v[2], v[3]};
  if (!(zone.x0 < zone.x1 && zone.y0 < zone.y1)) cursor.fail("must be [x0, y0, x1, y1] with x0 < x1 and y0 < y1 (mm)");
  const double w = table.play_area_mm.x, h = table.play_area_mm.y;
  if (zone.x0 < 0 || zone.y0 < 0 || zone.x1 > w || zone.y1 > h)
    cursor.fail(fmt::format(
        "must lie inside the play area (0..{:g} x 0..{:g} mm): the camera reads counters on the play area", w, h));
  return zone;
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
  rules::InitialStateOptions options;
  options.poses_from_table = true;
  options.posed = &out.expected_poses;
  rules::Setup setup = rules::load_setup(root, file, &table, &registry, options);
  out.data = std::move(setup.data);
  out.initial = std::move(setup.initial);

  for (const rules::ShipState& ship : out.initial.ships) {
    const model::DiskSpec* disk = registry.find(ship.id);
    if (disk == nullptr)
      entry_named(root, "ships", ship.id)
          .fail("no disk \"" + ship.id + "\" in the disk registry: every ship is a disk on the table");
    if (disk->kind != model::DiskKind::ship)
      entry_named(root, "ships", ship.id)
          .fail("\"" + ship.id + "\" is a " + std::string(model::to_string(disk->kind)) +
                " in the disk registry, not a ship");
  }
  for (const rules::Terrain& terrain : out.initial.terrain) {
    const model::DiskSpec* disk = registry.find(terrain.id);
    if (disk == nullptr)
      entry_named(root, "terrain", terrain.id)
          .fail("no disk \"" + terrain.id + "\" in the disk registry: terrain lies on the table");
    if (!fits(terrain.kind, disk->kind))
      entry_named(root, "terrain", terrain.id)
          .fail("\"" + terrain.id + "\" is a " + std::string(model::to_string(disk->kind)) +
                " in the disk registry, not " + std::string(rules::to_string(terrain.kind)) + " terrain");
  }
  check_counters(registry, out.data);
  if (auto drops = root.find("drops"))
    if (auto zone = drops->find("zone_mm")) out.drop_zone = parse_drop_zone(*zone, table);
  return out;
}

}  // namespace diskref::referee
