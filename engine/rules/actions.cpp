#include "engine/rules/actions.h"

#include <array>
#include <type_traits>

namespace diskref::rules {

OrderKind order_kind_of(const OrderBody& body) {
  return std::visit(
      [](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, ChangeSpeed>)
          return OrderKind::change_speed;
        else if constexpr (std::is_same_v<T, ChangeHeading>)
          return OrderKind::change_heading;
        else if constexpr (std::is_same_v<T, RaiseShields>)
          return OrderKind::raise_shields;
        else if constexpr (std::is_same_v<T, ActivateDisk>)
          return OrderKind::activate;
        else
          return OrderKind::attack;  // BeamAttack, LaunchTorpedo, Transport
      },
      body);
}

namespace {
// In the order of the ActionBody alternatives.
constexpr std::array<std::string_view, 14> kNames = {
    "reveal", "orders",         "initiative",  "defer",      "reveal_order", "decline",          "execute",
    "move",   "move_torpedoes", "raise_cloak", "drop_cloak", "turn",         "boarding_segment", "displaced"};
static_assert(kNames.size() == std::variant_size_v<ActionBody>);
}  // namespace

std::string_view action_name(const ActionBody& body) {
  return kNames[body.index()];
}

std::span<const std::string_view> action_names() {
  return kNames;
}

bool needs_player(const ActionBody& body) {
  return !std::holds_alternative<DetermineInitiative>(body) && !std::holds_alternative<MoveTorpedoes>(body) &&
         !std::holds_alternative<BoardingSegment>(body) && !std::holds_alternative<Displaced>(body);
}

}  // namespace diskref::rules
