// The referee's flow: frames and inputs in, in time order; corrections; the log. What is read
// from the table at each settle is in table_reading.cpp.
#include "referee/referee.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include <fmt/format.h>

#include "engine/geometry/shape.h"
#include "engine/rules/action_json.h"
#include "engine/rules/apply.h"
#include "engine/model/shape_json.h"
#include "engine/rules/state_json.h"
#include "engine/rules/state_queries.h"
#include "referee/input_places.h"

namespace diskref::referee {
namespace {

// How many Full Stop moves are entered one after another at most. Each ship moves once a phase,
// and the turn's end waits for the players' inputs: a row is at most the game's ships times a
// turn's phases, a few dozen on the largest table. A longer row means the rules did not move on to
// the next ship, and the loop ends rather than run for ever.
constexpr int kMostFullStopMovesInARow = 64;

// A `choose` line's "player", when given, must be of the side that loses the chosen crew: "" when
// it is (or not given), else why not.
std::string wrong_chooser(const rules::GameState& state, const std::string& player, const std::string& choice) {
  if (player.empty()) return "";
  const rules::Player* chooser = nullptr;
  for (const rules::Player& p : state.players)
    if (p.id == player) chooser = &p;
  if (chooser == nullptr) return fmt::format("there is no player {}", player);
  for (const rules::CrewTechDisk& d : state.disks)
    if (d.id == choice)
      for (const rules::Player& owner : state.players)
        if (owner.id == d.owner && owner.team != chooser->team)
          return fmt::format("{} is not of the side that loses {} (team {})", player, choice, owner.team);
  return "";
}

}  // namespace

Referee::Referee(GameFile game, model::TableSpec table, model::DiskRegistry registry, RefereeOptions options)
    : game_(std::move(game)), table_(std::move(table)), registry_(std::move(registry)), options_(options) {
  state_ = game_.initial;
  has_counters_ = has_counters(registry_);
  if (has_counters_) {
    // Counters are read early only with nothing larger than a few of them lying unexplained over
    // the play area (a hand held still is far larger).
    double largest = 0;
    for (const model::DiskSpec& d : registry_.disks())
      if (d.kind == model::DiskKind::counter) largest = std::max(largest, 2 * geom::bounding_radius(d.shape));
    watch_ = SettleWatch({options_.counter_still_s, 2.5 * largest});
  }
  gaps_ = GapWatch({options_.camera_gap_s, options_.moved_mm, options_.turned_deg});
}

// --- Feeding.

void Referee::feed(const model::TrackFrame& frame) {
  if (finished_) return;
  // A correction is due at its time, before the frame of that time: as the screen gives one (with
  // the next frame it tracks), and as a file of inputs read up front replays it.
  apply_corrections_through(frame.t);
  frames_fed_ = true;
  if (std::optional<GapSpan> gap = gaps_.feed(frame, last_settled_)) {
    watch_.interrupt();
    noticed_gaps_.push_back({*gap, settles_.size()});
    say_camera_gap(*gap);
  }
  if (std::optional<TableSettle> s = watch_.feed(frame)) {
    if (s->kind == TableSettle::Kind::table) s->after_gap = gaps_.settled();
    settles_.push_back(*s);
    on_settle(settles_.back());
  }
  if (watch_.settled()) apply_inputs_through(frame.t, false, watch_.settled_since());
}

void Referee::add_input(Input input) {
  inputs_.push_back(input);
  effective_.push_back(input);  // every input keeps its number (file order), corrections too
  dropped_.push_back(false);
  if (input.kind == Input::Kind::correct) {
    applied_.push_back(true);  // a correction applies as nothing itself: it replays the game
    held_corrections_.push_back(effective_.size() - 1);
    // Given for a moment the frames have passed already: at once.
    if (frames_fed_ && input.t <= watch_.last_t()) apply_corrections_through(watch_.last_t());
    return;
  }
  applied_.push_back(false);
  if (watch_.settled()) apply_inputs_through(watch_.last_t(), false, watch_.settled_since());
}

void Referee::apply_corrections_through(double t) {
  while (!held_corrections_.empty() && effective_[held_corrections_.front()].t <= t) {
    const std::size_t index = held_corrections_.front();
    held_corrections_.erase(held_corrections_.begin());
    apply_correction(index);
  }
}

void Referee::apply_correction(std::size_t index) {
  const Input input = effective_[index];
  Entry c;
  c.kind = Entry::Kind::correction;
  c.t = input.t;
  c.correction = input_to_json(input);
  c.correction.erase("t");
  if (input.correction.input) {
    std::size_t k = *input.correction.input;
    if (k >= index || effective_[k].kind == Input::Kind::correct) {
      warn(input.t, {"correction", "", 0,
                     fmt::format("input {} cannot be corrected: {}", k,
                                 k >= index ? "there is no such input yet" : "it is itself a correction")});
      return;
    }
    c.correction["was"] = input_to_json(effective_[k]);
    for (const Entry& e : log_)
      if (e.kind == Entry::Kind::action && std::count(e.inputs.begin(), e.inputs.end(), k)) c.correction["entry_was"] = entry_to_json(e);
    if (input.correction.replacement) {
      Input replacement = *input.correction.replacement;
      replacement.t = effective_[k].t;
      replacement.where = input.where;
      effective_[k] = replacement;
      dropped_[k] = false;
    } else {
      dropped_[k] = true;
    }
  } else if (!input.correction.drops.empty()) {
    // The drops an entry read from the counters on the table, given instead by the referee.
    std::size_t n = *input.correction.entry;
    if (n >= log_.size() || log_[n].kind != Entry::Kind::action || log_[n].drops_read.empty() ||
        log_[n].drops_read.size() != input.correction.drops.size()) {
      warn(input.t, {"correction", "", 0,
                     n < log_.size() && !log_[n].drops_read.empty()
                         ? fmt::format("log entry {} read {} drop(s) from the table: give as many", n, log_[n].drops_read.size())
                         : fmt::format("log entry {} read no drop from the table", n)});
      return;
    }
    c.correction["entry_was"] = entry_to_json(log_[n]);
    for (std::size_t k = 0; k < input.correction.drops.size(); ++k)
      drop_overrides_.push_back({log_[n].drops_read[k].reading, input.correction.drops[k], {{"input", index}, {"t", input.t}}});
  } else {
    std::size_t n = *input.correction.entry;
    if (n >= log_.size() || log_[n].kind != Entry::Kind::action || !log_[n].observed) {
      warn(input.t, {"correction", "", 0, fmt::format("log entry {} is no ruling read from the table", n)});
      return;
    }
    c.correction["entry_was"] = entry_to_json(log_[n]);
    overrides_.push_back({log_[n].observed->disk, log_[n].reading, *input.correction.decision});
  }
  corrections_.push_back(c);
  replay();
}

void Referee::finish() {
  if (finished_) return;
  // Corrections given after the video's last frame (the screen's last moments) still count.
  apply_corrections_through(std::numeric_limits<double>::infinity());
  finished_ = true;
  if (watch_.settled()) {
    apply_inputs_through(watch_.last_t(), false, watch_.settled_since());
    if (pending_as<PendingMove>()) finalize_move(watch_.last_t());
  }
  note_waiting();
}

void Referee::note_waiting() {
  waiting_.clear();
  if (!watch_.settled())
    for (const DiskMotion& m : watch_.moving())
      waiting_.push_back(fmt::format("{} was moving when the video ended at {:.2f} s (from {:.2f} s): the table never "
                                     "settled, so nothing was read from it",
                                     m.name, watch_.last_t(), m.first_motion_t));
  if (pending_) waiting_.push_back(expecting().what);
  if (const std::optional<GapSpan> gap = gaps_.open())
    waiting_.push_back(fmt::format("the camera was away from {:.2f} s to {:.2f} s and the table did not settle after it: it "
                                   "was not read again",
                                   gap->from, gap->to));
  for (const HeldMotion& h : held_motions_)
    waiting_.push_back(fmt::format("{} moved at {:.2f} s while the game waited: its move is read once the wait ends", h.disk,
                                   settles_[h.settle].t));
  for (std::size_t i = 0; i < effective_.size(); ++i)
    if (!applied_[i] && effective_[i].kind != Input::Kind::correct)
      waiting_.push_back(fmt::format("input {} ({}, t = {:.2f} s) was not applied: the table did not settle after it", i,
                                     effective_[i].where, effective_[i].t));
}

void Referee::on_settle(const TableSettle& settle) {
  settle_index_ = static_cast<std::size_t>(&settle - settles_.data());
  look_before_ = std::move(drop_look_);
  drop_look_ = settle.snapshot;
  if (settle.kind == TableSettle::Kind::counters) {
    if (set_up_) on_counter_settle(settle);
    return;
  }
  previous_settled_ = last_settled_;
  last_settled_ = settle.snapshot;
  if (!set_up_) {
    setup_from(settle);
    note_strangers(settle);
    apply_inputs_through(settle.t, false, settle.t);
    return;
  }
  // Inputs given before anything moved come first; the table's reading; then the rest.
  double first_motion = settle.t;
  for (const DiskMotion& m : settle.moved) first_motion = std::min(first_motion, m.first_motion_t);
  apply_inputs_through(first_motion, true, settle.t);
  if (settle.after_gap) read_after_gap(settle);
  read_table(settle);
  // Counters that came to rest since the drop was asked for (at once, when the tracker gives no
  // counter settle before this one: a track file without `still_s`).
  if (pending_ && need_of(*pending_) == Need::drops) read_drop(settle.t);
  note_strangers(settle);
  apply_inputs_through(settle.t, false, settle.t);
}

// Counters came to rest, the table not yet settled: the drop waited for is read, or the counters
// are shown for what they are when none is.
void Referee::on_counter_settle(const TableSettle& settle) {
  if (const PendingAction* awaiting = pending_as<PendingAction>();
      awaiting && awaiting->need == Need::drops && awaiting->drop_asked) {
    read_drop(settle.t);
    return;
  }
  CounterReadingInput in = counters_since(look_before_);
  in.need.counters = -1;  // as many as came to rest
  counters_seen_ = CountersSeen{read_counters(in), false, settle_index_, settle.t};
}

CounterReadingInput Referee::counters_since(const model::TrackFrame& baseline) const {
  CounterReadingInput in;
  in.now = drop_look_;
  in.baseline = baseline;
  in.registry = &registry_;
  in.play_area_mm = table_.play_area_mm;
  in.zone = game_.drop_zone;
  in.moved_mm = options_.moved_mm;
  return in;
}

void Referee::apply_inputs_through(double t, bool strictly_before, double log_t_floor) {
  for (std::size_t i = 0; i < effective_.size(); ++i) {
    if (applied_[i] || effective_[i].kind == Input::Kind::correct) continue;
    const double due = effective_[i].t;
    if (strictly_before ? due >= t : due > t) break;  // in time order
    applied_[i] = true;
    apply_input(i, std::max(due, log_t_floor));
  }
}

// --- Replay after a correction: the same settles, the corrected inputs.

void Referee::replay() {
  state_ = game_.initial;
  log_.clear();
  actions_.clear();
  refused_ = 0;
  set_up_ = false;
  strangers_.clear();
  pending_.reset();
  held_motions_.clear();
  unseen_rests_.clear();
  settle_index_ = 0;  // as before the first settle: a gap said before it is read at none
  applied_.assign(effective_.size(), false);
  for (std::size_t i = 0; i < effective_.size(); ++i)
    if (effective_[i].kind == Input::Kind::correct) applied_[i] = true;
  counters_seen_.reset();
  drop_look_ = {};
  look_before_ = {};
  double settled_since = 0;
  // The camera gaps, each where it was said live: after the inputs applied before it, before the
  // settle that came after it.
  std::size_t next_gap = 0;
  auto say_gaps_before = [&](std::size_t settle) {
    for (; next_gap < noticed_gaps_.size() && noticed_gaps_[next_gap].settles_before <= settle; ++next_gap)
      say_camera_gap(noticed_gaps_[next_gap].span);
  };
  for (std::size_t s = 0; s < settles_.size(); ++s) {
    if (s > 0) apply_inputs_through(settles_[s].still_until, false, settled_since);
    say_gaps_before(s);
    on_settle(settles_[s]);
    if (settles_[s].kind == TableSettle::Kind::table) settled_since = settles_[s].t;
  }
  // The inputs the live referee applied while the table stayed settled after its last settle:
  // up to now if it still is, else up to its last settled frame.
  if (watch_.settled()) apply_inputs_through(watch_.last_t(), false, settled_since);
  else if (!settles_.empty()) apply_inputs_through(watch_.still_until(), false, settled_since);
  say_gaps_before(settles_.size());
  if (finished_) {
    if (watch_.settled() && pending_as<PendingMove>()) finalize_move(watch_.last_t());
    note_waiting();
  }
  // The corrections themselves stand in the log at their time.
  for (const Entry& c : corrections_) {
    auto at = std::upper_bound(log_.begin(), log_.end(), c.t, [](double t, const Entry& e) { return t < e.t; });
    log_.insert(at, c);
  }
}

// --- Inputs.

void Referee::apply_input(std::size_t index, double t) {
  const Input& in = effective_[index];
  if (dropped_[index]) return;
  if (pending_as<PendingMove>()) finalize_move(t);
  // The action waiting for the referee's word, if any: what the inputs below answer.
  PendingAction* awaiting = pending_as<PendingAction>();
  switch (in.kind) {
    case Input::Kind::drops:
      if (awaiting == nullptr || awaiting->need != Need::drops) {
        warn(t, {"input", "", 0, fmt::format("{}: drops given, but nothing waits for drops", in.where)}, {index});
        return;
      }
      if (awaiting->reading && !in.drops.empty()) {
        // Given over a drop being read from the table: the referee's word stands, and the reading
        // is kept as what it overruled.
        awaiting->drops_read.push_back({settle_index_, t, *awaiting->reading, in.drops.front(), index, nullptr});
        awaiting->reading.reset();
      }
      awaiting->drops.insert(awaiting->drops.end(), in.drops.begin(), in.drops.end());
      awaiting->drop_sources.insert(awaiting->drop_sources.end(), in.drops.size(), member_place(in, "drops"));
      awaiting->inputs.push_back(index);
      try_complete(t);
      return;
    case Input::Kind::leave_in_place:
      if (awaiting == nullptr || awaiting->need != Need::placement || !awaiting->placement_optional) {
        warn(t, {"input", "", 0, fmt::format("{}: leave_in_place, but no collided ship waits to be put down", in.where)},
             {index});
        return;
      }
      if (!in.player.empty() && in.player != awaiting->hit_player) {
        warn(t, {"input", awaiting->placing, 0,
                 fmt::format("{}: {} is not the player whose ship was hit ({}): the ship still waits to be put down",
                             member_place(in, "player"), in.player, awaiting->hit_player)},
             {index});
        return;
      }
      awaiting->left_in_place = true;
      awaiting->inputs.push_back(index);
      try_complete(t);
      return;
    case Input::Kind::decide:
      if (awaiting == nullptr || awaiting->need != Need::decision) {
        warn(t, {"input", "", 0, fmt::format("{}: a decision given, but no verdict waits for one", in.where)}, {index});
        return;
      }
      awaiting->decisions.push_back(in.decision);
      awaiting->inputs.push_back(index);
      try_complete(t);
      return;
    case Input::Kind::choose:
      if (awaiting == nullptr || awaiting->need != Need::choice ||
          std::find(awaiting->options.begin(), awaiting->options.end(), in.choice) == awaiting->options.end()) {
        warn(t, {"input", "", 0,
                 fmt::format("{}: the choice {}, but {}", in.where, in.choice,
                             awaiting != nullptr && awaiting->need == Need::choice ? "it is none of the options"
                                                                                 : "no choice is waited for")},
             {index});
        return;
      }
      if (const std::string wrong = wrong_chooser(state_, in.player, in.choice); !wrong.empty()) {
        warn(t, {"input", "", 0, fmt::format("{}: {}: the choice still waits", member_place(in, "player"), wrong)}, {index});
        return;
      }
      if (auto* b = std::get_if<rules::BoardingSegment>(&awaiting->action.body)) b->losses.push_back(in.choice);
      awaiting->inputs.push_back(index);
      try_complete(t);
      return;
    case Input::Kind::counter:
      if (awaiting == nullptr || awaiting->need != Need::drops || !awaiting->drop_asked || !has_counters_) {
        warn(t, {"input", in.counter.counter, 0,
                 fmt::format("{}: a counter's face given, but no drop is being read from the table", in.where)},
             {index});
        return;
      }
      awaiting->answers.push_back({in.counter.counter, in.counter.shows, index});
      awaiting->inputs.push_back(index);
      read_drop(t);
      return;
    case Input::Kind::correct: return;  // applied when due (apply_correction)
    case Input::Kind::action: break;
  }
  if (pending_) {
    // One thing at a time: what the table is to show finishes first.
    // The wait said in the log is named by its time (an entry's number moves with corrections).
    const std::string since = awaiting != nullptr && awaiting->waiting_since
                                  ? fmt::format(" (the wait said in the log at {:.2f} s)", *awaiting->waiting_since)
                                  : "";
    rules::Refusal r{rules::RefusalKind::wrong_step,
                     fmt::format("{}: waiting for {}{}; this input comes after it", in.where, expecting().what, since),
                     std::nullopt, {}, std::nullopt};
    refuse_entry(in.action, r, t, std::nullopt, {index});
    return;
  }
  begin_input_action(index, t);
}

// An action entered whose counters are still to be dropped (an initiative tie, a boarding
// segment's crew combat, ...) or that waits for a player's choice among named disks (the crew a
// boarding side loses) waits for them as an action read from the table does; the rest is applied
// (or refused) at once.
void Referee::commit_or_wait(std::size_t index, double t) {
  const rules::Action& action = effective_[index].action;
  rules::ActionResult trial = rules::apply_action(state_, game_.data, action);
  const bool waits = !trial.applied() && (trial.refusal->kind == rules::RefusalKind::missing_drop ||
                                          (trial.refusal->kind == rules::RefusalKind::choice_needed &&
                                           !trial.refusal->options.empty()));
  if (!waits) {
    if (!trial.applied() && trial.refusal->drop) {
      // A drop on the line that does not fit, or one too many: the line is refused, naming it.
      std::vector<std::string> sources(action.drops.size(), member_place(effective_[index], "drops"));
      refuse_entry(action, naming_the_drop(*trial.refusal, sources), t, std::nullopt, {index});
      return;
    }
    commit(action, t, std::nullopt, {index});
    return;
  }
  PendingAction waits_for;
  static_cast<ActionDraft&>(waits_for) = entered_draft(index);
  pending_.emplace(std::move(waits_for));
  try_complete(t);
}

ActionDraft Referee::entered_draft(std::size_t index) const {
  const Input& in = effective_[index];
  ActionDraft d;
  d.action = in.action;
  d.inputs = {index};
  // The drops the line carries are the action's first; a `drops` line later gives what is missing.
  d.drops = in.action.drops;
  d.line_drops = d.drops.size();
  d.drop_sources.assign(d.drops.size(), member_place(in, "drops"));
  return d;
}

// An action the referee entered: most apply at once; some wait for the table.
void Referee::begin_input_action(std::size_t index, double t) {
  const rules::Action& action = effective_[index].action;
  const auto* exec = std::get_if<rules::ExecuteOrder>(&action.body);
  if (exec == nullptr) {
    commit_or_wait(index, t);
    return;
  }
  auto refused_now = [&](rules::Action probe) {
    // Whether the rules refuse it before the table shows anything: its drops (for what the table
    // is still to show) are left out of the question.
    probe.drops.clear();
    rules::ActionResult trial = rules::apply_action(state_, game_.data, probe);
    if (trial.applied() || trial.refusal->kind == rules::RefusalKind::missing_drop) return false;
    refuse_entry(action, *trial.refusal, t, std::nullopt, {index});
    return true;
  };
  const rules::ShipState* ship = nullptr;
  for (const rules::ShipState& s : state_.ships)
    if (s.id == exec->ship) ship = &s;
  if (const auto* launch = std::get_if<rules::LaunchTorpedo>(&exec->body); launch != nullptr && !launch->run) {
    // The torpedo is put in the bay and flipped on the table: wait for it (unless the rules refuse).
    if (refused_now(action)) return;
    PendingLaunch launch_question;
    launch_question.launcher = exec->ship;
    launch_question.entered = entered_draft(index);
    if (ship != nullptr)
      if (const rules::ShipCard* card = game_.data.ship(ship->card); card && card->torpedo)
        launch_question.movement = card->torpedo->movement;
    pending_.emplace(std::move(launch_question));
    return;
  }
  if (const auto* turn = std::get_if<rules::ChangeHeading>(&exec->body);
      turn != nullptr && !turn->heading_deg && turn->face.empty()) {
    // The heading is read where the ship is turned in place.
    rules::Action probe = action;
    std::get<rules::ChangeHeading>(std::get<rules::ExecuteOrder>(probe.body).body).heading_deg =
        ship ? ship->pose.heading_deg() : 0.0;
    if (refused_now(probe)) return;
    pending_.emplace(PendingHeading{exec->ship, entered_draft(index)});
    return;
  }
  std::string target;
  int extra_ranges = 0;
  bool ruled = false;
  if (const auto* beam = std::get_if<rules::BeamAttack>(&exec->body)) target = beam->target, ruled = beam->in_range.has_value();
  if (const auto* transport = std::get_if<rules::Transport>(&exec->body)) {
    target = transport->target;
    ruled = transport->in_range.has_value();
    if (ship != nullptr)
      extra_ranges = rules::continuous_bonus(state_, game_.data, *ship, rules::AbilityType::transporter_range);
  }
  if (target.empty() || ruled || ship == nullptr) {
    commit_or_wait(index, t);
    return;
  }
  // The range, from the poses on the table now.
  std::optional<Rest> from = rest_of(ship->id, last_settled_);
  std::optional<Rest> to = rest_of(target, last_settled_);
  const model::DiskSpec* target_disk = registry_.find(target);
  if (!from || !to || target_disk == nullptr) {
    commit_or_wait(index, t);  // not on the table: the books' geometry decides
    return;
  }
  int multiplier = 1 + extra_ranges * game_.data.parameters.plus_one_range_template_lengths;
  Verdict v = range_verdict({ship->shape, from->pose}, from->sigma_mm, target, {target_disk->shape, to->pose}, to->sigma_mm,
                            game_.data.parameters.range_template, multiplier);
  Observed o;
  o.disk = ship->id;
  o.verdicts = {v};
  PendingAction in_range;
  static_cast<ActionDraft&>(in_range) = entered_draft(index);
  in_range.disk = ship->id;
  in_range.verdicts = {v};
  in_range.observed = o;
  apply_overrides(ship->id, in_range.decisions);
  pending_.emplace(std::move(in_range));
  try_complete(t);
}

void Referee::apply_overrides(const std::string& disk, std::vector<Decision>& decisions) const {
  for (const Override& o : overrides_)
    if (o.disk == disk && o.reading == settle_index_) decisions.push_back(o.decision);
}

double Referee::sigma_of_previous(const std::string& name) const {
  const model::DiskTrack* d = model::find_track(previous_settled_, name);
  return d != nullptr ? d->sigma_mm : sigma_of(name);
}

// --- The log.

Entry& Referee::warn(double t, Warning w, std::vector<std::size_t> inputs) {
  Entry e;
  e.kind = Entry::Kind::warning;
  e.t = t;
  e.reading = settle_index_;
  e.warning = std::move(w);
  e.inputs = std::move(inputs);
  log_.push_back(std::move(e));
  return log_.back();
}

void Referee::commit(const rules::Action& action, double t, std::optional<Observed> observed,
                     std::vector<std::size_t> inputs, std::vector<Warning> warnings, std::vector<DropRead> drops_read) {
  enter_ruling(action, t, std::move(observed), std::move(inputs), std::move(warnings), std::move(drops_read));
  if (!pending_) full_stop_moves(t);
}

void Referee::enter_ruling(const rules::Action& action, double t, std::optional<Observed> observed,
                           std::vector<std::size_t> inputs, std::vector<Warning> warnings,
                           std::vector<DropRead> drops_read) {
  rules::ActionResult r = rules::apply_action(state_, game_.data, action);
  Entry e;
  e.kind = Entry::Kind::action;
  e.t = t;
  e.play.index = actions_.size();
  e.play.action = action;
  e.play.turn = state_.turn;
  e.play.step = state_.step;
  e.play.phase = state_.step == rules::Step::execute ? state_.phase.number : 0;
  e.observed = std::move(observed);
  e.inputs = std::move(inputs);
  e.reading = settle_index_;
  e.drops_read = std::move(drops_read);
  actions_.push_back(action);
  if (r.applied()) {
    state_ = std::move(*r.state);
    e.play.events = std::move(r.events);
  } else {
    e.play.refusal = r.refusal;
    ++refused_;
  }
  log_.push_back(std::move(e));
  for (Warning& w : warnings) warn(t, std::move(w));
}

// A ship at Full Stop "moves its current speed" without a motion the camera could see: once it has
// nothing else to do this phase, its move of no flips is entered for it (and the next ship's, when
// it is at Full Stop too). Entered as rulings of their own: nothing follows them.
void Referee::full_stop_moves(double t) {
  for (int entered = 0; entered < kMostFullStopMovesInARow; ++entered) {
    std::string id = ship_to_act();
    const rules::ShipState* ship = nullptr;
    for (const rules::ShipState& s : state_.ships)
      if (s.id == id) ship = &s;
    if (ship == nullptr || ship->destroyed || ship->speed != 0 || ship->moved || !ship->order_revealed ||
        !ship->pending.empty())
      break;
    rules::Action a;
    a.player = ship->controller;
    a.body = rules::Move{id, std::nullopt, std::nullopt, rules::TableRun{}};
    Observed o;
    o.disk = id;
    o.start = rest_of(id, last_settled_);
    o.end = o.start;
    std::size_t before = actions_.size();
    enter_ruling(a, t, o, {});
    if (actions_.size() == before || log_.back().play.refusal) break;
  }
}

void Referee::refuse_entry(const rules::Action& action, const rules::Refusal& refusal, double t,
                           std::optional<Observed> observed, std::vector<std::size_t> inputs,
                           std::vector<DropRead> drops_read) {
  Entry e;
  e.kind = Entry::Kind::action;
  e.t = t;
  e.play.index = actions_.size();
  e.play.action = action;
  e.play.turn = state_.turn;
  e.play.step = state_.step;
  e.play.phase = state_.step == rules::Step::execute ? state_.phase.number : 0;
  e.play.refusal = refusal;
  e.observed = std::move(observed);
  e.inputs = std::move(inputs);
  e.reading = settle_index_;
  e.drops_read = std::move(drops_read);
  actions_.push_back(action);
  ++refused_;
  log_.push_back(std::move(e));
}

nlohmann::json Referee::log_json() const {
  nlohmann::json entries = nlohmann::json::array();
  for (const Entry& e : log_) entries.push_back(entry_to_json(e));
  nlohmann::json out = {{"log", entries}, {"refused", refused_}, {"final_state", rules::state_to_json(state_)}};
  if (!waiting_.empty()) out["waiting"] = waiting_;
  return out;
}

nlohmann::json Referee::as_play_script() const {
  nlohmann::json doc = io::read_json_file(game_.file);
  doc.erase("about");
  // Paths in the game file are relative to its folder: make them absolute for a script elsewhere.
  auto absolute = [&](const std::string& p) {
    std::filesystem::path path(p);
    return (path.is_absolute() ? path : std::filesystem::absolute(game_.file.parent_path() / path)).string();
  };
  if (doc.contains("data"))
    for (auto& d : doc["data"]) d = absolute(d.get<std::string>());
  doc.erase("table");
  doc.erase("registry");
  doc["parameters"] = doc.value("parameters", nlohmann::json::object());
  doc["parameters"]["play_area_mm"] = {table_.play_area_mm.x, table_.play_area_mm.y};
  // The poses and shapes the game started from: the table's and the registry's.
  const rules::GameState& start = initial_from_table_;
  for (auto& ship : doc["ships"]) {
    const std::string id = ship["id"];
    for (const rules::ShipState& s : start.ships)
      if (s.id == id) {
        ship["pose"] = rules::pose_to_json(s.pose);
        ship["shape"] = model::shape_to_json(s.shape);
      }
  }
  if (doc.contains("terrain"))
    for (auto& terrain : doc["terrain"]) {
      const std::string id = terrain["id"];
      for (const rules::Terrain& t : start.terrain)
        if (t.id == id) {
          terrain["pose"] = rules::pose_to_json(t.pose);
          terrain["shape"] = model::shape_to_json(t.shape);
        }
    }
  nlohmann::json actions = nlohmann::json::array();
  for (const rules::Action& a : actions_) actions.push_back(rules::action_to_json(a));
  return {{"about", "the game " + game_.file.filename().string() + " as diskref referee read it from the table"},
          {"setup", doc},
          {"actions", actions}};
}

// --- Helpers.

std::optional<Rest> Referee::rest_of(const std::string& name, const model::TrackFrame& frame) const {
  for (const model::DiskTrack& d : frame.disks)
    if (d.name == name)
      if (const std::optional<geom::Pose> pose = model::pose_of(d)) return Rest{*pose, d.face, d.sigma_mm, frame.t};
  return std::nullopt;
}

double Referee::sigma_of(const std::string& name) const {
  const model::DiskTrack* d = model::find_track(last_settled_, name);
  return d != nullptr ? d->sigma_mm : 0;
}

std::optional<geom::Pose> Referee::books_pose(const std::string& name) const {
  for (const rules::ShipState& s : state_.ships)
    if (s.id == name && !s.destroyed) return s.pose;
  for (const rules::Torpedo& t : state_.torpedoes)
    if (t.id == name) return t.pose;
  for (const rules::Terrain& t : state_.terrain)
    if (t.id == name && t.in_play) return t.pose;
  return std::nullopt;
}

std::string Referee::ship_to_act() const {
  if (state_.step != rules::Step::execute || state_.phase.stage != rules::PhaseStage::ships) return "";
  if (state_.phase.acting) return *state_.phase.acting;
  if (state_.phase.to_act.empty()) return "";
  return state_.phase.to_act[static_cast<std::size_t>(state_.phase.option)];
}

double Referee::flip_length(const std::string& name) const {
  if (const model::DiskSpec* d = registry_.find(name)) return geom::flip_length(d->shape);
  for (const rules::ShipState& s : state_.ships)
    if (s.id == name) return geom::flip_length(s.shape);
  for (const rules::Torpedo& t : state_.torpedoes)
    if (t.id == name) return geom::flip_length(t.shape);
  return 0;
}

Expectation Referee::expecting() const {
  Expectation e;
  if (!set_up_) {
    e.what = "the table to settle with every disk of the game on it";
    e.need = Expectation::Need::table;
    return e;
  }
  if (!pending_) {
    std::string ship = ship_to_act();
    if (state_.step == rules::Step::game_over) e.what = "nothing: the game is over";
    else if (!ship.empty()) e.what = ship + " to act: reveal its order, execute it, move it on the table";
    else e.what = fmt::format("the referee's input ({})", rules::to_string(state_.step));
    e.disk = ship;
    return e;
  }
  if (const auto* move = pending_as<PendingMove>()) {
    int speed = 0;
    for (const rules::ShipState& s : state_.ships)
      if (s.id == move->ship) speed = s.speed;
    e.disk = move->ship;
    e.what = fmt::format("{}'s move: {} of {} flips so far", move->ship, static_cast<int>(move->rests.size()), speed);
    e.need = Need::table;
    return e;
  }
  if (const auto* heading = pending_as<PendingHeading>()) {
    e.disk = heading->ship;
    e.what = heading->ship + " to be turned in place to its new heading (Change Heading)";
    e.need = Need::table;
    return e;
  }
  if (const auto* launch = pending_as<PendingLaunch>()) {
    e.disk = launch->launcher;
    e.what = launch->torpedo.empty() ? "a torpedo disk to be put in " + launch->launcher + "'s bay and launched"
                                     : launch->torpedo + "'s launch run from " + launch->launcher + "'s bay";
    e.need = Need::table;
    return e;
  }
  if (const auto* runs = pending_as<PendingTorpedoRuns>()) {
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
    case Need::placement: e.placement_optional = p.placement_optional; break;
    case Need::choice: e.options = p.options; break;
    case Need::table:
    case Need::nothing: break;
  }
  return e;
}

}  // namespace diskref::referee
