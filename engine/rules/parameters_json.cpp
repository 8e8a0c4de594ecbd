#include "engine/rules/parameters_json.h"

#include <functional>
#include <string_view>

#include <nlohmann/json.hpp>

#include "engine/model/bounds.h"

namespace diskref::rules {

namespace {

using Setter = std::function<void(Parameters&, const io::JsonCursor&)>;

struct ParameterEntry {
  std::string_view name;
  int open_parameter;  // its number in docs/rules.md ("open parameter N")
  Setter set;
};

// A parameter the engine fixes by design: the data file states it, and only that value is accepted.
Setter fixed(std::string_view only) {
  return [only](Parameters&, const io::JsonCursor& c) { c.one_of({only}); };
}

// [a, b], each a size (engine/model/bounds.h): `read` is bounds::size_mm or bounds::play_area_side_mm.
geom::Vec2 size_pair(const io::JsonCursor& c, double (*read)(const io::JsonCursor&)) {
  c.numbers(2);
  return {read(c.at(std::size_t{0})), read(c.at(std::size_t{1}))};
}

const std::vector<ParameterEntry>& entries() {
  static const std::vector<ParameterEntry> kEntries = {
      {"disk_sizes", 1, fixed("registry")},
      {"flip_length", 2, fixed("flat_to_flat_or_diameter")},
      {"torpedoes_per_attack", 3, [](Parameters&, const io::JsonCursor& c) { c.int_in(1, 1); }},
      {"torpedo_end_of_phase_moves", 4,
       [](Parameters& p, const io::JsonCursor& c) { p.torpedo_end_of_phase_moves = c.int_in(1, 20); }},
      {"range_template_mm", 5,
       [](Parameters& p, const io::JsonCursor& c) {
         auto v = size_pair(c, model::bounds::size_mm);
         p.range_template = {v.x, v.y};
       }},
      {"plus_one_range_template_lengths", 5,
       [](Parameters& p, const io::JsonCursor& c) { p.plus_one_range_template_lengths = c.int_in(1, 10); }},
      {"play_area_mm", 6,
       [](Parameters& p, const io::JsonCursor& c) { p.play_area_mm = size_pair(c, model::bounds::play_area_side_mm); }},
      {"moved_out_when", 6, fixed("centre_beyond_edge")},
      {"terrain_sizes_and_damage", 7, fixed("scenario")},
      {"hit_face_odds", 8,
       [](Parameters& p, const io::JsonCursor& c) {
         double v = c.number();
         if (!(v > 0 && v < 1)) c.fail("must be strictly between 0 and 1 (so that tie-break drops end)");
         p.hit_face_odds = v;
       }},
      {"crit_types", 9, fixed("data")},
      {"collision_damage_crit_check", 10,
       [](Parameters& p, const io::JsonCursor& c) { p.collision_damage_crit_check = c.boolean(); }},
      {"raise_shields", 11,
       [](Parameters& p, const io::JsonCursor& c) {
         p.raise_shields =
             c.one_of({"any_value", "maximum"}) == "maximum" ? RaiseShieldsRule::maximum : RaiseShieldsRule::any_value;
       }},
      {"initiative", 12,
       [](Parameters& p, const io::JsonCursor& c) {
         p.initiative = c.one_of({"each_phase", "once_per_turn"}) == "once_per_turn" ? InitiativeTiming::once_per_turn
                                                                                     : InitiativeTiming::each_phase;
       }},
      {"initiative_tie_counters", 13,
       [](Parameters& p, const io::JsonCursor& c) { p.initiative_tie_counters = c.int_in(1, 50); }},
      {"readying", 14, fixed("by_effect_only")},
      {"same_order_twice", 15, [](Parameters& p, const io::JsonCursor& c) { p.same_order_twice = c.boolean(); }},
      {"card_data", 16, fixed("data_files")},
      {"enforce_keyword_limits", 17,
       [](Parameters& p, const io::JsonCursor& c) { p.enforce_keyword_limits = c.boolean(); }},
      {"victory", 18, fixed("last_side_controlling_a_ship")},
      {"planet_collision_placer", 19, fixed("colliding_player")},
      {"control_after_boarding", 20, fixed("highest_revealed_command")},
      {"torpedoes_hit_cloaked", 21,
       [](Parameters& p, const io::JsonCursor& c) { p.torpedoes_hit_cloaked = c.boolean(); }},
      {"cloaked_can_launch", 21, [](Parameters& p, const io::JsonCursor& c) { p.cloaked_can_launch = c.boolean(); }},
      {"evasive_max_turn_deg", 22,
       [](Parameters& p, const io::JsonCursor& c) { p.evasive_max_turn_deg = c.number_in(0, 360); }},
      {"contact_tolerance", 23, fixed("exact")},
      {"adjacent_tolerance_mm", 23,
       [](Parameters& p, const io::JsonCursor& c) { p.adjacent_tolerance_mm = model::bounds::tolerance_mm(c); }},
  };
  return kEntries;
}

}  // namespace

void apply_parameters(Parameters& params, const io::JsonCursor& section) {
  for (const std::string& key : section.keys()) {
    const ParameterEntry* entry = nullptr;
    for (const ParameterEntry& e : entries())
      if (e.name == key) entry = &e;
    io::JsonCursor value = section.at(key);
    if (entry == nullptr) {
      std::string list;
      for (const ParameterEntry& e : entries()) list += (list.empty() ? "" : ", ") + std::string(e.name);
      value.fail("unknown parameter (known: " + list + ")");
    }
    if (value.json().is_object()) {
      value.allow_only({"value", "open_parameter", "why", "note"});
      if (auto number = value.find("open_parameter"); number && number->int_in(1, 99) != entry->open_parameter)
        number->fail("is open parameter " + std::to_string(entry->open_parameter) + " in docs/rules.md");
      entry->set(params, value.at("value"));
    } else {
      entry->set(params, value);
    }
  }
}

nlohmann::json parameters_to_json(const Parameters& p) {
  return {{"torpedo_end_of_phase_moves", p.torpedo_end_of_phase_moves},
          {"range_template_mm", {p.range_template.length_mm, p.range_template.width_mm}},
          {"plus_one_range_template_lengths", p.plus_one_range_template_lengths},
          {"play_area_mm", {p.play_area_mm.x, p.play_area_mm.y}},
          {"hit_face_odds", p.hit_face_odds},
          {"collision_damage_crit_check", p.collision_damage_crit_check},
          {"raise_shields", p.raise_shields == RaiseShieldsRule::maximum ? "maximum" : "any_value"},
          {"initiative", p.initiative == InitiativeTiming::once_per_turn ? "once_per_turn" : "each_phase"},
          {"initiative_tie_counters", p.initiative_tie_counters},
          {"same_order_twice", p.same_order_twice},
          {"enforce_keyword_limits", p.enforce_keyword_limits},
          {"torpedoes_hit_cloaked", p.torpedoes_hit_cloaked},
          {"cloaked_can_launch", p.cloaked_can_launch},
          {"evasive_max_turn_deg", p.evasive_max_turn_deg},
          {"adjacent_tolerance_mm", p.adjacent_tolerance_mm}};
}

}  // namespace diskref::rules
