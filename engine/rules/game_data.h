#pragma once
// The game's card data, loaded from data files (docs/rules.md, open parameters 9 and 16): ships,
// crew and tech disks, the critical types, and the open parameters. Nothing here is hard-coded in
// the engine: the sample set in data/rules/ holds what the rules pages show, with every guessed
// value listed in the entry's "placeholder" member.

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/geometry/shape.h"
#include "engine/rules/order_kind.h"
#include "engine/rules/parameters.h"

namespace diskref::rules {

// Torpedo data of a ship (docs/rules.md, open parameter 3: size, movement, damage from the ship
// data).
struct TorpedoData {
  int movement = 0;  // flips per move
  int damage = 0;    // damage rating: counters dropped on contact
  geom::Shape shape = geom::Circle{25.4};
};

struct ShipCard {
  std::string id;
  std::string name;
  std::string faction;
  int max_speed = 0;
  int shields = 0;  // maximum shield strength
  int hull = 0;
  int beam = 0;  // beam weapon rating: counters dropped per shot
  std::optional<TorpedoData> torpedo;
  int capacity = 0;  // crew and tech disks it may carry (docs/rules.md, open parameter 17)
  int points = 0;
  std::vector<std::string> keywords;
  std::vector<std::string> placeholders;  // members whose values are guesses
  std::string source;                     // where the known values come from
};

// What a special ability does. How it is used follows from its type ("continuous", "flip" or
// "activate_order"); data files state the use and the loader checks it matches.
enum class AbilityType {
  transporter_range,  // continuous: +amount transporter range ("+1 transporter range")
  max_speed,          // continuous: +amount (or -) maximum speed
  beam_refire,        // flip: after scoring `amount` hits with the beam, fire again
  ready_a_tech,       // Activate Crew/Tech order: ready any tech on the same ship
  cloak,              // a cloaking device of type I, II or III
};
enum class AbilityUse { continuous, flip, activate_order, cloak };
enum class CloakType { type_1 = 1, type_2 = 2, type_3 = 3 };

std::string_view to_string(AbilityType type);
std::string_view to_string(AbilityUse use);
AbilityUse use_of(AbilityType type);

struct Ability {
  AbilityType type = AbilityType::transporter_range;
  int amount = 0;       // transporter_range, max_speed: bonus; beam_refire: hits needed
  bool or_more = true;  // beam_refire: `amount` or more hits (true) or exactly `amount`
  CloakType cloak = CloakType::type_1;
};

enum class DiskKindOfCard { crew, tech };

struct DiskCard {
  std::string id;
  std::string name;
  DiskKindOfCard kind = DiskKindOfCard::crew;
  std::string faction;
  int command = 0;
  int combat = 0;
  int cost = 0;
  std::vector<std::string> keywords;  // e.g. bridge, Captain, Unique, Unlimited
  // Order icons, one vector per row; orders in one row are paired ("you may flip and activate this
  // disk to perform both orders in a pair in one Order phase").
  std::vector<std::vector<OrderKind>> order_rows;
  std::vector<Ability> abilities;
  std::string text;
  std::vector<std::string> placeholders;
  std::string source;

  // Keywords compare case-insensitively ("Captain" == "captain").
  bool has_keyword(std::string_view keyword) const;
  const Ability* ability(AbilityType type) const;
};

// What a critical does (docs/rules.md, open parameter 9: user-defined table; the bridge crit as
// given).
enum class CritEffectType {
  remove_revealed_crew,  // remove every revealed crew aboard with `keyword` from play
  shields_down,          // current shields to 0
  full_stop,             // current speed to 0
  max_speed_penalty,     // maximum speed reduced by `amount`
};
std::string_view to_string(CritEffectType type);

struct CritEffect {
  CritEffectType type = CritEffectType::remove_revealed_crew;
  std::string keyword;
  int amount = 0;
};

struct CritType {
  std::string id;
  std::string name;
  std::string text;
  std::vector<CritEffect> effects;  // may be empty: the crit is only counted
  std::vector<std::string> placeholders;
};

struct GameData {
  Parameters parameters;
  std::vector<ShipCard> ships;
  std::vector<DiskCard> disks;  // crew and tech
  // The critical counters, one per type, in the order a critical drop lists them.
  std::vector<CritType> crit_types;

  const ShipCard* ship(std::string_view id) const;
  const DiskCard* disk(std::string_view id) const;
  const CritType* crit(std::string_view id) const;
};

bool keyword_equals(std::string_view a, std::string_view b);

}  // namespace diskref::rules
