#pragma once
// Corrections (referee.h, corrections.cpp): the inputs as given and as the game is played from, an
// input replaced or dropped, a ruling decided again, the drops read from the table given instead.
// Owns what a correction changes and what a replay keeps: the inputs, the corrected inputs, the
// rulings and drops decided again, the corrections themselves (for the log) and those not yet due.
// The jobs of a pass read it (the inputs, the overrides); only the Referee changes it, and after
// a correction it replays the game (referee.cpp): a fresh pass over the same settles.

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/rules/actions.h"
#include "referee/books.h"
#include "referee/inputs.h"
#include "referee/referee_log.h"
#include "referee/rulings.h"

namespace diskref::referee {

class Corrections {
 public:
  // A ruling decided again: it stands over the call read at the same settle.
  struct Override {
    std::string disk;
    std::size_t reading = 0;
    Decision decision;
  };
  struct DropOverride {
    std::size_t reading = 0;  // the settle a drop was read at...
    rules::SeenDrop drop;     // ...and what the referee says it was instead
    nlohmann::json correction;
  };

  // An input given (live, in time order): its number. A correction is held until it is due.
  std::size_t add(Input input);
  // The next correction held that is due by `t`, taken off those held.
  std::optional<std::size_t> take_due(double t);
  // The correction of that number made: true when it was, and the game is to be replayed; false
  // when it cannot be made (a warning in the books, through the rulings).
  bool apply_correction(std::size_t index, const Books& books, Rulings& rulings);
  // The rulings decided again for the disk at that settle, over its calls.
  void apply_overrides(const std::string& disk, std::size_t reading, std::vector<Decision>& decisions) const;

  const std::vector<Input>& inputs() const { return inputs_; }
  const std::vector<Input>& effective() const { return effective_; }
  const std::vector<bool>& dropped() const { return dropped_; }
  const std::vector<DropOverride>& drop_overrides() const { return drop_overrides_; }
  // The corrections made, as log entries: they stand in the log at their time after a replay.
  const std::vector<Entry>& made() const { return corrections_; }

 private:
  std::vector<Input> inputs_;        // as given, corrections included
  std::vector<Input> effective_;     // what the game is played from: inputs_ with the corrections made
  std::vector<bool> dropped_;        // per effective input: dropped by a correction
  std::vector<Override> overrides_;  // rulings decided again by corrections
  std::vector<DropOverride> drop_overrides_;
  std::vector<Entry> corrections_;             // kept across replays
  std::vector<std::size_t> held_corrections_;  // corrections given, not yet due (effective_ indices)
};

}  // namespace diskref::referee
