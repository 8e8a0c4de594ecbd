#include "engine/rules/initial_state.h"

#include <algorithm>
#include <map>
#include <set>

#include "engine/model/shape_json.h"
#include "engine/rules/drops.h"
#include "engine/rules/state_json.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

struct Builder {
  const GameData& data;
  const model::DiskRegistry* registry;
  bool poses_from_table;
  std::set<std::string>* posed;
  GameState state;
  std::set<std::string> ids;
  std::map<std::string, int> points_spent;

  void claim_id(const io::JsonCursor& c, const std::string& id) {
    if (!ids.insert(id).second)
      c.fail(in_quotes(id) + " is used twice (ids of ships, crew, tech and terrain are unique)");
  }

  // A pose is required, unless the table will give it (the referee): then it is only expected.
  geom::Pose pose_of(const io::JsonCursor& entry, const std::string& id) {
    auto p = entry.find("pose");
    if (!p && !poses_from_table) entry.at("pose");  // fails: missing required member
    if (!p) return geom::Pose{};
    if (posed != nullptr) posed->insert(id);
    return parse_pose(*p);
  }

  geom::Shape shape_of(const io::JsonCursor& entry, const std::string& id) {
    if (auto s = entry.find("shape")) return model::parse_shape(*s);
    if (registry != nullptr)
      if (const model::DiskSpec* spec = registry->find(id)) return spec->shape;
    entry.fail("no shape for " + in_quotes(id) + ": give \"shape\" or a registry with a disk of that name");
  }

  void add_player(const io::JsonCursor& c) {
    c.allow_only({"id", "team", "fleet_points"});
    Player p{c.at("id").non_empty_string(), c.string_or("team", "")};
    if (p.team.empty()) p.team = p.id;
    if (std::any_of(state.players.begin(), state.players.end(), [&](const Player& q) { return q.id == p.id; }))
      c.at("id").fail("player " + in_quotes(p.id) + " is listed twice");
    state.players.push_back(p);
  }

  void add_disk(const io::JsonCursor& c, const ShipState& ship, DiskKindOfCard kind) {
    c.allow_only({"id", "card", "owner", "revealed", "ready"});
    CrewTechDisk d;
    d.id = c.at("id").non_empty_string();
    claim_id(c.at("id"), d.id);
    d.card = c.at("card").non_empty_string();
    const DiskCard* card = data.disk(d.card);
    if (card == nullptr || card->kind != kind)
      c.at("card").fail(std::string("no ") + (kind == DiskKindOfCard::crew ? "crew" : "tech") + " card " +
                        in_quotes(d.card) + " in the game data");
    d.owner = c.string_or("owner", ship.controller);
    if (std::none_of(state.players.begin(), state.players.end(), [&](const Player& p) { return p.id == d.owner; }))
      c.at("owner").fail("no player " + in_quotes(d.owner));
    d.location = ship.id;
    d.revealed = c.boolean_or("revealed", false);
    d.ready = c.boolean_or("ready", true);
    points_spent[d.owner] += card->cost;
    state.disks.push_back(d);
  }

  void check_keywords(const io::JsonCursor& entry, const ShipState& ship, const ShipCard& card) {
    // The ship's own loadout: disks of its side (crew placed aboard by the other side are boarders).
    std::vector<const CrewTechDisk*> aboard;
    for (const CrewTechDisk& d : state.disks)
      if (d.location == ship.id && same_team(state, d.owner, ship.controller)) aboard.push_back(&d);
    if (static_cast<int>(aboard.size()) > card.capacity)
      entry.fail(ship.id + " carries " + std::to_string(aboard.size()) + " crew and tech disks; its capacity is " +
                 std::to_string(card.capacity));
    int captains = 0;
    for (const CrewTechDisk* d : aboard) {
      const DiskCard& dc = *data.disk(d->card);
      if (dc.has_keyword("Captain") || dc.has_keyword("Admiral")) ++captains;
      if (!dc.has_keyword("Unlimited") &&
          std::count_if(aboard.begin(), aboard.end(), [&](const CrewTechDisk* o) { return o->card == d->card; }) > 1)
        entry.fail(ship.id + " carries more than one " + dc.name + " (only Unlimited disks may repeat on a ship)");
    }
    if (captains > 1) entry.fail(ship.id + " carries more than one Captain or Admiral");
  }

