#include "engine/rules/refusal.h"

#include <type_traits>

#include "engine/rules/need.h"

namespace diskref::rules {

std::string_view to_string(RefusalKind kind) {
  switch (kind) {
    case RefusalKind::game_over:
      return "game_over";
    case RefusalKind::wrong_step:
      return "wrong_step";
    case RefusalKind::unknown_name:
      return "unknown_name";
    case RefusalKind::not_yours:
      return "not_yours";
    case RefusalKind::not_your_option:
      return "not_your_option";
    case RefusalKind::cannot_defer:
      return "cannot_defer";
    case RefusalKind::already_done:
      return "already_done";
    case RefusalKind::order_not_available:
      return "order_not_available";
    case RefusalKind::illegal_value:
      return "illegal_value";
    case RefusalKind::out_of_range:
      return "out_of_range";
    case RefusalKind::shields_up:
      return "shields_up";
    case RefusalKind::disk_not_ready:
      return "disk_not_ready";
    case RefusalKind::cloaked:
      return "cloaked";
    case RefusalKind::missing_drop:
      return "missing_drop";
    case RefusalKind::unused_drops:
      return "unused_drops";
    case RefusalKind::bad_drop:
      return "bad_drop";
    case RefusalKind::choice_needed:
      return "choice_needed";
    case RefusalKind::bad_choice:
      return "bad_choice";
  }
  return "?";
}

Refusal as_refusal(const Need& need) {
  return std::visit(
      [&](const auto& what) {
        using T = std::decay_t<decltype(what)>;
        if constexpr (std::is_same_v<T, NeededDrop>) {
          return Refusal{RefusalKind::missing_drop, need.reason, what, {}, std::nullopt};
        } else if constexpr (std::is_same_v<T, NeededChoice>) {
          return Refusal{RefusalKind::choice_needed, need.reason, std::nullopt, what.options, std::nullopt};
        } else {
          static_assert(std::is_same_v<T, NeededPlacement>);
          return Refusal{RefusalKind::choice_needed, need.reason, std::nullopt, {}, std::nullopt};
        }
      },
      need.what);
}

}  // namespace diskref::rules
