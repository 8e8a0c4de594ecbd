// The inputs the referee enters (entered_actions.h, inputs.h): the answers to the pending question
// (drops, a decision, a collided ship left in place, a choice, a counter's face), and actions,
// most applied at once, some waiting for the table (a heading turned in place, a torpedo
// launched, an attack's range) or for what the line does not carry.
#include <algorithm>
#include <variant>

#include <fmt/format.h>

#include "engine/rules/apply.h"
#include "engine/rules/state_queries.h"
#include "referee/entered_actions.h"
#include "referee/input_places.h"

namespace diskref::referee {
namespace {

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

// --- Inputs.

EnteredActions::EnteredActions(const Fixed& fixed, const Corrections& corrections, Books& books,
                               std::optional<Pending>& pending, Rulings& rulings, PendingQuestion& question,
                               ShipReader& ships)
    : game_(fixed.game),
      registry_(fixed.registry),
      has_counters_(fixed.has_counters),
      corrections_(corrections),
      effective_(corrections.effective()),
      dropped_(corrections.dropped()),
      books_(books),
      pending_(pending),
      rulings_(rulings),
      question_(question),
      ships_(ships) {
  for (const Input& input : effective_) given(input);
}

void EnteredActions::given(const Input& input) {
  applied_.push_back(input.kind == Input::Kind::correct);  // a correction applies as nothing itself
}

void EnteredActions::apply_inputs_through(double t, bool strictly_before, double log_t_floor) {
  for (std::size_t i = 0; i < effective_.size(); ++i) {
    if (applied_[i] || effective_[i].kind == Input::Kind::correct) continue;
    const double due = effective_[i].t;
    if (strictly_before ? due >= t : due > t) break;  // in time order
    applied_[i] = true;
    apply_input(i, std::max(due, log_t_floor));
  }
}

void EnteredActions::apply_input(std::size_t index, double t) {
  const Input& in = effective_[index];
  if (dropped_[index]) return;
  if (pending_as<PendingMove>(pending_)) ships_.finalize_move(t);
  // The action waiting for the referee's word, if any: what the inputs below answer.
  PendingAction* awaiting = pending_as<PendingAction>(pending_);
  switch (in.kind) {
    case Input::Kind::drops:
      if (awaiting == nullptr || awaiting->need != Need::drops) {
        rulings_.warn(t, {"input", "", 0, fmt::format("{}: drops given, but nothing waits for drops", in.where)},
                      {index});
        return;
      }
      if (awaiting->reading && !in.drops.empty()) {
        // Given over a drop being read from the table: the referee's word stands, and the reading
        // is kept as what it overruled.
        awaiting->drops_read.push_back({books_.settle_index, t, *awaiting->reading, in.drops.front(), index, nullptr});
        awaiting->reading.reset();
      }
      awaiting->drops.insert(awaiting->drops.end(), in.drops.begin(), in.drops.end());
      awaiting->drop_sources.insert(awaiting->drop_sources.end(), in.drops.size(), member_place(in, "drops"));
      awaiting->inputs.push_back(index);
      question_.try_complete(t);
      return;
    case Input::Kind::leave_in_place:
      if (awaiting == nullptr || awaiting->need != Need::placement || !awaiting->placement_optional) {
        rulings_.warn(
            t, {"input", "", 0, fmt::format("{}: leave_in_place, but no collided ship waits to be put down", in.where)},
            {index});
        return;
      }
      if (!in.player.empty() && in.player != awaiting->hit_player) {
        rulings_.warn(
            t,
            {"input", awaiting->placing, 0,
             fmt::format("{}: {} is not the player whose ship was hit ({}): the ship still waits to be put down",
                         member_place(in, "player"), in.player, awaiting->hit_player)},
            {index});
        return;
      }
      awaiting->left_in_place = true;
      awaiting->inputs.push_back(index);
      question_.try_complete(t);
      return;
    case Input::Kind::decide:
      if (awaiting == nullptr || awaiting->need != Need::decision) {
        rulings_.warn(t, {"input", "", 0, fmt::format("{}: a decision given, but no verdict waits for one", in.where)},
                      {index});
        return;
      }
      awaiting->decisions.push_back(in.decision);
      awaiting->inputs.push_back(index);
      question_.try_complete(t);
      return;
    case Input::Kind::choose:
      if (awaiting == nullptr || awaiting->need != Need::choice ||
          std::find(awaiting->options.begin(), awaiting->options.end(), in.choice) == awaiting->options.end()) {
        rulings_.warn(t,
                      {"input", "", 0,
                       fmt::format("{}: the choice {}, but {}", in.where, in.choice,
                                   awaiting != nullptr && awaiting->need == Need::choice ? "it is none of the options"
                                                                                         : "no choice is waited for")},
                      {index});
        return;
      }
      if (const std::string wrong = wrong_chooser(books_.state, in.player, in.choice); !wrong.empty()) {
        rulings_.warn(
            t, {"input", "", 0, fmt::format("{}: {}: the choice still waits", member_place(in, "player"), wrong)},
            {index});
        return;
      }
      if (auto* b = std::get_if<rules::BoardingSegment>(&awaiting->action.body)) b->losses.push_back(in.choice);
      awaiting->inputs.push_back(index);
      question_.try_complete(t);
      return;
    case Input::Kind::counter:
      if (awaiting == nullptr || awaiting->need != Need::drops || !awaiting->drop_asked || !has_counters_) {
        rulings_.warn(t,
                      {"input", in.counter.counter, 0,
                       fmt::format("{}: a counter's face given, but no drop is being read from the table", in.where)},
                      {index});
        return;
      }
      awaiting->answers.push_back({in.counter.counter, in.counter.shows, index});
      awaiting->inputs.push_back(index);
      question_.read_drop(t);
      return;
    case Input::Kind::correct:
      return;  // applied when due (apply_correction)
    case Input::Kind::action:
      break;
  }
  if (pending_) {
    // One thing at a time: what the table is to show finishes first.
    // The wait said in the log is named by its time (an entry's number moves with corrections).
    const std::string since = awaiting != nullptr && awaiting->waiting_since
                                  ? fmt::format(" (the wait said in the log at {:.2f} s)", *awaiting->waiting_since)
                                  : "";
    rules::Refusal r{
        rules::RefusalKind::wrong_step,
        fmt::format("{}: waiting for {}{}; this input comes after it", in.where, question_.expecting().what, since),
        std::nullopt,
        {},
        std::nullopt};
    rulings_.refuse_entry(in.action, r, t, std::nullopt, {index});
    return;
  }
  begin_input_action(index, t);
}

// An action entered whose counters are still to be dropped (an initiative tie, a boarding
// segment's crew combat, ...) or that waits for a player's choice among named disks (the crew a
// boarding side loses) waits for them as an action read from the table does; the rest is applied
// (or refused) at once, as the rules' one run of it came out (another need, a value the line is
// to name or a planet's placement, is refused as the rules say it; a ship-ship collision's ship is
// left where it is).
void EnteredActions::commit_or_wait(std::size_t index, double t) {
  const rules::Action& action = effective_[index].action;
  rules::ActionNeeds trial = rules::needs(books_.state, game_.data, action);
  const auto* choice = trial.need ? std::get_if<rules::NeededChoice>(&trial.need->what) : nullptr;
  const bool waits = trial.need && (std::holds_alternative<rules::NeededDrop>(trial.need->what) ||
                                    (choice != nullptr && !choice->options.empty()));
  if (!waits) {
    if (!trial.outcome.applied() && trial.outcome.refusal->drop) {
      // A drop on the line that does not fit, or one too many: the line is refused, naming it.
      std::vector<std::string> sources(action.drops.size(), member_place(effective_[index], "drops"));
      rulings_.refuse_entry(action, naming_the_drop(*trial.outcome.refusal, sources), t, std::nullopt, {index});
      return;
    }
    rulings_.commit(action, t, std::nullopt, {index}, {}, {}, std::move(trial.outcome));
    return;
  }
  PendingAction waits_for;
  static_cast<ActionDraft&>(waits_for) = entered_draft(index);
  pending_.emplace(std::move(waits_for));
  question_.try_complete(t);
}

ActionDraft EnteredActions::entered_draft(std::size_t index) const {
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
void EnteredActions::begin_input_action(std::size_t index, double t) {
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
    rules::ActionNeeds trial = rules::needs(books_.state, game_.data, probe);
    if (trial.outcome.applied() || (trial.need && std::holds_alternative<rules::NeededDrop>(trial.need->what)))
      return false;
    rulings_.refuse_entry(action, *trial.outcome.refusal, t, std::nullopt, {index});
    return true;
  };
  const rules::ShipState* ship = nullptr;
  for (const rules::ShipState& s : books_.state.ships)
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
  if (const auto* beam = std::get_if<rules::BeamAttack>(&exec->body))
    target = beam->target, ruled = beam->in_range.has_value();
  if (const auto* transport = std::get_if<rules::Transport>(&exec->body)) {
    target = transport->target;
    ruled = transport->in_range.has_value();
    if (ship != nullptr)
      extra_ranges = rules::continuous_bonus(books_.state, game_.data, *ship, rules::AbilityType::transporter_range);
  }
  if (target.empty() || ruled || ship == nullptr) {
    commit_or_wait(index, t);
    return;
  }
  // The range, from the poses on the table now.
  std::optional<Rest> from = rest_of(ship->id, books_.last_settled);
  std::optional<Rest> to = rest_of(target, books_.last_settled);
  const model::DiskSpec* target_disk = registry_.find(target);
  if (!from || !to || target_disk == nullptr) {
    commit_or_wait(index, t);  // not on the table: the books' geometry decides
    return;
  }
  int multiplier = 1 + extra_ranges * game_.data.parameters.plus_one_range_template_lengths;
  Verdict v = range_verdict({ship->shape, from->pose}, from->sigma_mm, target, {target_disk->shape, to->pose},
                            to->sigma_mm, game_.data.parameters.range_template, multiplier);
  Observed o;
  o.disk = ship->id;
  o.verdicts = {v};
  PendingAction in_range;
  static_cast<ActionDraft&>(in_range) = entered_draft(index);
  in_range.disk = ship->id;
  in_range.verdicts = {v};
  in_range.observed = o;
  corrections_.apply_overrides(ship->id, books_.settle_index, in_range.decisions);
  pending_.emplace(std::move(in_range));
  question_.try_complete(t);
}

}  // namespace diskref::referee