  void add_ship(const io::JsonCursor& c) {
    c.allow_only({"id", "card", "player", "pose", "shape", "speed", "shields", "hull", "crits", "crew", "tech"});
    ShipState s;
    s.id = c.at("id").non_empty_string();
    claim_id(c.at("id"), s.id);
    s.card = c.at("card").non_empty_string();
    const ShipCard* card = data.ship(s.card);
    if (card == nullptr) c.at("card").fail("no ship card " + in_quotes(s.card) + " in the game data");
    s.controller = c.at("player").non_empty_string();
    if (std::none_of(state.players.begin(), state.players.end(), [&](const Player& p) { return p.id == s.controller; }))
      c.at("player").fail("no player " + in_quotes(s.controller));
    s.pose = pose_of(c, s.id);
    s.shape = shape_of(c, s.id);
    auto int_member = [&](const char* key, int fallback, int lo, int hi) {
      auto found = c.find(key);
      return found ? found->int_in(lo, hi) : fallback;
    };
    s.speed = int_member("speed", 0, 0, card->max_speed);
    s.shields = int_member("shields", card->shields, 0, card->shields);
    s.hull = int_member("hull", card->hull, 1, card->hull);
    if (auto crits = c.find("crits"))
      for (const std::string& id : crits->keys()) {
        if (data.crit(id) == nullptr) crits->at(id).fail("no critical type " + in_quotes(id) + " in the game data");
        if (int n = crits->at(id).int_in(0, 1); n > 0) s.crits[id] = n;  // a second would have destroyed it
      }
    points_spent[s.controller] += card->points;
    state.ships.push_back(s);
    for (auto [key, kind] : {std::pair{"crew", DiskKindOfCard::crew}, std::pair{"tech", DiskKindOfCard::tech}})
      if (auto list = c.find(key))
        for (std::size_t i = 0; i < list->size(); ++i) add_disk(list->at(i), s, kind);
    if (data.parameters.enforce_keyword_limits) check_keywords(c, s, *card);
  }

  void add_terrain(const io::JsonCursor& c) {
    c.allow_only({"id", "kind", "pose", "shape", "damage"});
    Terrain t;
    t.id = c.at("id").non_empty_string();
    claim_id(c.at("id"), t.id);
    std::string kind = c.at("kind").one_of({"planet", "station", "terrain", "obstruction"});
    t.kind = kind == "planet"        ? TerrainKind::planet
             : kind == "obstruction" ? TerrainKind::obstruction
                                     : TerrainKind::terrain;
    t.pose = pose_of(c, t.id);
    t.shape = shape_of(c, t.id);
    if (t.kind == TerrainKind::obstruction)
      t.damage = c.at("damage").int_in(0, 100);
    else if (c.has("damage"))
      c.at("damage").fail("only obstructions have a damage value");
    state.terrain.push_back(t);
  }

  void check_unique_keyword(const io::JsonCursor& setup) {
    std::map<std::string, int> count;
    for (const CrewTechDisk& d : state.disks)
      if (data.disk(d.card)->has_keyword("Unique") && ++count[d.card] > 1)
        setup.at("ships").fail(data.disk(d.card)->name + " is Unique: one per game");
  }

  void check_fleet_points(const io::JsonCursor& players) {
    for (std::size_t i = 0; i < players.size(); ++i) {
      auto p = players.at(i);
      auto limit = p.find("fleet_points");
      if (!limit) continue;
      int spent = points_spent[p.at("id").string()];
      if (spent > limit->int_in(0, 100000))
        limit->fail("the fleet costs " + std::to_string(spent) + " points, more than " +
                    std::to_string(limit->integer()));
    }
  }
};

}  // namespace

GameState build_initial_state(const io::JsonCursor& setup, const GameData& data, const model::DiskRegistry* registry,
                              const InitialStateOptions& options) {
  Builder b{data, registry, options.poses_from_table, options.posed, {}, {}, {}};
  b.state.play_area_mm = data.parameters.play_area_mm;
  auto players = setup.at("players");
  if (players.size() == 0) players.fail("a game needs at least one player");
  for (std::size_t i = 0; i < players.size(); ++i) b.add_player(players.at(i));
  auto ships = setup.at("ships");
  for (std::size_t i = 0; i < ships.size(); ++i) b.add_ship(ships.at(i));
  if (auto terrain = setup.find("terrain"))
    for (std::size_t i = 0; i < terrain->size(); ++i) b.add_terrain(terrain->at(i));
  if (data.parameters.enforce_keyword_limits) b.check_unique_keyword(setup);
  b.check_fleet_points(players);
  if (auto drops = setup.find("drops")) {
    // "zone_mm" is the referee's (where counters are read from the table, referee/game_file.h):
    // allowed here so that a game file is a setup, and read there.
    drops->allow_only({"mode", "seed", "zone_mm"});
    if (drops->at("mode").one_of({"table", "virtual"}) == "virtual") {
      if (auto zone = drops->find("zone_mm"))
        zone->fail("a drop zone is for drops read from the table (mode \"table\")");
      b.state.drops.mode = DropMode::virtual_drops;
      long long seed = drops->at("seed").integer();
      if (seed < 0) drops->at("seed").fail("must be >= 0");
      b.state.drops.seed = static_cast<std::uint64_t>(seed);
      b.state.drops.rng = rng_state_from_seed(b.state.drops.seed);
    } else if (drops->has("seed")) {
      drops->at("seed").fail("a seed is only for virtual drops");
    }
  }
  return b.state;
}

}  // namespace diskref::rules
