#include "engine/rules/data_loading.h"

#include <algorithm>

#include <nlohmann/json.hpp>

#include "engine/io/input_error.h"
#include "engine/model/shape_json.h"
#include "engine/rules/parameters_json.h"
#include "engine/rules/rules_json.h"
#include "engine/rules/text.h"

namespace diskref::rules {

namespace {

// "placeholder" must name members the entry has.
std::vector<std::string> placeholders(const io::JsonCursor& entry) {
  auto found = entry.find("placeholder");
  if (!found) return {};
  std::vector<std::string> names = string_list(*found);
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i] != "*" && !entry.has(names[i]))
      found->at(i).fail("names " + in_quotes(names[i]) + ", which this entry does not have");
  return names;
}

ShipCard parse_ship_card(const io::JsonCursor& c) {
  c.allow_only({"id", "name", "faction", "max_speed", "shields", "hull", "beam", "torpedo", "capacity", "points",
                "keywords", "placeholder", "source", "note"});
  ShipCard s;
  s.id = c.at("id").non_empty_string();
  s.name = c.at("name").non_empty_string();
  s.faction = c.string_or("faction", "");
  s.max_speed = c.at("max_speed").int_in(0, 100);
  s.shields = c.at("shields").int_in(0, 100);
  s.hull = c.at("hull").int_in(1, 100);
  s.beam = c.at("beam").int_in(0, 100);
  if (auto t = c.find("torpedo")) {
    t->allow_only({"movement", "damage", "shape"});
    s.torpedo = TorpedoData{t->at("movement").int_in(1, 100), t->at("damage").int_in(0, 100),
                            model::parse_shape(t->at("shape"))};
  }
  s.capacity = c.at("capacity").int_in(0, 100);
  s.points = c.at("points").int_in(0, 10000);
  if (auto k = c.find("keywords")) s.keywords = string_list(*k);
  s.placeholders = placeholders(c);
  s.source = c.string_or("source", "");
  return s;
}

Ability parse_ability(const io::JsonCursor& c) {
  c.allow_only({"type", "use", "amount", "or_more", "cloak", "text"});
  Ability a;
  std::string type = c.at("type").one_of({"transporter_range", "max_speed", "beam_refire", "ready_a_tech", "cloak"});
  for (AbilityType t : {AbilityType::transporter_range, AbilityType::max_speed, AbilityType::beam_refire,
                        AbilityType::ready_a_tech, AbilityType::cloak})
    if (to_string(t) == type) a.type = t;
  auto use = c.at("use");
  if (use.string() != to_string(use_of(a.type)))
    use.fail("a " + type + " ability is used " + in_quotes(std::string(to_string(use_of(a.type)))));
  switch (a.type) {
    case AbilityType::transporter_range:
      a.amount = c.at("amount").int_in(1, 10);
      break;
    case AbilityType::max_speed:
      a.amount = c.at("amount").int_in(-10, 10);
      break;
    case AbilityType::beam_refire:
      a.amount = c.at("amount").int_in(1, 100);
      a.or_more = c.boolean_or("or_more", true);
      break;
    case AbilityType::ready_a_tech:
      break;
    case AbilityType::cloak: {
      std::string t = c.at("cloak").one_of({"I", "II", "III"});
      a.cloak = t == "I" ? CloakType::type_1 : t == "II" ? CloakType::type_2 : CloakType::type_3;
      break;
    }
  }
  return a;
}

DiskCard parse_disk_card(const io::JsonCursor& c, DiskKindOfCard kind) {
  if (kind == DiskKindOfCard::crew)
    c.allow_only({"id", "name", "faction", "command", "combat", "cost", "keywords", "orders", "abilities", "text",
                  "placeholder", "source", "note"});
  else
    c.allow_only({"id", "name", "faction", "cost", "keywords", "abilities", "text", "placeholder", "source", "note"});
  DiskCard d;
  d.kind = kind;
  d.id = c.at("id").non_empty_string();
  d.name = c.at("name").non_empty_string();
  d.faction = c.string_or("faction", "");
  d.cost = c.at("cost").int_in(0, 1000);
  if (kind == DiskKindOfCard::crew) {
    d.command = c.at("command").int_in(0, 100);
    d.combat = c.at("combat").int_in(0, 100);
  }
  if (auto k = c.find("keywords")) d.keywords = string_list(*k);
  if (auto rows = c.find("orders")) {
    for (std::size_t r = 0; r < rows->size(); ++r) {
      auto row = rows->at(r);
      if (row.size() < 1 || row.size() > 2) row.fail("an order row holds one order or a pair");
      std::vector<OrderKind> orders;
      for (std::size_t i = 0; i < row.size(); ++i) orders.push_back(parse_order_kind(row.at(i)));
      d.order_rows.push_back(orders);
    }
  }
  if (auto abilities = c.find("abilities"))
    for (std::size_t i = 0; i < abilities->size(); ++i) d.abilities.push_back(parse_ability(abilities->at(i)));
  d.text = c.string_or("text", "");
  d.placeholders = placeholders(c);
  d.source = c.string_or("source", "");
  return d;
}

