#include <algorithm>

#include "engine/rules/early_steps.h"
#include "engine/rules/refusal.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

// The number of orders each ship takes in a turn: "Each turn your ship takes three actions called
// 'orders.'"
inline constexpr std::size_t kOrdersPerTurn = 3;

void place_orders(Ctx& ctx, const PlaceOrders& action) {
  if (ctx.state.step != Step::orders) refuse(RefusalKind::wrong_step, "orders are placed in Step Two");
  ShipState& ship = own_ship_or_refuse(ctx.state, ctx.player, action.ship);
  if (!ship.orders.empty())
    refuse(RefusalKind::already_done,
           "once you've placed your orders you may not change or replace them during the turn");
  if (action.orders.size() != kOrdersPerTurn)
    refuse(RefusalKind::illegal_value,
           "a ship places exactly three orders (got " + std::to_string(action.orders.size()) + ")");
  if (!ctx.params().same_order_twice)
    for (std::size_t i = 0; i < action.orders.size(); ++i)
      if (std::count(action.orders.begin(), action.orders.end(), action.orders[i]) > 1)
        refuse(RefusalKind::illegal_value, std::string(display_name(action.orders[i])) +
                                               " placed twice: each order is a different disk "
                                               "(docs/rules.md, open parameter 15)");
  for (OrderKind k : action.orders) ship.orders.push_back({k, false, false});
  // The orders stay face down: the event names the ship, not the orders.
  ctx.emit(event::OrdersPlaced{ship.id}, ctx.player + " places three orders face down for " + ship.id);
}

}  // namespace diskref::rules
