#pragma once
// Reading the table (referee.h; table_reading.cpp, ship_reading.cpp, torpedo_reading.cpp,
// gap_reading.cpp): at each settle, where every disk lay when the game began, what moved since the
// last settle and how it is read (a ship's move or a turn at Full Stop, a Change Heading turned in
// place, a collided ship put down again, a launch, the torpedoes' runs, a motion held while the
// game waits, anything else out of turn), the disks no part of the game, and the table read again
// after a camera gap.
//
// Owns what only the reading uses: the motions held while an action waits, the strangers already
// warned of, the rests found after a camera gap that are no landings. A reading opens the pending
// question (pending_question.h) or answers it, and commits what needs no answer (rulings.h).

#include <optional>
#include <string>
#include <vector>

#include "engine/model/disk_registry.h"
#include "referee/books.h"
#include "referee/corrections.h"
#include "referee/fixed.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/move_reading.h"
#include "referee/pending_question.h"
#include "referee/referee_options.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/settle_watch.h"

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

  TableReader(const Fixed& fixed, const std::vector<TableSettle>& settles, const Corrections& corrections, Books& books,
              std::optional<Pending>& pending, Rulings& rulings, PendingQuestion& question);

  // The game's start: every disk where the table has it (table_reading.cpp).
  void setup_from(const TableSettle& settle);
  // A settle: what moved since the last one.
  void read_table(const TableSettle& settle);
  void note_strangers(const TableSettle& settle);
  // The motions held while a question was open, read now (called by the question, closed).
  void read_held_motions();
  const std::vector<HeldMotion>& held_motions() const { return held_motions_; }
  // A ship's move read as it stands (ship_reading.cpp): at a settle that ends it, before an input,
  // at the end of the video.
  void finalize_move(double t);
  // After a camera gap (camera_gaps.h, gap_reading.cpp): the gap said in the log, and the table
  // read again.
  void say_camera_gap(const GapSpan& gap);
  void read_after_gap(const TableSettle& settle);

 private:
  // table_reading.cpp
  void read_disk(const std::string& name, const TableSettle& settle, double since);
  void displaced(const std::string& name, const TableSettle& settle, const std::string& why);
  // Where the tracker saw the disk land in the stretch before the settle; a disk found moved
  // after a gap landed where it was found only in the camera's eyes (no flip): not those.
  std::vector<Rest> landings_of(const TableSettle& settle, const std::string& name) const;
  // The ship whose turn it is moved while an action waits for the referee: its motion is held
  // and read as its move once the wait ends (read_held_motions).
  void hold_motion(const std::string& name, const TableSettle& settle, double since);
  double flip_length(const std::string& name) const;
  // A ship (ship_reading.cpp): its move, a heading turned in place, a collided ship put down.
  void start_move(const std::string& ship, const TableSettle& settle, double since);
  void continue_move(const std::string& ship, const TableSettle& settle);
  void read_heading(const std::string& ship, const TableSettle& settle);
  void read_placement(const std::string& ship, const TableSettle& settle);
  // Torpedoes (torpedo_reading.cpp): a launch, the runs at the end of a phase.
  void read_launch(const TableSettle& settle);
  void begin_torpedo_runs(double t);
  void read_torpedo_runs(const TableSettle& settle);
  // The disks the game waits to see move, or seen moving when the camera went away at `from`:
  // read from the table as usual after a gap, never `moved_unseen` (gap_reading.cpp).
  std::vector<std::string> in_question_after_gap(const TableSettle& settle, double from) const;

  const GameFile& game_;
  const model::DiskRegistry& registry_;
  const RefereeOptions& options_;
  const std::vector<TableSettle>& settles_;
  const Corrections& corrections_;       // rulings decided again
  const std::vector<Input>& effective_;  // the inputs the game is played from
  Books& books_;
  std::optional<Pending>& pending_;
  Rulings& rulings_;
  PendingQuestion& question_;

  // Disks on the table that are no part of this game, already warned of (warned again only after
  // they have left the table and come back).
  std::vector<std::string> strangers_;
  std::vector<HeldMotion> held_motions_;
  // The landings of disks found moved after a camera gap that are no landings.
  struct UnseenRest {
    std::size_t settle = 0;
    std::string disk;
    double until = 0;  // its landings up to this time are where the camera found it
  };
  std::vector<UnseenRest> unseen_rests_;
};

}  // namespace diskref::referee
