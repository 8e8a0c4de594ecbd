#include "engine/rules/apply.h"

#include <type_traits>
#include <variant>

#include "engine/rules/boarding.h"
#include "engine/rules/cloaks.h"
#include "engine/rules/context.h"
#include "engine/rules/drops.h"
#include "engine/rules/early_steps.h"
#include "engine/rules/flow.h"
#include "engine/rules/initiative.h"
#include "engine/rules/movement.h"
#include "engine/rules/order_execution.h"
#include "engine/rules/phase_turns.h"
#include "engine/rules/state_queries.h"
#include "engine/rules/text.h"
#include "engine/rules/torpedoes.h"

namespace diskref::rules {

namespace {

void dispatch(Ctx& ctx, const ActionBody& body) {
  std::visit(
      [&](const auto& a) {
        using T = std::decay_t<decltype(a)>;
        if constexpr (std::is_same_v<T, RevealConceal>) {
          reveal_or_conceal(ctx, a);
        } else if constexpr (std::is_same_v<T, PlaceOrders>) {
          place_orders(ctx, a);
        } else if constexpr (std::is_same_v<T, DetermineInitiative>) {
          determine_initiative(ctx);
        } else if constexpr (std::is_same_v<T, Defer>) {
          defer_option(ctx);
        } else if constexpr (std::is_same_v<T, RevealOrder>) {
          ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, a.ship);
          begin_acting(ctx, ship);
          reveal_phase_order(ctx, ship);
          finish_if_done(ctx, ship);
        } else if constexpr (std::is_same_v<T, DeclineOrders>) {
          ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, a.ship);
          begin_acting(ctx, ship);
          decline_orders(ctx, ship);
          finish_if_done(ctx, ship);
        } else if constexpr (std::is_same_v<T, ExecuteOrder>) {
          execute_order(ctx, a);
        } else if constexpr (std::is_same_v<T, Move>) {
          move_ship(ctx, a);
        } else if constexpr (std::is_same_v<T, MoveTorpedoes>) {
          move_all_torpedoes(ctx, a);
          end_phase(ctx);
        } else if constexpr (std::is_same_v<T, RaiseCloak>) {
          raise_cloak_action(ctx, own_ship_or_refuse(ctx.state, ctx.player, a.ship));
        } else if constexpr (std::is_same_v<T, DropCloak>) {
          drop_cloak_action(ctx, own_ship_or_refuse(ctx.state, ctx.player, a.ship));
        } else if constexpr (std::is_same_v<T, TurnAtFullStop>) {
          turn_at_full_stop(ctx, a);
        } else if constexpr (std::is_same_v<T, Displaced>) {
          displace_disk(ctx, a);
        } else {
          static_assert(std::is_same_v<T, BoardingSegment>);
          boarding_segment(ctx, a);
        }
      },
      body);
}

std::vector<std::string> crit_ids(const GameData& data) {
  std::vector<std::string> ids;
  for (const CritType& c : data.crit_types) ids.push_back(c.id);
  return ids;
}

// The one run of the rules behind both entry points: the action resolved on a copy of the state.
// A need met on the way stops it as a refusal does (the copy is dropped) and is kept typed; an
// optional placement met on the way is kept beside the applied outcome.
ActionNeeds run_rules(const GameState& state, const GameData& data, const Action& action) {
  ActionNeeds result;
  if (state.step == Step::game_over) {
    result.outcome.refusal = Refusal{RefusalKind::game_over, "the game is over", std::nullopt, {}, std::nullopt};
    return result;
  }
  if ((needs_player(action.body) || !action.player.empty()) && find_player(state, action.player) == nullptr) {
    result.outcome.refusal =
        Refusal{RefusalKind::unknown_name, "no player " + in_quotes(action.player), std::nullopt, {}, std::nullopt};
    return result;
  }
  GameState next = state;
  VirtualDrops virtual_drops(next.drops.rng, data.parameters.hit_face_odds);
  SeenDrops drops(action.drops, next.drops.mode == DropMode::virtual_drops ? &virtual_drops : nullptr, crit_ids(data));
  std::vector<Event> events;
  Ctx ctx{next, data, drops, events, action.player, {}, {}};
  try {
    dispatch(ctx, action.body);
    // "If a torpedo makes contact with any ship at any time": after turns and repositions too.
    resolve_resting_contacts(ctx);
    advance(ctx);
    drops.check_all_used();
  } catch (const Refused& refused) {
    result.outcome.refusal = refused.refusal();
    return result;
  } catch (const NeedsMore& needed) {
    result.need = needed.need();
    result.outcome.refusal = as_refusal(needed.need());
    return result;
  }
  ++next.actions_applied;
  result.outcome.state = std::move(next);
  result.outcome.events = std::move(events);
  if (ctx.placement_offered) {
    const NeededPlacement& p = *ctx.placement_offered;
    result.need = Need{p, p.adjacent_to + "'s player may put " + p.ship + " down touching " + p.adjacent_to +
                              " (reposition), or leave it where it is"};
  }
  return result;
}

}  // namespace

ActionResult apply_action(const GameState& state, const GameData& data, const Action& action) {
  return run_rules(state, data, action).outcome;
}

ActionNeeds needs(const GameState& state, const GameData& data, const Action& action) {
  return run_rules(state, data, action);
}

}  // namespace diskref::rules
