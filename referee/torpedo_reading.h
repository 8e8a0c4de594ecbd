#pragma once
// Torpedoes read from the table (table_reading.h, torpedo_reading.cpp): a torpedo put in the
// launcher's bay and flipped on its launch run, and every torpedo's run at the end of a phase. Each
// is an open question (PendingLaunch, PendingTorpedoRuns) until the table has shown it; read, it
// becomes an action the pending question completes (pending_question.h). Owns nothing.

#include <optional>
#include <vector>

#include "engine/model/disk_registry.h"
#include "referee/books.h"
#include "referee/corrections.h"
#include "referee/inputs.h"
#include "referee/landings.h"
#include "referee/pending_question.h"
#include "referee/referee_options.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/run_verdicts.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

class TorpedoReader {
 public:
  TorpedoReader(const model::DiskRegistry& registry, const RefereeOptions& options, const Corrections& corrections,
                Books& books, std::optional<Pending>& pending, Rulings& rulings, PendingQuestion& question,
                const Landings& landings)
      : registry_(registry),
        options_(options),
        corrections_(corrections),
        effective_(corrections.effective()),
        books_(books),
        pending_(pending),
        rulings_(rulings),
        question_(question),
        landings_(landings) {}

  void read_launch(const TableSettle& settle);
  void begin_torpedo_runs(double t);
  void read_torpedo_runs(const TableSettle& settle);

 private:
  // What a torpedo's run is judged against: the other disks where the books have them, with their
  // sigma now.
  RunContext run_context(const std::string& torpedo, const geom::Shape& shape) const;

  const model::DiskRegistry& registry_;
  const RefereeOptions& options_;
  const Corrections& corrections_;       // rulings decided again
  const std::vector<Input>& effective_;  // the inputs the game is played from
  Books& books_;
  std::optional<Pending>& pending_;
  Rulings& rulings_;
  PendingQuestion& question_;
  const Landings& landings_;
};

}  // namespace diskref::referee
