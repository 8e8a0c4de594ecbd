#include "engine/rules/order_kind.h"

namespace diskref::rules {

std::string_view to_string(OrderKind kind) {
  switch (kind) {
    case OrderKind::change_speed:
      return "change_speed";
    case OrderKind::change_heading:
      return "change_heading";
    case OrderKind::raise_shields:
      return "raise_shields";
    case OrderKind::attack:
      return "attack";
    case OrderKind::activate:
      return "activate";
  }
  return "?";
}

std::optional<OrderKind> order_kind_from_string(std::string_view text) {
  for (OrderKind kind : kAllOrders)
    if (to_string(kind) == text) return kind;
  return std::nullopt;
}

std::string_view display_name(OrderKind kind) {
  switch (kind) {
    case OrderKind::change_speed:
      return "Change Speed";
    case OrderKind::change_heading:
      return "Change Heading";
    case OrderKind::raise_shields:
      return "Raise Shields";
    case OrderKind::attack:
      return "Attack";
    case OrderKind::activate:
      return "Activate Crew/Tech";
  }
  return "?";
}

}  // namespace diskref::rules