CritType parse_crit_type(const io::JsonCursor& c) {
  c.allow_only({"id", "name", "text", "effects", "placeholder", "source", "note"});
  CritType t;
  t.id = c.at("id").non_empty_string();
  t.name = c.at("name").non_empty_string();
  t.text = c.string_or("text", "");
  auto effects = c.at("effects");
  for (std::size_t i = 0; i < effects.size(); ++i) {
    auto e = effects.at(i);
    std::string type = e.at("type").one_of({"remove_revealed_crew", "shields_down", "full_stop", "max_speed_penalty"});
    CritEffect effect;
    if (type == "remove_revealed_crew") {
      e.allow_only({"type", "keyword"});
      effect = {CritEffectType::remove_revealed_crew, e.at("keyword").non_empty_string(), 0};
    } else if (type == "max_speed_penalty") {
      e.allow_only({"type", "amount"});
      effect = {CritEffectType::max_speed_penalty, "", e.at("amount").int_in(1, 100)};
    } else {
      e.allow_only({"type"});
      effect.type = type == "shields_down" ? CritEffectType::shields_down : CritEffectType::full_stop;
    }
    t.effects.push_back(effect);
  }
  t.placeholders = placeholders(c);
  return t;
}

// Refuses an id that an earlier entry (this or another file) already uses.
template <typename T>
void add_unique(std::vector<T>& items, T item, const io::JsonCursor& entry, const char* what) {
  if (std::any_of(items.begin(), items.end(), [&](const T& x) { return x.id == item.id; }))
    entry.at("id").fail(std::string(what) + " " + in_quotes(item.id) + " is defined twice");
  items.push_back(std::move(item));
}

}  // namespace

void merge_data_file(GameData& data, const io::JsonCursor& root) {
  root.allow_only({"about", "parameters", "crit_types", "ships", "crew", "tech"});
  if (auto params = root.find("parameters")) apply_parameters(data.parameters, *params);
  if (auto crits = root.find("crit_types"))
    for (std::size_t i = 0; i < crits->size(); ++i)
      add_unique(data.crit_types, parse_crit_type(crits->at(i)), crits->at(i), "critical type");
  if (auto ships = root.find("ships"))
    for (std::size_t i = 0; i < ships->size(); ++i)
      add_unique(data.ships, parse_ship_card(ships->at(i)), ships->at(i), "ship");
  for (auto [section, kind] : {std::pair{"crew", DiskKindOfCard::crew}, std::pair{"tech", DiskKindOfCard::tech}})
    if (auto cards = root.find(section))
      for (std::size_t i = 0; i < cards->size(); ++i)
        add_unique(data.disks, parse_disk_card(cards->at(i), kind), cards->at(i), "crew or tech disk");
}

void check_game_data(const GameData& data, const std::string& where) {
  if (data.crit_types.empty())
    throw io::InputError(where, "", "the game data defines no critical types (\"crit_types\"); the rules have five");
}

GameData load_game_data(const std::vector<std::filesystem::path>& paths) {
  std::vector<std::filesystem::path> files;
  for (const auto& p : paths) {
    if (std::filesystem::is_directory(p)) {
      std::vector<std::filesystem::path> inside;
      for (const auto& entry : std::filesystem::directory_iterator(p))
        if (entry.path().extension() == ".json") inside.push_back(entry.path());
      std::sort(inside.begin(), inside.end());
      if (inside.empty()) throw io::InputError(p.string(), "", "directory holds no .json data files");
      files.insert(files.end(), inside.begin(), inside.end());
    } else {
      files.push_back(p);
    }
  }
  GameData data;
  for (const auto& file : files) {
    nlohmann::json doc = io::read_json_file(file);
    merge_data_file(data, io::JsonCursor(doc, file.string()));
  }
  check_game_data(data, files.empty() ? std::string() : files.back().string());
  return data;
}

}  // namespace diskref::rules
