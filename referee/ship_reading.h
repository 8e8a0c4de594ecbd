#pragma once
// A ship read from the table (table_reading.h, ship_reading.cpp): its move, flip by flip, until it
// has flipped its speed or something else moves; a Change Heading turned in place; a collided ship
// put down again. The move under way is the open question (PendingMove); read, it becomes an action
// the pending question completes (pending_question.h). Owns nothing: what it reads is the
// question's.

#include <optional>
#include <string>

#include "referee/books.h"
#include "referee/corrections.h"
#include "referee/landings.h"
#include "referee/pending_question.h"
#include "referee/referee_options.h"
#include "referee/referee_pending.h"
#include "referee/rulings.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

class ShipReader {
 public:
  ShipReader(const RefereeOptions& options, const Corrections& corrections, Books& books,
             std::optional<Pending>& pending, Rulings& rulings, PendingQuestion& question, const Landings& landings)
      : options_(options),
        corrections_(corrections),
        books_(books),
        pending_(pending),
        rulings_(rulings),
        question_(question),
        landings_(landings) {}

  // A ship's move: begun by its first motion, continued by the next, read as it stands (at a settle
  // that ends it, before an input, at the end of the video).
  void start_move(const std::string& ship, const TableSettle& settle, double since);
  void continue_move(const std::string& ship, const TableSettle& settle);
  void finalize_move(double t);
  void read_heading(const std::string& ship, const TableSettle& settle);
  void read_placement(const std::string& ship, const TableSettle& settle);

 private:
  const RefereeOptions& options_;
  const Corrections& corrections_;  // rulings decided again
  Books& books_;
  std::optional<Pending>& pending_;
  Rulings& rulings_;
  PendingQuestion& question_;
  const Landings& landings_;
};

}  // namespace diskref::referee
