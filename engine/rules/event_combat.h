#pragma once
// Events of attacks, damage and crew combat: drops of counters, range, hits, damage, criticals, ships
// destroyed, boarding and control. One struct per kind (engine/rules/events.h); each member is named
// as its key in the log (engine/rules/event_json.h), save where a comment says.

#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/drops.h"

namespace diskref::rules::event {

// A drop of counters. In the log, "source" is "table" (`seen`) or "virtual", and "crits" is
// `crit_types` for a critical check (its typed counters showing their critical face), else `crits`.
struct Drop {
  static constexpr std::string_view kind = "drop";
  DropPurpose purpose = DropPurpose::damage;
  std::string subject;
  int counters = 0;
  int hits = 0;
  bool seen = false;
  int crits = 0;
  std::optional<std::vector<std::string>> crit_types;
};

// `ruled`: in range by the referee's call on the table rather than the books' geometry.
struct InRange {
  static constexpr std::string_view kind = "in_range";
  std::string from;
  std::string to;
  double gap_mm = 0;
  double reach_mm = 0;
  double margin_mm = 0;
  bool ruled = false;
};

struct BeamFired {
  static constexpr std::string_view kind = "beam_fired";
  std::string ship;
  std::string target;
  int rating = 0;
};

// A weapon's drop scores `hits` on the ship; `rating`: the counters dropped.
struct Hits {
  static constexpr std::string_view kind = "hits";
  std::string ship;
  std::string cause;
  int hits = 0;
  int rating = 0;
};

// Damage taken, and the ship's shields and hull after it.
struct Damage {
  static constexpr std::string_view kind = "damage";
  std::string ship;
  std::string cause;
  int to_shields = 0;
  int to_hull = 0;
  int shields = 0;
  int hull = 0;
};

struct Destroyed {
  static constexpr std::string_view kind = "destroyed";
  std::string ship;
  std::string why;
};

// A critical check with no critical taking effect; `showing`: the critical types showing.
struct NoCritical {
  static constexpr std::string_view kind = "no_critical";
  std::string ship;
  std::vector<std::string> showing;
  bool hull_damage = false;
};

// The ship takes a critical of type `crit`, its `count`th of that type.
struct Critical {
  static constexpr std::string_view kind = "critical";
  std::string ship;
  std::string crit;
  int count = 0;
};

// A critical removes revealed crew of a keyword from play (none when `crew` is empty).
struct CrewRemoved {
  static constexpr std::string_view kind = "crew_removed";
  std::string ship;
  std::vector<std::string> crew;
};

// A critical lowers the ship's maximum speed to `max_speed`.
struct MaxSpeed {
  static constexpr std::string_view kind = "max_speed";
  std::string ship;
  int max_speed = 0;
};

// A player's drop in crew combat: the combat total of his ready crew aboard, and the hits.
struct BoardingDrop {
  static constexpr std::string_view kind = "boarding_drop";
  std::string ship;
  std::string player;
  int combat = 0;
  int hits = 0;
};

// A segment of crew combat: the hits per team, and the teams that lose a crew.
struct BoardingSegment {
  static constexpr std::string_view kind = "boarding_segment";
  std::string ship;
  std::map<std::string, int> team_hits;
  std::vector<std::string> losing_teams;
};

struct CrewKilled {
  static constexpr std::string_view kind = "crew_killed";
  std::string ship;
  std::string crew;
};

struct BoardingOver {
  static constexpr std::string_view kind = "boarding_over";
  std::string ship;
  int segments = 0;
};

// Player `to` takes control of the ship from `from`, with revealed command `command`.
struct Control {
  static constexpr std::string_view kind = "control";
  std::string ship;
  std::string from;
  std::string to;
  int command = 0;
};

}  // namespace diskref::rules::event
