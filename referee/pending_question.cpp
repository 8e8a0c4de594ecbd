// The pending question (pending_question.h, referee_pending.h): an action read from the table, or
// entered, completed with the referee's word (drops, from a `drops` line or the counters on the
// table; a decision on a verdict too close to call; a collided ship put down again; a choice) and
// then committed to the rules; the wait said in the log; what the game waits for, for the screen.
#include <algorithm>
#include <map>
#include <variant>

#include <fmt/format.h>

#include "engine/rules/apply.h"
#include "referee/input_places.h"
#include "referee/pending_question.h"

namespace diskref::referee {
namespace {

// How many times an action read from the table is put to the rules at most before it is logged or
// waits. Each retry takes away one thing the rules would not take as the table showed it, each at
// most once: the line's drops set aside when the table shows that none is needed, an evasive turn
// read as drift where evasive action is not allowed. Three tries at most, and one to spare.
constexpr int kMostTriesToComplete = 4;

}  // namespace

PendingQuestion::PendingQuestion(const Fixed& fixed, const Corrections& corrections, Books& books,
                                 std::optional<Pending>& pending, Rulings& rulings,
                                 std::function<void()> read_held_motions)
    : game_(fixed.game),
      table_(fixed.table),
      registry_(fixed.registry),
      options_(fixed.options),
      has_counters_(fixed.has_counters),
      drop_overrides_(corrections.drop_overrides()),
      books_(books),
      pending_(pending),
      rulings_(rulings),
      read_held_motions_(std::move(read_held_motions)) {}

// --- Completing an action read from the table.

void PendingQuestion::try_complete(double t) {
  for (int attempt = 0; attempt < kMostTriesToComplete; ++attempt) {
    PendingAction& p = std::get<PendingAction>(*pending_);
    // Rulings, disk by disk (the torpedoes' runs rule several): the calls, with the referee's
    // decisions standing over them.
    std::vector<Verdict> undecided;
    std::map<std::string, rules::TableRulings> rulings;
    std::vector<std::string> movers;
    for (const Verdict& v : p.verdicts)
      if (std::find(movers.begin(), movers.end(), v.mover) == movers.end()) movers.push_back(v.mover);
    for (const std::string& mover : movers) {
      std::vector<Verdict> mine;
      for (const Verdict& v : p.verdicts)
        if (v.mover == mover) mine.push_back(v);
      rulings[mover] = rulings_from(mine, p.decisions, undecided);
      std::size_t k = 0;
      for (Verdict& v : p.verdicts)
        if (v.mover == mover) v = mine[k++];
    }
    auto rulings_of = [&](const std::string& mover) { return rulings[mover]; };
    if (!undecided.empty()) {
      p.need = Need::decision;
      std::string list;
      for (const Verdict& v : undecided)
        list += fmt::format("{}{} with {} ({:+.2f} ± {:.2f} mm)", list.empty() ? "" : "; ", to_string(v.kind), v.with,
                            v.margin_mm, v.sigma_mm);
      p.need_text = "too close to call, the referee decides: " + list;
      say_waiting(t);
      return;
    }
    rules::Action action = p.action;
    action.drops = p.drops;
    std::visit(
        [&](auto& body) {
          using T = std::decay_t<decltype(body)>;
          if constexpr (std::is_same_v<T, rules::Move>) {
            if (body.run) body.run->rulings = rulings_of(p.disk);
          } else if constexpr (std::is_same_v<T, rules::ExecuteOrder>) {
            std::visit(
                [&](auto& order) {
                  using O = std::decay_t<decltype(order)>;
                  if constexpr (std::is_same_v<O, rules::LaunchTorpedo>) {
                    if (order.run) order.run->rulings = rulings_of(order.torpedo);
                  } else if constexpr (std::is_same_v<O, rules::BeamAttack> || std::is_same_v<O, rules::Transport>) {
                    for (const Verdict& v : p.verdicts)
                      if (v.kind == VerdictKind::range) order.in_range = v.call == Call::yes;
                  }
                },
                body.body);
          } else if constexpr (std::is_same_v<T, rules::MoveTorpedoes>) {
            for (auto& [id, run] : body.runs) run.rulings = rulings_of(id);
          }
        },
        action.body);
    // The rules run once: what the action still needs, or its outcome, committed as it is.
    rules::ActionNeeds r = rules::needs(books_.state, game_.data, action);
    const auto* needed_drop = r.need ? std::get_if<rules::NeededDrop>(&r.need->what) : nullptr;
    const auto* choice = r.need ? std::get_if<rules::NeededChoice>(&r.need->what) : nullptr;
    const auto* placement = r.need ? std::get_if<rules::NeededPlacement>(&r.need->what) : nullptr;
    if (needed_drop != nullptr) {
      p.need = Need::drops;
      p.need_text = "drops: " + r.need->reason;
      p.needed_drop = *needed_drop;
      if (has_counters_ && (!p.drop_asked || *p.drop_asked != needed_drop->index)) {
        // Asked for now: the counters that come to rest from here on are this drop's.
        p.drop_asked = needed_drop->index;
        p.drop_baseline = drop_look_;
        p.answers.clear();
        p.reading.reset();
      }
      if (p.reading) p.need_text += "; on the table: " + p.reading->tally() + "; " + p.reading->question();
      say_waiting(t);
      return;
    }
    if (placement != nullptr && !placement->optional && std::holds_alternative<rules::Move>(p.action.body)) {
      // A ship-planet collision: the ship is put down again before the move is resolved.
      p.need = Need::placement;
      p.placing = p.disk;
      p.placement_optional = false;
      p.need_text = p.disk + " to be put down again: " + r.need->reason;
      say_waiting(t);
      return;
    }
    if (choice != nullptr && !choice->options.empty() &&
        std::holds_alternative<rules::BoardingSegment>(p.action.body)) {
      p.need = Need::choice;
      p.options = choice->options;
      p.need_text = "a choice: " + r.need->reason;
      say_waiting(t);
      return;
    }
    if (!r.outcome.applied()) {
      // Refused, or a need the referee does not wait for (a value the action is to name): as the
      // rules refuse it.
      const rules::Refusal& why = *r.outcome.refusal;
      if (why.kind == rules::RefusalKind::bad_choice && std::holds_alternative<rules::Move>(p.action.body) &&
          std::get<rules::Move>(p.action.body).reposition) {
        rulings_.warn(t, {"placement", p.placing, 0, why.reason + ": put it down again"});
        std::get<rules::Move>(p.action.body).reposition.reset();
        if (p.observed) p.observed->placed.reset();
        p.need = Need::placement;
        return;
      }
      if (why.kind == rules::RefusalKind::unused_drops && why.drop == std::size_t{0} && p.line_drops > 0 &&
          p.line_drops == p.drops.size() && !p.verdicts.empty()) {
        // The line's drops were for what the table then did not show (an attack out of range, a
        // torpedo that struck nothing): set aside, said on that input, and the action goes on.
        std::string why_not = "the action, as the table shows it, needs no drop";
        for (const Verdict& v : p.verdicts)
          if (v.kind == VerdictKind::range && v.call == Call::no)
            why_not = v.with + " is out of range, as the table shows it";
        rulings_.warn(t, {"input", p.disk, 0, fmt::format("{}: not used: {}", p.drop_sources.front(), why_not)},
                      {p.inputs.front()});
        p.drops.clear();
        p.drop_sources.clear();
        p.line_drops = 0;
        continue;
      }
      if (why.kind == rules::RefusalKind::illegal_value && std::holds_alternative<rules::Move>(p.action.body) &&
          std::get<rules::Move>(p.action.body).evasive) {
        p.warnings.push_back({"off_path", p.disk, 0,
                              p.disk + " turned mid-move, but evasive action is not allowed here (" + why.reason +
                                  "): read as a move that drifted off its path"});
        std::get<rules::Move>(p.action.body).evasive.reset();
        continue;
      }
      // Refused by the rules: logged with its evidence (a drop refused names where it came from);
      // the disk lies where it lies.
      const rules::Refusal named = naming_the_drop(why, p.drop_sources);
      std::optional<Observed> o = p.observed;
      std::vector<std::size_t> inputs = p.inputs;
      std::string mover = p.disk;
      std::vector<Warning> warnings = p.warnings;
      std::vector<DropRead> drops_read = std::move(p.drops_read);
      const bool line_drops_unused = p.line_drops > 0 && !why.drop;
      const std::string line_drops_place = p.line_drops > 0 ? p.drop_sources.front() : std::string();
      pending_.reset();
      rulings_.refuse_entry(action, named, t, o, inputs, std::move(drops_read));
      for (Warning& w : warnings) rulings_.warn(t, std::move(w));
      if (line_drops_unused)  // refused as the table showed it (out of range): its drops say so too
        rulings_.warn(
            t,
            {"input", mover, 0, fmt::format("{}: not used: the action is refused ({})", line_drops_place, why.reason)},
            {inputs.front()});
      if (o && o->end && books_.books_pose(o->disk)) {
        rules::Action a;
        a.body = rules::Displaced{o->disk, o->end->pose};
        rulings_.commit(a, t, std::nullopt, {});
      }
      read_held_motions_();
      return;
    }
    // A ship-ship collision: the hit player may put the ship down elsewhere (or leave it, the
    // outcome applied here).
    if (placement != nullptr && placement->optional && std::holds_alternative<rules::Move>(p.action.body) &&
        !p.left_in_place) {
      const std::string& with = placement->adjacent_to;
      p.need = Need::placement;
      p.placing = p.disk;
      p.placement_optional = true;
      p.hit_player = placement->placer;
      p.need_text = fmt::format("{}'s player to put {} down touching {} (or leave it in place)", with, p.disk, with);
      say_waiting(t);
      return;
    }
    rules::Action done = action;
    std::optional<Observed> o = p.observed;
    if (o) o->verdicts = p.verdicts;
    std::vector<std::size_t> inputs = p.inputs;
    std::vector<Warning> warnings = p.warnings;
    std::vector<DropRead> drops_read = std::move(p.drops_read);
    pending_.reset();
    rulings_.commit(done, t, o, inputs, warnings, std::move(drops_read), std::move(r.outcome));
    read_held_motions_();
    return;
  }
}

void PendingQuestion::say_waiting(double t) {
  PendingAction& p = std::get<PendingAction>(*pending_);
  const char* need = to_string(p.need);
  // Said once a wait: again only when it moves on (another drop, another ship to put down).
  std::string key = fmt::format("{}/{}/{}", need, p.needed_drop ? p.needed_drop->index : 0, p.placing);
  if (key == p.waiting_said) return;
  p.waiting_said = key;
  Entry e;
  e.kind = Entry::Kind::waiting;
  e.t = t;
  e.reading = books_.settle_index;
  e.inputs = p.inputs;
  e.waiting.need = need;
  e.waiting.disk = p.disk;
  e.waiting.text = p.need_text;
  if (p.need == Need::drops) e.waiting.drop = p.needed_drop;
  if (p.need == Need::choice) e.waiting.options = p.options;
  p.waiting_since = t;
  books_.log.push_back(std::move(e));
}

// --- A drop read from the counters on the table.

void PendingQuestion::read_drop(double t) {
  PendingAction* awaiting = pending_as<PendingAction>(pending_);
  if (!has_counters_ || awaiting == nullptr || awaiting->need != Need::drops || !awaiting->needed_drop ||
      !awaiting->drop_asked)
    return;
  PendingAction& p = *awaiting;
  CounterReadingInput in = counters_since(p.drop_baseline);
  in.need = *p.needed_drop;
  in.answers = p.answers;
  CounterReading reading = read_counters(in);
  counters_seen_ = CountersSeen{reading, true, books_.settle_index, t};
  if (reading.nothing_dropped()) {
    p.reading.reset();
    return;
  }
  if (!reading.complete()) {
    p.reading = std::move(reading);
    p.need_text = "drops: " + describe_need(*p.needed_drop) + "; on the table: " + p.reading->tally() + "; " +
                  p.reading->question();
    return;
  }
  DropRead read{books_.settle_index, t, reading, reading.drop(), std::nullopt, nullptr};
  // A correction made later stands over what was read here.
  for (const DropOverride& o : drop_overrides_)
    if (o.reading == books_.settle_index) {
      read.drop = o.drop;
      read.corrected = o.correction;
    }
  p.drops_read.push_back(read);
  p.drops.push_back(read.drop);
  p.drop_sources.push_back(fmt::format("the counters on the table at {:.2f} s", t));
  p.reading.reset();
  try_complete(t);
}

// --- The counters on the table.

void PendingQuestion::look_at(const model::TrackFrame& snapshot) {
  look_before_ = std::move(drop_look_);
  drop_look_ = snapshot;
}

// Counters came to rest, the table not yet settled: the drop waited for is read, or the counters
// are shown for what they are when none is.
void PendingQuestion::on_counter_settle(const TableSettle& settle) {
  if (const PendingAction* awaiting = pending_as<PendingAction>(pending_);
      awaiting && awaiting->need == Need::drops && awaiting->drop_asked) {
    read_drop(settle.t);
    return;
  }
  CounterReadingInput in = counters_since(look_before_);
  in.need.counters = -1;  // as many as came to rest
  counters_seen_ = CountersSeen{read_counters(in), false, books_.settle_index, settle.t};
}

CounterReadingInput PendingQuestion::counters_since(const model::TrackFrame& baseline) const {
  CounterReadingInput in;
  in.now = drop_look_;
  in.baseline = baseline;
  in.registry = &registry_;
  in.play_area_mm = table_.play_area_mm;
  in.zone = game_.drop_zone;
  in.moved_mm = options_.moved_mm;
  return in;
}

// --- What the game waits for, for the screen.

Expectation PendingQuestion::expecting() const {
  Expectation e;
  if (!books_.set_up) {
    e.what = "the table to settle with every disk of the game on it";
    e.need = Expectation::Need::table;
    return e;
  }
  if (!pending_) {
    std::string ship = books_.ship_to_act();
    if (books_.state.step == rules::Step::game_over)
      e.what = "nothing: the game is over";
    else if (!ship.empty())
      e.what = ship + " to act: reveal its order, execute it, move it on the table";
    else
      e.what = fmt::format("the referee's input ({})", rules::to_string(books_.state.step));
    e.disk = ship;
    return e;
  }
  if (const auto* move = pending_as<PendingMove>(pending_)) {
    int speed = 0;
    for (const rules::ShipState& s : books_.state.ships)
      if (s.id == move->ship) speed = s.speed;
    e.disk = move->ship;
    e.what = fmt::format("{}'s move: {} of {} flips so far", move->ship, static_cast<int>(move->rests.size()), speed);
    e.need = Need::table;
    return e;
  }
  if (const auto* heading = pending_as<PendingHeading>(pending_)) {
    e.disk = heading->ship;
    e.what = heading->ship + " to be turned in place to its new heading (Change Heading)";
    e.need = Need::table;
    return e;
  }
  if (const auto* launch = pending_as<PendingLaunch>(pending_)) {
    e.disk = launch->launcher;
    e.what = launch->torpedo.empty() ? "a torpedo disk to be put in " + launch->launcher + "'s bay and launched"
                                     : launch->torpedo + "'s launch run from " + launch->launcher + "'s bay";
    e.need = Need::table;
    return e;
  }
  if (const auto* runs = pending_as<PendingTorpedoRuns>(pending_)) {
    std::string left;
    for (const auto& [id, run] : runs->runs)
      if (!run.gone && static_cast<int>(run.rests.size()) < run.movement) left += (left.empty() ? "" : ", ") + id;
    e.what = "the torpedoes' runs at the end of the phase (" + (left.empty() ? std::string("all run") : left) + ")";
    e.need = Need::table;
    return e;
  }
  const PendingAction& p = std::get<PendingAction>(*pending_);
  e.disk = p.disk;
  e.what = p.need_text;
  e.need = p.need;
  switch (p.need) {
    case Need::drops:
      e.drop = p.needed_drop;
      e.counters = p.reading;
      break;
    case Need::decision:
      for (const Verdict& v : p.verdicts)
        if (v.call == Call::too_close && !v.decided) e.undecided.push_back(v);
      break;
    case Need::placement:
      e.placement_optional = p.placement_optional;
      break;
    case Need::choice:
      e.options = p.options;
      break;
    case Need::table:
    case Need::nothing:
      break;
  }
  return e;
}

}  // namespace diskref::referee
