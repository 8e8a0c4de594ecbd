#include "engine/rules/game_data.h"

#include <algorithm>
#include <cctype>

namespace diskref::rules {

std::string_view to_string(AbilityType type) {
  switch (type) {
    case AbilityType::transporter_range:
      return "transporter_range";
    case AbilityType::max_speed:
      return "max_speed";
    case AbilityType::beam_refire:
      return "beam_refire";
    case AbilityType::ready_a_tech:
      return "ready_a_tech";
    case AbilityType::cloak:
      return "cloak";
  }
  return "?";
}

std::string_view to_string(AbilityUse use) {
  switch (use) {
    case AbilityUse::continuous:
      return "continuous";
    case AbilityUse::flip:
      return "flip";
    case AbilityUse::activate_order:
      return "activate_order";
    case AbilityUse::cloak:
      return "cloak";
  }
  return "?";
}

AbilityUse use_of(AbilityType type) {
  switch (type) {
    case AbilityType::transporter_range:
    case AbilityType::max_speed:
      return AbilityUse::continuous;
    case AbilityType::beam_refire:
      return AbilityUse::flip;
    case AbilityType::ready_a_tech:
      return AbilityUse::activate_order;
    case AbilityType::cloak:
      return AbilityUse::cloak;
  }
  return AbilityUse::continuous;
}

std::string_view to_string(CritEffectType type) {
  switch (type) {
    case CritEffectType::remove_revealed_crew:
      return "remove_revealed_crew";
    case CritEffectType::shields_down:
      return "shields_down";
    case CritEffectType::full_stop:
      return "full_stop";
    case CritEffectType::max_speed_penalty:
      return "max_speed_penalty";
  }
  return "?";
}

bool keyword_equals(std::string_view a, std::string_view b) {
  return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
           return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
         });
}

bool DiskCard::has_keyword(std::string_view keyword) const {
  return std::any_of(keywords.begin(), keywords.end(),
                     [&](const std::string& k) { return keyword_equals(k, keyword); });
}

const Ability* DiskCard::ability(AbilityType type) const {
  for (const Ability& a : abilities)
    if (a.type == type) return &a;
  return nullptr;
}

namespace {
template <typename T>
const T* find_by_id(const std::vector<T>& items, std::string_view id) {
  for (const T& item : items)
    if (item.id == id) return &item;
  return nullptr;
}
}  // namespace

const ShipCard* GameData::ship(std::string_view id) const {
  return find_by_id(ships, id);
}
const DiskCard* GameData::disk(std::string_view id) const {
  return find_by_id(disks, id);
}
const CritType* GameData::crit(std::string_view id) const {
  return find_by_id(crit_types, id);
}

}  // namespace diskref::rules
