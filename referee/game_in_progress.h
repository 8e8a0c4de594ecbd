#pragma once
// One pass of the game through the settles (referee.h, game_in_progress.cpp): the books, the
// question held open, and the jobs that play the game from the table and the inputs, each given
// what it shares by reference at construction:
//
//   GapReader       reads the table again after a camera gap   (gap_reading.h)
//   TableReader     reads the table at each settle             (table_reading.h)
//   ShipReader      ... a ship's move, heading, placement      (ship_reading.h)
//   TorpedoReader   ... a launch, the torpedoes' runs          (torpedo_reading.h)
//   Landings        ... where disks landed, a flip's length    (landings.h)
//   EnteredActions  applies the inputs when due                (entered_actions.h)
//   PendingQuestion completes the question held open           (pending_question.h)
//   Rulings         commits to the rules, writes the log       (rulings.h)
//
// Control goes down that list, but once back up: the question, closed, reads the motions the
// table's reading held while it was open (the one call back up, given to the question here). The
// inputs read a ship's move as it stands before they apply (across, to the ship's reading).
//
// The Referee makes a fresh pass at the start, and again for each correction (a replay): what a
// pass owns is what a replay starts afresh, and what it is given (the fixed game, the corrected
// inputs, the settles) is what a replay keeps.

#include <optional>
#include <vector>

#include "referee/books.h"
#include "referee/corrections.h"
#include "referee/entered_actions.h"
#include "referee/fixed.h"
#include "referee/gap_reading.h"
#include "referee/landings.h"
#include "referee/pending_question.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/settle_watch.h"
#include "referee/ship_reading.h"
#include "referee/table_reading.h"
#include "referee/torpedo_reading.h"

namespace diskref::referee {

class GameInProgress {
 public:
  GameInProgress(const Fixed& fixed, const Corrections& corrections, const std::vector<TableSettle>& settles);
  // The jobs hold references to each other and to the books: a pass stays where it was made.
  GameInProgress(const GameInProgress&) = delete;
  GameInProgress& operator=(const GameInProgress&) = delete;

  // A settle (the last of the settles, or one of them again in a replay): the table read between
  // the inputs due before anything moved and those due at the settle; counters that came to rest.
  void on_settle(const TableSettle& settle);

  const Books& books() const { return books_; }
  Books& books() { return books_; }
  const std::optional<Pending>& pending() const { return pending_; }
  Rulings& rulings() { return rulings_; }
  const PendingQuestion& question() const { return question_; }
  const TableReader& reader() const { return reader_; }
  ShipReader& ships() { return ships_; }
  GapReader& gaps() { return gaps_; }
  const EnteredActions& entered() const { return entered_; }
  EnteredActions& entered() { return entered_; }

 private:
  const std::vector<TableSettle>& settles_;
  Books books_;
  std::optional<Pending> pending_;  // what a reading of the table waits for (one at a time)
  Rulings rulings_;
  PendingQuestion question_;
  Landings landings_;
  ShipReader ships_;
  TorpedoReader torpedoes_;
  TableReader reader_;
  GapReader gaps_;
  EnteredActions entered_;
};

}  // namespace diskref::referee
