#pragma once
// The pending question (referee.h, referee_pending.h, pending_question.cpp): an action read from
// the table, or entered, completed with the referee's word (drops, from a `drops` line or the
// counters on the table; a decision on a verdict too close to call; a collided ship put down
// again; a choice) and then committed to the rules; the wait said in the log; what the game waits
// for, for the screen.
//
// The question itself is held by the pass (game_in_progress.h), for every job reads it: the
// table's reading opens it and answers it, an input answers it, the rulings look whether one is
// open. This job completes it, and owns what only it uses: the table as the drop reading looks at
// it, and the counters as last read.
//
// Control goes down to the rulings, and back up once: a question closed reads the motions held
// while it was open (`read_held_motions`, given by the pass: the table's reading).

#include <functional>
#include <optional>
#include <vector>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "referee/books.h"
#include "referee/corrections.h"
#include "referee/counter_reading.h"
#include "referee/expectation.h"
#include "referee/fixed.h"
#include "referee/game_file.h"
#include "referee/referee_options.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

class PendingQuestion {
 public:
  PendingQuestion(const Fixed& fixed, const Corrections& corrections, Books& books, std::optional<Pending>& pending,
                  Rulings& rulings, std::function<void()> read_held_motions);

  // The action waiting (a PendingAction) put to the rules: committed, refused, or waiting for the
  // referee's word.
  void try_complete(double t);
  // The drop waited for, from the counters on the table now (the last settle's); given to the
  // rules once every counter asked for is read or answered.
  void read_drop(double t);
  // What the game waits for, for the screen.
  Expectation expecting() const;

  // The table at a settle of either kind: what the counters on it are read against.
  void look_at(const model::TrackFrame& snapshot);
  // Counters came to rest, the table not yet settled.
  void on_counter_settle(const TableSettle& settle);
  // The counters on the table as last read (counter_reading.h), for the screen.
  const std::optional<CountersSeen>& counters_seen() const { return counters_seen_; }

 private:
  using DropOverride = Corrections::DropOverride;

  // A `waiting` entry when the action read or entered starts waiting for the referee's word.
  void say_waiting(double t);
  // The counters on the table now (the last settle's) against `baseline`, for read_counters: the
  // same table, zone and thresholds for a drop asked for and for counters dropped unasked.
  CounterReadingInput counters_since(const model::TrackFrame& baseline) const;

  const GameFile& game_;
  const model::TableSpec& table_;
  const model::DiskRegistry& registry_;
  const RefereeOptions& options_;
  const bool has_counters_;
  const std::vector<DropOverride>& drop_overrides_;  // drops read, given instead by a correction
  Books& books_;
  std::optional<Pending>& pending_;
  Rulings& rulings_;
  std::function<void()> read_held_motions_;  // back up: the table's reading (TableReader)

  model::TrackFrame drop_look_;    // the table at the last settle of either kind
  model::TrackFrame look_before_;  // ...and at the one before
  std::optional<CountersSeen> counters_seen_;
};

}  // namespace diskref::referee
