// Committing to the rules (rulings.h): an action applied (or refused) and logged with its
// evidence, the Full Stop moves that follow it, and warnings. The only place the books change
// by an action.
#include <fmt/format.h>

#include "engine/rules/apply.h"
#include "referee/rulings.h"

namespace diskref::referee {
namespace {

// How many Full Stop moves are entered one after another at most. Each ship moves once a phase,
// and the turn's end waits for the players' inputs: a row is at most the game's ships times a
// turn's phases, a few dozen on the largest table. A longer row means the rules did not move on to
// the next ship, and the loop ends rather than run for ever.
constexpr int kMostFullStopMovesInARow = 64;

}  // namespace

// --- The log.

Entry& Rulings::warn(double t, Warning w, std::vector<std::size_t> inputs) {
  Entry e;
  e.kind = Entry::Kind::warning;
  e.t = t;
  e.reading = books_.settle_index;
  e.warning = std::move(w);
  e.inputs = std::move(inputs);
  books_.log.push_back(std::move(e));
  return books_.log.back();
}

void Rulings::commit(const rules::Action& action, double t, std::optional<Observed> observed,
                     std::vector<std::size_t> inputs, std::vector<Warning> warnings, std::vector<DropRead> drops_read,
                     std::optional<rules::ActionResult> outcome) {
  enter_ruling(action, t, std::move(observed), std::move(inputs), std::move(warnings), std::move(drops_read),
               std::move(outcome));
  if (!pending_) full_stop_moves(t);
}

void Rulings::enter_ruling(const rules::Action& action, double t, std::optional<Observed> observed,
                           std::vector<std::size_t> inputs, std::vector<Warning> warnings,
                           std::vector<DropRead> drops_read, std::optional<rules::ActionResult> outcome) {
  // The rules run once a ruling: the trial's outcome when the caller had one.
  rules::ActionResult r = outcome ? std::move(*outcome) : rules::apply_action(books_.state, data_, action);
  Entry e;
  e.kind = Entry::Kind::action;
  e.t = t;
  e.play.index = books_.actions.size();
  e.play.action = action;
  e.play.turn = books_.state.turn;
  e.play.step = books_.state.step;
  e.play.phase = books_.state.step == rules::Step::execute ? books_.state.phase.number : 0;
  e.observed = std::move(observed);
  e.inputs = std::move(inputs);
  e.reading = books_.settle_index;
  e.drops_read = std::move(drops_read);
  books_.actions.push_back(action);
  if (r.applied()) {
    books_.state = std::move(*r.state);
    e.play.events = std::move(r.events);
  } else {
    e.play.refusal = r.refusal;
    ++books_.refused;
  }
  books_.log.push_back(std::move(e));
  for (Warning& w : warnings) warn(t, std::move(w));
}

// A ship at Full Stop "moves its current speed" without a motion the camera could see: once it has
// nothing else to do this phase, its move of no flips is entered for it (and the next ship's, when
// it is at Full Stop too). Entered as rulings of their own: nothing follows them.
void Rulings::full_stop_moves(double t) {
  for (int entered = 0; entered < kMostFullStopMovesInARow; ++entered) {
    std::string id = books_.ship_to_act();
    const rules::ShipState* ship = nullptr;
    for (const rules::ShipState& s : books_.state.ships)
      if (s.id == id) ship = &s;
    if (ship == nullptr || ship->destroyed || ship->speed != 0 || ship->moved || !ship->order_revealed ||
        !ship->pending.empty())
      break;
    rules::Action a;
    a.player = ship->controller;
    a.body = rules::Move{id, std::nullopt, std::nullopt, rules::TableRun{}};
    Observed o;
    o.disk = id;
    o.start = rest_of(id, books_.last_settled);
    o.end = o.start;
    std::size_t before = books_.actions.size();
    enter_ruling(a, t, o, {});
    if (books_.actions.size() == before || books_.log.back().play.refusal) break;
  }
}

void Rulings::refuse_entry(const rules::Action& action, const rules::Refusal& refusal, double t,
                           std::optional<Observed> observed, std::vector<std::size_t> inputs,
                           std::vector<DropRead> drops_read) {
  Entry e;
  e.kind = Entry::Kind::action;
  e.t = t;
  e.play.index = books_.actions.size();
  e.play.action = action;
  e.play.turn = books_.state.turn;
  e.play.step = books_.state.step;
  e.play.phase = books_.state.step == rules::Step::execute ? books_.state.phase.number : 0;
  e.play.refusal = refusal;
  e.observed = std::move(observed);
  e.inputs = std::move(inputs);
  e.reading = books_.settle_index;
  e.drops_read = std::move(drops_read);
  books_.actions.push_back(action);
  ++books_.refused;
  books_.log.push_back(std::move(e));
}

}  // namespace diskref::referee
