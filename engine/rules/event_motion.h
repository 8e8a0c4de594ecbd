#pragma once
// Events of things moving on the table: ships flipping, disks found displaced, collisions, torpedoes
// launched, moving, striking and leaving. One struct per kind (engine/rules/events.h); each member
// is named as its key in the log (engine/rules/event_json.h).

#include <cstddef>
#include <string>
#include <string_view>

namespace diskref::rules::event {

// The ship moves `flips` flips (its speed); `from_table`: as the table showed the move.
struct Move {
  static constexpr std::string_view kind = "move";
  std::string ship;
  int flips = 0;
  bool from_table = false;
};

// The table showed a number of flips other than the ship's speed.
struct FlipCount {
  static constexpr std::string_view kind = "flip_count";
  std::string ship;
  std::size_t flips = 0;
  int speed = 0;
};

struct Evasive {
  static constexpr std::string_view kind = "evasive";
  std::string ship;
};

// A disk found away from where the books had it; the books take its new pose.
struct Displaced {
  static constexpr std::string_view kind = "displaced";
  std::string disk;
  double moved_mm = 0;
  double turned_deg = 0;
  double x = 0;
  double y = 0;
  double heading = 0;
};

// A collision check that found a collision; `crits`: the criticals showing.
struct Collision {
  static constexpr std::string_view kind = "collision";
  std::string ship;
  std::string with;
  int crits = 0;
};

// A collision check that found none.
struct NoCollision {
  static constexpr std::string_view kind = "no_collision";
  std::string ship;
  std::string with;
  int crits = 0;
};

// The ship placed again adjacent to what it collided with; `gap_mm`: the outline gap there.
struct Repositioned {
  static constexpr std::string_view kind = "repositioned";
  std::string ship;
  double x = 0;
  double y = 0;
  double heading = 0;
  double gap_mm = 0;
};

// The hit player leaves the ship where it is.
struct NotRepositioned {
  static constexpr std::string_view kind = "not_repositioned";
  std::string ship;
};

// The ship hits an obstruction, removed from play; `damage`: the hits it deals.
struct Obstruction {
  static constexpr std::string_view kind = "obstruction";
  std::string ship;
  std::string obstruction;
  int damage = 0;
};

// Where the torpedo starts, touching its ship's front.
struct TorpedoLaunched {
  static constexpr std::string_view kind = "torpedo_launched";
  std::string ship;
  std::string torpedo;
  double x = 0;
  double y = 0;
};

// The torpedoes in flight move at the end of a phase, `count` of them.
struct TorpedoesMove {
  static constexpr std::string_view kind = "torpedoes_move";
  std::size_t count = 0;
};

// The torpedo left the play area.
struct TorpedoGone {
  static constexpr std::string_view kind = "torpedo_gone";
  std::string torpedo;
};

struct TorpedoContact {
  static constexpr std::string_view kind = "torpedo_contact";
  std::string torpedo;
  std::string ship;
  std::string launcher;
};

struct TorpedoExpired {
  static constexpr std::string_view kind = "torpedo_expired";
  std::string torpedo;
};

}  // namespace diskref::rules::event
