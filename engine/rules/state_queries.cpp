#include "engine/rules/state_queries.h"

#include <algorithm>
#include <stdexcept>

#include "engine/rules/refusal.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {
template <typename T>
T* find_in(std::vector<T>& items, std::string_view id) {
  for (T& item : items)
    if (item.id == id) return &item;
  return nullptr;
}
template <typename T>
const T* find_in(const std::vector<T>& items, std::string_view id) {
  for (const T& item : items)
    if (item.id == id) return &item;
  return nullptr;
}
}  // namespace

ShipState* find_ship(GameState& state, std::string_view id) {
  return find_in(state.ships, id);
}
const ShipState* find_ship(const GameState& state, std::string_view id) {
  return find_in(state.ships, id);
}
CrewTechDisk* find_disk(GameState& state, std::string_view id) {
  return find_in(state.disks, id);
}
const CrewTechDisk* find_disk(const GameState& state, std::string_view id) {
  return find_in(state.disks, id);
}
Torpedo* find_torpedo(GameState& state, std::string_view id) {
  return find_in(state.torpedoes, id);
}
Terrain* find_terrain(GameState& state, std::string_view id) {
  return find_in(state.terrain, id);
}
const Terrain* find_terrain(const GameState& state, std::string_view id) {
  return find_in(state.terrain, id);
}
const Player* find_player(const GameState& state, std::string_view id) {
  return find_in(state.players, id);
}

std::string team_of(const GameState& state, std::string_view player) {
  const Player* p = find_player(state, player);
  return p != nullptr ? p->team : std::string(player);
}

bool same_team(const GameState& state, std::string_view player_a, std::string_view player_b) {
  return team_of(state, player_a) == team_of(state, player_b);
}

ShipState& ship_or_refuse(GameState& state, std::string_view id) {
  ShipState* ship = find_ship(state, id);
  if (ship == nullptr) refuse(RefusalKind::unknown_name, "no ship " + in_quotes(std::string(id)));
  if (ship->destroyed) refuse(RefusalKind::unknown_name, "ship " + std::string(id) + " has been destroyed");
  return *ship;
}

ShipState& own_ship_or_refuse(GameState& state, std::string_view player, std::string_view id) {
  ShipState& ship = ship_or_refuse(state, id);
  if (ship.controller != player)
    refuse(RefusalKind::not_yours,
           std::string(player) + " does not control " + ship.id + " (" + ship.controller + " does)");
  return ship;
}

CrewTechDisk& disk_or_refuse(GameState& state, std::string_view id) {
  CrewTechDisk* disk = find_disk(state, id);
  if (disk == nullptr) refuse(RefusalKind::unknown_name, "no crew or tech disk " + in_quotes(std::string(id)));
  if (!disk->in_play) refuse(RefusalKind::disk_not_ready, disk->id + " has been removed from play");
  return *disk;
}

// A state's cards were checked against the game's data when it was set up (setup.cpp): a card
// missing here is a bug, said as one rather than read through a null pointer.
const ShipCard& card_of(const GameData& data, const ShipState& ship) {
  const ShipCard* card = data.ship(ship.card);
  if (!card) throw std::logic_error("ship " + ship.id + ": no card \"" + ship.card + "\" in the game's data");
  return *card;
}
const DiskCard& card_of(const GameData& data, const CrewTechDisk& disk) {
  const DiskCard* card = data.disk(disk.card);
  if (!card) throw std::logic_error("disk " + disk.id + ": no card \"" + disk.card + "\" in the game's data");
  return *card;
}

std::vector<CrewTechDisk*> disks_aboard(GameState& state, std::string_view location) {
  std::vector<CrewTechDisk*> out;
  for (CrewTechDisk& d : state.disks)
    if (d.in_play && d.location == location) out.push_back(&d);
  return out;
}

std::vector<const CrewTechDisk*> disks_aboard(const GameState& state, std::string_view location) {
  std::vector<const CrewTechDisk*> out;
  for (const CrewTechDisk& d : state.disks)
    if (d.in_play && d.location == location) out.push_back(&d);
  return out;
}

bool is_friendly_crew(const GameState& state, const ShipState& ship, const CrewTechDisk& disk) {
  return same_team(state, disk.owner, ship.controller);
}

int continuous_bonus(const GameState& state, const GameData& data, const ShipState& ship, AbilityType type) {
  int total = 0;
  for (const CrewTechDisk* d : disks_aboard(state, ship.id)) {
    const DiskCard& card = card_of(data, *d);
    // Tech serves whoever controls the ship; crew only their own side.
    bool sides_with_ship = card.kind == DiskKindOfCard::tech || is_friendly_crew(state, ship, *d);
    if (!in_effect(*d) || !sides_with_ship) continue;
    for (const Ability& a : card.abilities)
      if (a.type == type) total += a.amount;
  }
  return total;
}

int max_speed(const GameState& state, const GameData& data, const ShipState& ship) {
  int v = card_of(data, ship).max_speed + continuous_bonus(state, data, ship, AbilityType::max_speed) -
          ship.max_speed_penalty;
  return std::max(v, 0);
}

int max_shields(const GameData& data, const ShipState& ship) {
  return card_of(data, ship).shields;
}

int command_total(const GameState& state, const GameData& data, const ShipState& ship) {
  int total = 0;
  for (const CrewTechDisk* d : disks_aboard(state, ship.id)) {
    const DiskCard& card = card_of(data, *d);
    if (card.kind == DiskKindOfCard::crew && d->revealed && is_friendly_crew(state, ship, *d)) total += card.command;
  }
  return total;
}

std::vector<std::string> ships_in_play(const GameState& state) {
  std::vector<std::string> out;
  for (const ShipState& s : state.ships)
    if (!s.destroyed) out.push_back(s.id);
  return out;
}

}  // namespace diskref::rules
