#include "engine/rules/flow.h"

#include <algorithm>
#include <set>

#include "engine/rules/boarding.h"
#include "engine/rules/initiative.h"
#include "engine/rules/phase_turns.h"
#include "engine/rules/state_queries.h"

namespace diskref::rules {

namespace {

void begin_phase(Ctx& ctx, int number) {
  PhaseState& phase = ctx.state.phase;
  phase.number = number;
  phase.stage = PhaseStage::initiative;
  phase.to_act.clear();
  phase.option = 0;
  phase.acting.reset();
  ++ctx.state.phase_serial;
  reset_ships_for_phase(ctx.state);
  ctx.emit(event::Phase{ctx.state.turn, number},
           "Step Three, orders phase " + std::to_string(number) + " of turn " + std::to_string(ctx.state.turn));
}

void start_boarding(Ctx& ctx) {
  ctx.state.step = Step::boarding;
  ctx.state.boarding = find_combats(ctx.state, ctx.data);
  std::vector<std::string> ships;
  for (const BoardingCombat& c : ctx.state.boarding) ships.push_back(c.ship);
  ctx.emit(event::Boarding{std::move(ships)},
           "Step 4: Boarding; crew combat on " + std::to_string(ctx.state.boarding.size()) + " ship(s)");
}

void next_turn(Ctx& ctx) {
  GameState& s = ctx.state;
  ++s.turn;
  s.step = Step::reveal;
  s.reveal_done.clear();
  s.boarding.clear();
  s.phase = PhaseState{};
  for (ShipState& ship : s.ships) {
    ship.orders.clear();
    ship.pending.clear();
    ship.moved = false;
    ship.order_revealed = false;
  }
  ctx.emit(event::Turn{s.turn}, "turn " + std::to_string(s.turn) + ", Step One: reveal or conceal");
}

bool all_players_revealed(const GameState& s) {
  return std::all_of(s.players.begin(), s.players.end(), [&](const Player& p) {
    return std::find(s.reveal_done.begin(), s.reveal_done.end(), p.id) != s.reveal_done.end();
  });
}

bool all_orders_placed(const GameState& s) {
  return std::all_of(s.ships.begin(), s.ships.end(),
                     [](const ShipState& ship) { return ship.destroyed || !ship.orders.empty(); });
}

}  // namespace

bool check_victory(Ctx& ctx) {
  GameState& s = ctx.state;
  if (s.step == Step::game_over) return true;
  std::set<std::string> teams;
  for (const Player& p : s.players) teams.insert(p.team);
  if (teams.size() < 2) return false;  // a practice game with one side never ends by victory
  std::set<std::string> alive;
  for (const ShipState& ship : s.ships) {
    if (ship.destroyed) continue;
    alive.insert(team_of(s, ship.controller));
    for (const CrewTechDisk* d : disks_aboard(s, ship.id))
      if (card_of(ctx.data, *d).kind == DiskKindOfCard::crew) alive.insert(team_of(s, d->owner));
  }
  if (alive.size() > 1) return false;
  s.step = Step::game_over;
  s.winner = alive.empty() ? std::string() : *alive.begin();
  ctx.emit(event::GameOver{*s.winner},
           alive.empty() ? "the game is over: no side is left" : "the game is over: team " + *s.winner + " wins");
  return true;
}

void end_phase(Ctx& ctx) {
  ctx.emit(event::PhaseEnd{ctx.state.phase.number}, "orders phase " + std::to_string(ctx.state.phase.number) + " ends");
  if (ctx.state.phase.number < 3) {
    begin_phase(ctx, ctx.state.phase.number + 1);
  } else {
    start_boarding(ctx);
  }
}

void advance(Ctx& ctx) {
  // Each pass makes at most one transition; a game has far fewer transitions in a row than this.
  for (int guard = 0; guard < 64; ++guard) {
    if (check_victory(ctx)) return;
    GameState& s = ctx.state;
    switch (s.step) {
      case Step::reveal:
        if (!all_players_revealed(s)) return;
        s.step = Step::orders;
        ctx.emit(event::Step{s.turn}, "Step Two: assign orders");
        continue;
      case Step::orders:
        if (!all_orders_placed(s)) return;
        s.step = Step::execute;
        begin_phase(ctx, 1);
        continue;
      case Step::execute:
        if (s.phase.stage == PhaseStage::initiative) {
          if (ctx.params().initiative != InitiativeTiming::once_per_turn || s.phase.number == 1) return;
          std::vector<std::string> order;
          for (const std::string& id : s.phase.initiative)
            if (const ShipState* ship = find_ship(s, id); ship != nullptr && !ship->destroyed) order.push_back(id);
          ctx.emit(event::InitiativeKept{order},
                   "initiative kept from phase 1 (once a turn: docs/rules.md, open parameter 12)");
          start_ships_stage(ctx, order);
          continue;
        }
        if (s.phase.stage == PhaseStage::torpedoes || !s.phase.to_act.empty()) return;
        if (!s.torpedoes.empty()) {
          s.phase.stage = PhaseStage::torpedoes;
          ctx.emit(event::TorpedoStage{s.phase.number}, "every ship has acted; the torpedoes move");
          return;
        }
        end_phase(ctx);
        continue;
      case Step::boarding:
        if (std::any_of(s.boarding.begin(), s.boarding.end(), [](const BoardingCombat& c) { return !c.over; })) return;
        resolve_control(ctx);
        if (check_victory(ctx)) return;
        next_turn(ctx);
        continue;
      case Step::game_over:
        return;
    }
  }
}

}  // namespace diskref::rules
