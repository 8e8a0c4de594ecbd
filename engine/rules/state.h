#pragma once
// The game state: a plain value (no pointers, no I/O) that round-trips through JSON
// (state_json.h). Entities refer to each other by id; every id (ship, crew/tech disk, torpedo,
// terrain) is unique in the game. Card data lives in GameData, not here: the state holds only
// what changes during play.

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/geometry/pose.h"
#include "engine/geometry/shape.h"
#include "engine/rules/order_kind.h"

namespace diskref::rules {

struct Player {
  std::string id;
  std::string team;  // teammates share a team id; a player alone is his own team
};

// A crew or tech disk. Tech stays on its ship; crew may be transported.
struct CrewTechDisk {
  std::string id;
  std::string card;      // DiskCard id
  std::string owner;     // player who brought it (crew: who commands it; tech: bought with the ship)
  std::string location;  // the ship or terrain disk it is aboard
  bool revealed = false;
  bool ready = true;    // false once flipped ("activated"); meaningful for revealed disks
  bool in_play = true;  // false once killed or removed from play
};

// One order disk on a control panel: face down until revealed; removed by evasive action or a
// collision.
struct OrderSlot {
  OrderKind kind = OrderKind::change_speed;
  bool revealed = false;
  bool removed = false;
};

// An order a ship may still execute this phase: its revealed panel order, or orders issued by an
// activated crew. `source` is "panel" or the crew disk's id.
struct PendingOrder {
  OrderKind kind = OrderKind::change_speed;
  std::string source;
};

struct ShipState {
  std::string id;  // also its name in the disk registry
  std::string card;
  std::string controller;  // player id
  geom::Pose pose;         // table frame (spec §1)
  geom::Shape shape;
  int speed = 0;
  int shields = 0;
  int hull = 0;
  int max_speed_penalty = 0;         // from critical effects
  std::map<std::string, int> crits;  // crit type id -> counters on the control panel
  std::vector<OrderSlot> orders;     // the three orders of this turn, left to right; empty before Step Two
  bool cloaked = false;
  int cloak_raised_phase = -1;  // GameState::phase_serial when the cloak was raised
  bool destroyed = false;
  // This phase (Step Three):
  bool order_revealed = false;  // revealed (or had no order left to reveal)
  bool moved = false;
  std::vector<PendingOrder> pending;
};

struct Torpedo {
  std::string id;
  std::string launcher;  // ship id
  geom::Pose pose;       // table frame (spec §1)
  geom::Shape shape;
  int movement = 0;
  int damage = 0;
  int moves_left = 0;  // end-of-phase moves still to make (docs/rules.md, open parameter 4)
};

enum class TerrainKind { planet, terrain, obstruction };

struct Terrain {
  std::string id;
  TerrainKind kind = TerrainKind::planet;  // planet/terrain: ship-planet collisions; obstruction
  geom::Pose pose;                         // table frame (spec §1)
  geom::Shape shape;
  int damage = 0;  // obstruction: hits a ship takes on overlapping it
  bool in_play = true;
};

// Step One reveal/conceal, Step Two orders, Step Three execution, Step 4 boarding.
enum class Step { reveal, orders, execute, boarding, game_over };

// Within a Step Three phase: waiting for initiative, ships acting, torpedoes moving.
enum class PhaseStage { initiative, ships, torpedoes };

struct PhaseState {
  int number = 1;  // 1..3
  PhaseStage stage = PhaseStage::initiative;
  std::vector<std::string> initiative;  // every ship in play, in initiative order
  std::vector<std::string> to_act;      // ships yet to finish this phase, in initiative order
  int option = 0;                       // index in to_act of the ship holding the option
  std::optional<std::string> acting;    // the ship that started acting and must finish
};

// One crew combat of Step 4 (on a ship holding crew of opposing teams).
struct BoardingCombat {
  std::string ship;
  int segments = 0;  // segments resolved
  bool over = false;
};

enum class DropMode { table, virtual_drops };

// Where random drops come from (drops.h). The PRNG state lives here so that the game replays
// identically from its seed.
struct DropState {
  DropMode mode = DropMode::table;
  std::uint64_t seed = 0;
  std::uint64_t rng = 0;  // splitmix64 state
  long long made = 0;     // drops made so far (seen or virtual)
};

struct GameState {
  int turn = 1;
  Step step = Step::reveal;
  PhaseState phase;
  int phase_serial = 0;  // counts Step Three phases over the whole game (cloak and torpedo timing)
  std::vector<Player> players;
  std::vector<std::string> reveal_done;  // players who finished Step One this turn
  std::vector<ShipState> ships;
  std::vector<CrewTechDisk> disks;
  std::vector<Torpedo> torpedoes;
  std::vector<Terrain> terrain;
  std::vector<BoardingCombat> boarding;
  geom::Vec2 play_area_mm{914.4, 914.4};
  DropState drops;
  int next_torpedo = 1;
  long long actions_applied = 0;
  std::optional<std::string> winner;  // team id once the game is over (empty string: no side left)
};

std::string_view to_string(Step step);
std::string_view to_string(PhaseStage stage);
std::string_view to_string(TerrainKind kind);
std::string_view to_string(DropMode mode);

}  // namespace diskref::rules
