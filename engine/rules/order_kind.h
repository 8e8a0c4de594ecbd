#pragma once
// The five orders (Step Two: "Players can choose from five orders, each represented by a different
// disk: Change Speed, Change Heading, Raise Shields, Attack, and Activate Crew/Tech.").

#include <array>
#include <optional>
#include <string_view>

namespace diskref::rules {

enum class OrderKind { change_speed, change_heading, raise_shields, attack, activate };

inline constexpr std::array<OrderKind, 5> kAllOrders = {OrderKind::change_speed, OrderKind::change_heading,
                                                        OrderKind::raise_shields, OrderKind::attack,
                                                        OrderKind::activate};

// "change_speed", "change_heading", "raise_shields", "attack", "activate" (the names in data
// files, scripts and the state JSON).
std::string_view to_string(OrderKind kind);
std::optional<OrderKind> order_kind_from_string(std::string_view text);
// "Change Speed", ... as the rules write them (event texts).
std::string_view display_name(OrderKind kind);

}  // namespace diskref::rules
