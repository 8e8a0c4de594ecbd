// Corrections (referee.h): an input replaced or dropped, a ruling decided again, the drops read
// from the table given instead. Each replays the game from its start over the same settles with
// the corrected inputs; the log keeps the correction and what it replaced.
#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "referee/referee.h"

namespace diskref::referee {

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
      if (e.kind == Entry::Kind::action && std::count(e.inputs.begin(), e.inputs.end(), k))
        c.correction["entry_was"] = entry_to_json(e);
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
      warn(input.t,
           {"correction", "", 0,
            n < log_.size() && !log_[n].drops_read.empty()
                ? fmt::format("log entry {} read {} drop(s) from the table: give as many", n, log_[n].drops_read.size())
                : fmt::format("log entry {} read no drop from the table", n)});
      return;
    }
    c.correction["entry_was"] = entry_to_json(log_[n]);
    for (std::size_t k = 0; k < input.correction.drops.size(); ++k)
      drop_overrides_.push_back(
          {log_[n].drops_read[k].reading, input.correction.drops[k], {{"input", index}, {"t", input.t}}});
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
  if (watch_.settled())
    apply_inputs_through(watch_.last_t(), false, settled_since);
  else if (!settles_.empty())
    apply_inputs_through(watch_.still_until(), false, settled_since);
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

// A ruling decided again by a correction stands over the call read at the same settle.
void Referee::apply_overrides(const std::string& disk, std::vector<Decision>& decisions) const {
  for (const Override& o : overrides_)
    if (o.disk == disk && o.reading == settle_index_) decisions.push_back(o.decision);
}

}  // namespace diskref::referee
