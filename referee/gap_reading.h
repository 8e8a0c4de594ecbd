#pragma once
// The table read again after a camera gap (camera_gaps.h, gap_reading.cpp, spec §9 "Camera
// gaps"): the gap said in the log, and the disks the camera found elsewhere than the last settle
// before it had them, put where they were found (never a move, never a flip). Owns nothing; what
// it finds is told to the landings (landings.h), and it reads the motions the table's reading
// holds (table_reading.h): those are still in question.

#include <optional>
#include <string>
#include <vector>

#include "referee/books.h"
#include "referee/landings.h"
#include "referee/referee_options.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/settle_watch.h"
#include "referee/table_reading.h"

namespace diskref::referee {

class GapReader {
 public:
  GapReader(const RefereeOptions& options, Books& books, const std::optional<Pending>& pending, Rulings& rulings,
            Landings& landings, const std::vector<TableReader::HeldMotion>& held_motions)
      : options_(options),
        books_(books),
        pending_(pending),
        rulings_(rulings),
        landings_(landings),
        held_motions_(held_motions) {}

  void say_camera_gap(const GapSpan& gap);
  void read_after_gap(const TableSettle& settle);

 private:
  // The disks the game waits to see move, or seen moving when the camera went away at `from`:
  // read from the table as usual after a gap, never `moved_unseen`.
  std::vector<std::string> in_question_after_gap(const TableSettle& settle, double from) const;

  const RefereeOptions& options_;
  Books& books_;
  const std::optional<Pending>& pending_;
  Rulings& rulings_;
  Landings& landings_;
  const std::vector<TableReader::HeldMotion>& held_motions_;
};

}  // namespace diskref::referee
