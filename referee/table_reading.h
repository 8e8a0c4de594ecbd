#pragma once
// Reading the table (referee.h, table_reading.cpp): at each settle, where every disk lay when the
// game began, what moved since the last settle and how it is read: a ship's move, a Change Heading
// or a collided ship put down (ship_reading.h), a launch or the torpedoes' runs
// (torpedo_reading.h), a turn at Full Stop, a motion held while the game waits, anything else out
// of turn; and the disks no part of the game. After a camera gap the table is read again first
// (gap_reading.h).
//
// Owns what only this reading uses: the motions held while an action waits, the strangers already
// warned of. A reading opens the pending question (pending_question.h) or answers it, and commits
// what needs no answer (rulings.h).

#include <optional>
#include <string>
#include <vector>

#include "engine/model/disk_registry.h"
#include "referee/books.h"
#include "referee/fixed.h"
#include "referee/game_file.h"
#include "referee/landings.h"
#include "referee/move_reading.h"
#include "referee/referee_options.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/settle_watch.h"
#include "referee/ship_reading.h"
#include "referee/torpedo_reading.h"

namespace diskref::referee {

class TableReader {
 public:
  // The ship whose turn it is, moved while an action waited for the referee: read as its move once
  // the wait ends.
  struct HeldMotion {
    std::string disk;
    std::size_t settle = 0;  // in the settles
    double since = 0;
  };

  TableReader(const Fixed& fixed, const std::vector<TableSettle>& settles, Books& books,
              std::optional<Pending>& pending, Rulings& rulings, const Landings& landings, ShipReader& ships,
              TorpedoReader& torpedoes);

  // The game's start: every disk where the table has it.
  void setup_from(const TableSettle& settle);
  // A settle: what moved since the last one.
  void read_table(const TableSettle& settle);
  void note_strangers(const TableSettle& settle);
  // The motions held while a question was open, read now (called by the question, closed).
  void read_held_motions();
  const std::vector<HeldMotion>& held_motions() const { return held_motions_; }

 private:
  void read_disk(const std::string& name, const TableSettle& settle, double since);
  void displaced(const std::string& name, const TableSettle& settle, const std::string& why);
  // The ship whose turn it is moved while an action waits for the referee: its motion is held
  // and read as its move once the wait ends (read_held_motions).
  void hold_motion(const std::string& name, const TableSettle& settle, double since);

  const GameFile& game_;
  const model::DiskRegistry& registry_;
  const RefereeOptions& options_;
  const std::vector<TableSettle>& settles_;
  Books& books_;
  std::optional<Pending>& pending_;
  Rulings& rulings_;
  const Landings& landings_;
  ShipReader& ships_;
  TorpedoReader& torpedoes_;

  // Disks on the table that are no part of this game, already warned of (warned again only after
  // they have left the table and come back).
  std::vector<std::string> strangers_;
  std::vector<HeldMotion> held_motions_;
};

}  // namespace diskref::referee
