#pragma once
// Events of a ship's orders and its disks: speed, heading and shields set, the cloak raised or
// dropped, crew and tech disks activated or readied, crew transported. One struct per kind
// (engine/rules/events.h); each member is named as its key in the log (engine/rules/event_json.h).

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/rules/game_data.h"
#include "engine/rules/order_kind.h"

namespace diskref::rules::event {

// The ship's speed is set (a Change Speed order: `full_stop` given), or drops to 0 by a critical
// (no `full_stop`).
struct Speed {
  static constexpr std::string_view kind = "speed";
  std::string ship;
  int speed = 0;
  std::optional<bool> full_stop;
};

// The ship's new heading, in degrees.
struct Heading {
  static constexpr std::string_view kind = "heading";
  std::string ship;
  double heading = 0;
};

// The ship's shields are set (Raise Shields) or drop (a critical).
struct Shields {
  static constexpr std::string_view kind = "shields";
  std::string ship;
  int shields = 0;
};

struct CloakRaised {
  static constexpr std::string_view kind = "cloak_raised";
  std::string ship;
  std::string device;
  CloakType type = CloakType::type_1;
};

// `shields`: the ship's shields after the cloak drops (full for a Type III cloak, else 0).
struct CloakDropped {
  static constexpr std::string_view kind = "cloak_dropped";
  std::string ship;
  std::string device;
  int shields = 0;
};

struct DiskActivated {
  static constexpr std::string_view kind = "disk_activated";
  std::string disk;
};

struct DiskReadied {
  static constexpr std::string_view kind = "disk_readied";
  std::string disk;
};

// A crew disk issues the orders of its row (0-based) to the ship.
struct CrewOrders {
  static constexpr std::string_view kind = "crew_orders";
  std::string ship;
  std::string disk;
  int row = 0;
  std::vector<OrderKind> orders;
};

struct Transported {
  static constexpr std::string_view kind = "transported";
  std::string from;
  std::string to;
  std::vector<std::string> crew;
  int range_bonus = 0;
};

}  // namespace diskref::rules::event
