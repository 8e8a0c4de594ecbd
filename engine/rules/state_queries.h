#pragma once
// Looking things up in the state, and the derived values the rules ask for (maximum speed, command
// totals, which disks are in effect). The *_or_refuse helpers refuse with a reason when a name is
// unknown or not the player's.

#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/game_data.h"
#include "engine/rules/state.h"

namespace diskref::rules {

ShipState* find_ship(GameState& state, std::string_view id);
const ShipState* find_ship(const GameState& state, std::string_view id);
CrewTechDisk* find_disk(GameState& state, std::string_view id);
const CrewTechDisk* find_disk(const GameState& state, std::string_view id);
Torpedo* find_torpedo(GameState& state, std::string_view id);
Terrain* find_terrain(GameState& state, std::string_view id);
const Terrain* find_terrain(const GameState& state, std::string_view id);
const Player* find_player(const GameState& state, std::string_view id);

std::string team_of(const GameState& state, std::string_view player);
bool same_team(const GameState& state, std::string_view player_a, std::string_view player_b);

// Refuses unknown_name for an unknown or destroyed ship, not_yours when `player` does not control it.
ShipState& ship_or_refuse(GameState& state, std::string_view id);
ShipState& own_ship_or_refuse(GameState& state, std::string_view player, std::string_view id);
CrewTechDisk& disk_or_refuse(GameState& state, std::string_view id);

const ShipCard& card_of(const GameData& data, const ShipState& ship);
const DiskCard& card_of(const GameData& data, const CrewTechDisk& disk);

// Revealed, ready and in play: the disk can use its abilities and issue orders ("Activated disks
// can't use abilities, issue orders, be transported, or be used in any other way until readied
// again").
inline bool in_effect(const CrewTechDisk& disk) {
  return disk.in_play && disk.revealed && disk.ready;
}

// Crew and tech in play aboard a ship or terrain disk.
std::vector<CrewTechDisk*> disks_aboard(GameState& state, std::string_view location);
std::vector<const CrewTechDisk*> disks_aboard(const GameState& state, std::string_view location);

// Crew aboard a ship that side with its controller (same team).
bool is_friendly_crew(const GameState& state, const ShipState& ship, const CrewTechDisk& disk);

// Card maximum, plus continuous max_speed abilities in effect aboard, less critical penalties
// (never below 0). "Tech upgrades that give bonuses or penalties to speed affect the ship's
// maximum speed, not its current speed."
int max_speed(const GameState& state, const GameData& data, const ShipState& ship);
int max_shields(const GameData& data, const ShipState& ship);

// Sum of `type` ability amounts over disks in effect aboard the ship (its controller's side).
int continuous_bonus(const GameState& state, const GameData& data, const ShipState& ship, AbilityType type);

// The command initiative total: command values of the revealed friendly crew aboard.
int command_total(const GameState& state, const GameData& data, const ShipState& ship);

// Ships still in the game, in state order.
std::vector<std::string> ships_in_play(const GameState& state);

}  // namespace diskref::rules
