#pragma once
// The inputs the referee enters (referee.h, inputs.h, entered_actions.cpp), applied once the video
// has reached their time and the table is settled: the answers to the pending question (drops, a
// decision, a collided ship left in place, a choice, a counter's face), and actions, most applied
// at once, some waiting for the table (a heading turned in place, a torpedo launched, an attack's
// range) or for what the line does not carry.
//
// Owns which inputs are applied. An input answers the pending question (pending_question.h) or
// opens it, or is committed (rulings.h); a ship's move read so far is read as it stands first
// (ship_reading.h).

#include <cstddef>
#include <optional>
#include <vector>

#include "engine/model/disk_registry.h"
#include "referee/books.h"
#include "referee/corrections.h"
#include "referee/fixed.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/pending_question.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/ship_reading.h"

namespace diskref::referee {

class EnteredActions {
 public:
  // Every input the corrections have so far is given, not yet applied (a correction applies as
  // nothing itself: it replays the game).
  EnteredActions(const Fixed& fixed, const Corrections& corrections, Books& books, std::optional<Pending>& pending,
                 Rulings& rulings, PendingQuestion& question, ShipReader& ships);

  // One more input given (the corrections' newest), applied when due.
  void given(const Input& input);
  // The inputs due by `t` (before `t`, when `strictly_before`), in time order; logged no earlier
  // than `log_t_floor` (the table's settle).
  void apply_inputs_through(double t, bool strictly_before, double log_t_floor);
  // Per input the game is played from: applied (or a correction).
  const std::vector<bool>& applied() const { return applied_; }

 private:
  void apply_input(std::size_t index, double t);
  void begin_input_action(std::size_t index, double t);
  void commit_or_wait(std::size_t index, double t);
  // What an entered action waits with: the action, its input, its own drops.
  ActionDraft entered_draft(std::size_t index) const;

  const GameFile& game_;
  const model::DiskRegistry& registry_;
  const bool has_counters_;
  const Corrections& corrections_;       // rulings decided again
  const std::vector<Input>& effective_;  // the inputs the game is played from
  const std::vector<bool>& dropped_;     // ...and those a correction dropped
  Books& books_;
  std::optional<Pending>& pending_;
  Rulings& rulings_;
  PendingQuestion& question_;
  ShipReader& ships_;

  std::vector<bool> applied_;  // per effective input
};

}  // namespace diskref::referee
