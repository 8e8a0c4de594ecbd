#include "engine/rules/state_json.h"

#include <cmath>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/rules/rules_json.h"
#include "engine/rules/text.h"

#include "engine/geometry/vec2.h"
#include "engine/model/bounds.h"
#include "engine/model/shape_json.h"

namespace diskref::rules {

namespace {

std::string hex64(std::uint64_t v) {
  return fmt::format("0x{:016x}", v);
}

std::uint64_t parse_hex64(const io::JsonCursor& c) {
  std::string text = c.string();
  if (text.size() < 3 || text.size() > 18 || text.rfind("0x", 0) != 0 ||
      text.find_first_not_of("0123456789abcdefABCDEF", 2) != std::string::npos)
    c.fail("must be a hex string such as \"0x00000000000000ff\"");
  return std::stoull(text.substr(2), nullptr, 16);
}

template <typename Enum, std::size_t N>
Enum enum_from(const io::JsonCursor& c, const std::array<Enum, N>& values) {
  std::string text = c.string();
  std::string list;
  for (Enum v : values) {
    if (to_string(v) == text) return v;
    list += (list.empty() ? "" : ", ") + std::string(to_string(v));
  }
  c.fail(in_quotes(text) + " is not one of: " + list);
}

nlohmann::json ship_to_json(const ShipState& s) {
  nlohmann::json orders = nlohmann::json::array();
  for (const OrderSlot& o : s.orders)
    orders.push_back({{"order", to_string(o.kind)}, {"revealed", o.revealed}, {"removed", o.removed}});
  nlohmann::json pending = nlohmann::json::array();
  for (const PendingOrder& p : s.pending) pending.push_back({{"order", to_string(p.kind)}, {"source", p.source}});
  return {{"id", s.id},
          {"card", s.card},
          {"controller", s.controller},
          {"pose", pose_to_json(s.pose)},
          {"shape", model::shape_to_json(s.shape)},
          {"speed", s.speed},
          {"shields", s.shields},
          {"hull", s.hull},
          {"max_speed_penalty", s.max_speed_penalty},
          {"crits", s.crits},
          {"orders", orders},
          {"cloaked", s.cloaked},
          {"cloak_raised_phase", s.cloak_raised_phase},
          {"destroyed", s.destroyed},
          {"order_revealed", s.order_revealed},
          {"moved", s.moved},
          {"pending", pending}};
}

ShipState parse_ship(const io::JsonCursor& c) {
  ShipState s;
  s.id = c.at("id").non_empty_string();
  s.card = c.at("card").non_empty_string();
  s.controller = c.at("controller").non_empty_string();
  s.pose = parse_pose(c.at("pose"));
  s.shape = model::parse_shape(c.at("shape"));
  s.speed = c.at("speed").int_in(0, 1000);
  s.shields = c.at("shields").int_in(0, 1000);
  s.hull = c.at("hull").int_in(0, 1000);
  s.max_speed_penalty = c.at("max_speed_penalty").int_in(0, 1000);
  auto crits = c.at("crits");
  for (const std::string& key : crits.keys()) s.crits[key] = crits.at(key).int_in(0, 2);
  auto orders = c.at("orders");
  for (std::size_t i = 0; i < orders.size(); ++i) {
    auto o = orders.at(i);
    s.orders.push_back({parse_order_kind(o.at("order")), o.at("revealed").boolean(), o.at("removed").boolean()});
  }
  s.cloaked = c.at("cloaked").boolean();
  s.cloak_raised_phase = c.at("cloak_raised_phase").int_in(-1, 1 << 30);
  s.destroyed = c.at("destroyed").boolean();
  s.order_revealed = c.at("order_revealed").boolean();
  s.moved = c.at("moved").boolean();
  auto pending = c.at("pending");
  for (std::size_t i = 0; i < pending.size(); ++i)
    s.pending.push_back({parse_order_kind(pending.at(i).at("order")), pending.at(i).at("source").string()});
  return s;
}

}  // namespace

double heading_to_json(double heading_deg) {
  // Nine decimals are far below any measurement.
  double heading = std::round(geom::wrap_degrees(heading_deg) * 1e9) / 1e9;
  return heading == 360 ? 0.0 : heading;
}

nlohmann::json pose_to_json(const geom::Pose& pose) {
  // The heading is kept as a rotation (cos, sin): back in degrees it can be 1e-14 off the value
  // that was read (40 -> 40.000000000000007).
  return {{"x", pose.position.x}, {"y", pose.position.y}, {"heading", heading_to_json(pose.heading_deg())}};
}

geom::Pose parse_pose(const io::JsonCursor& c) {
  c.allow_only({"x", "y", "heading"});
  return geom::Pose::from_degrees(model::bounds::coordinate_mm(c.at("x")), model::bounds::coordinate_mm(c.at("y")),
                                  geom::wrap_degrees(model::bounds::angle_deg(c.at("heading"))));
}

nlohmann::json state_to_json(const GameState& s) {
  nlohmann::json players = nlohmann::json::array();
  for (const Player& p : s.players) players.push_back({{"id", p.id}, {"team", p.team}});
  nlohmann::json ships = nlohmann::json::array();
  for (const ShipState& ship : s.ships) ships.push_back(ship_to_json(ship));
  nlohmann::json disks = nlohmann::json::array();
  for (const CrewTechDisk& d : s.disks)
    disks.push_back({{"id", d.id},
                     {"card", d.card},
                     {"owner", d.owner},
                     {"location", d.location},
                     {"revealed", d.revealed},
                     {"ready", d.ready},
                     {"in_play", d.in_play}});
  nlohmann::json torpedoes = nlohmann::json::array();
  for (const Torpedo& t : s.torpedoes)
    torpedoes.push_back({{"id", t.id},
                         {"launcher", t.launcher},
                         {"pose", pose_to_json(t.pose)},
                         {"shape", model::shape_to_json(t.shape)},
                         {"movement", t.movement},
                         {"damage", t.damage},
                         {"moves_left", t.moves_left}});
  nlohmann::json terrain = nlohmann::json::array();
  for (const Terrain& t : s.terrain)
    terrain.push_back({{"id", t.id},
                       {"kind", to_string(t.kind)},
                       {"pose", pose_to_json(t.pose)},
                       {"shape", model::shape_to_json(t.shape)},
                       {"damage", t.damage},
                       {"in_play", t.in_play}});
  nlohmann::json boarding = nlohmann::json::array();
  for (const BoardingCombat& b : s.boarding)
    boarding.push_back({{"ship", b.ship}, {"segments", b.segments}, {"over", b.over}});
  return {{"turn", s.turn},
          {"step", to_string(s.step)},
          {"phase",
           {{"number", s.phase.number},
            {"stage", to_string(s.phase.stage)},
            {"initiative", s.phase.initiative},
            {"to_act", s.phase.to_act},
            {"option", s.phase.option},
            {"acting", s.phase.acting ? nlohmann::json(*s.phase.acting) : nlohmann::json()}}},
          {"phase_serial", s.phase_serial},
          {"players", players},
          {"reveal_done", s.reveal_done},
          {"ships", ships},
          {"disks", disks},
          {"torpedoes", torpedoes},
          {"terrain", terrain},
          {"boarding", boarding},
          {"play_area_mm", {s.play_area_mm.x, s.play_area_mm.y}},
          {"drops",
           {{"mode", to_string(s.drops.mode)},
            {"seed", hex64(s.drops.seed)},
            {"rng", hex64(s.drops.rng)},
            {"made", s.drops.made}}},
          {"next_torpedo", s.next_torpedo},
          {"actions_applied", s.actions_applied},
          {"winner", s.winner ? nlohmann::json(*s.winner) : nlohmann::json()}};
}

GameState state_from_json(const io::JsonCursor& root) {
  GameState s;
  s.turn = root.at("turn").int_in(1, 1 << 30);
  s.step = enum_from(root.at("step"),
                     std::array{Step::reveal, Step::orders, Step::execute, Step::boarding, Step::game_over});
  auto phase = root.at("phase");
  s.phase.number = phase.at("number").int_in(1, 3);
  s.phase.stage =
      enum_from(phase.at("stage"), std::array{PhaseStage::initiative, PhaseStage::ships, PhaseStage::torpedoes});
  s.phase.initiative = string_list(phase.at("initiative"));
  s.phase.to_act = string_list(phase.at("to_act"));
  s.phase.option = phase.at("option").int_in(0, 1 << 20);
  if (auto acting = phase.find("acting")) s.phase.acting = acting->string();
  s.phase_serial = root.at("phase_serial").int_in(0, 1 << 30);
  auto players = root.at("players");
  for (std::size_t i = 0; i < players.size(); ++i)
    s.players.push_back({players.at(i).at("id").non_empty_string(), players.at(i).at("team").non_empty_string()});
  s.reveal_done = string_list(root.at("reveal_done"));
  auto ships = root.at("ships");
  for (std::size_t i = 0; i < ships.size(); ++i) s.ships.push_back(parse_ship(ships.at(i)));
  auto disks = root.at("disks");
  for (std::size_t i = 0; i < disks.size(); ++i) {
    auto d = disks.at(i);
    s.disks.push_back({d.at("id").non_empty_string(), d.at("card").non_empty_string(), d.at("owner").non_empty_string(),
                       d.at("location").non_empty_string(), d.at("revealed").boolean(), d.at("ready").boolean(),
                       d.at("in_play").boolean()});
  }
  auto torpedoes = root.at("torpedoes");
  for (std::size_t i = 0; i < torpedoes.size(); ++i) {
    auto t = torpedoes.at(i);
    s.torpedoes.push_back({t.at("id").non_empty_string(), t.at("launcher").non_empty_string(), parse_pose(t.at("pose")),
                           model::parse_shape(t.at("shape")), t.at("movement").int_in(1, 100),
                           t.at("damage").int_in(0, 100), t.at("moves_left").int_in(0, 100)});
  }
  auto terrain = root.at("terrain");
  for (std::size_t i = 0; i < terrain.size(); ++i) {
    auto t = terrain.at(i);
    s.terrain.push_back(
        {t.at("id").non_empty_string(),
         enum_from(t.at("kind"), std::array{TerrainKind::planet, TerrainKind::terrain, TerrainKind::obstruction}),
         parse_pose(t.at("pose")), model::parse_shape(t.at("shape")), t.at("damage").int_in(0, 100),
         t.at("in_play").boolean()});
  }
  auto boarding = root.at("boarding");
  for (std::size_t i = 0; i < boarding.size(); ++i)
    s.boarding.push_back({boarding.at(i).at("ship").non_empty_string(), boarding.at(i).at("segments").int_in(0, 3),
                          boarding.at(i).at("over").boolean()});
  auto area = root.at("play_area_mm");
  area.numbers(2);
  s.play_area_mm = {model::bounds::play_area_side_mm(area.at(std::size_t{0})),
                    model::bounds::play_area_side_mm(area.at(std::size_t{1}))};
  auto drops = root.at("drops");
  s.drops.mode = enum_from(drops.at("mode"), std::array{DropMode::table, DropMode::virtual_drops});
  s.drops.seed = parse_hex64(drops.at("seed"));
  s.drops.rng = parse_hex64(drops.at("rng"));
  s.drops.made = drops.at("made").integer();
  s.next_torpedo = root.at("next_torpedo").int_in(1, 1 << 30);
  s.actions_applied = root.at("actions_applied").integer();
  if (auto winner = root.find("winner")) s.winner = winner->string();
  return s;
}

}  // namespace diskref::rules
