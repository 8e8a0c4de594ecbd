// One pass of the game through the settles (game_in_progress.h): the jobs wired together, and a
// settle read between the inputs.
#include "referee/game_in_progress.h"

#include <algorithm>

namespace diskref::referee {

GameInProgress::GameInProgress(const Fixed& fixed, const Corrections& corrections,
                               const std::vector<TableSettle>& settles)
    : settles_(settles),
      rulings_(books_, fixed.game.data, pending_),
      // The one way back up: a question closed reads the motions held while it was open.
      question_(fixed, corrections, books_, pending_, rulings_, [this] { reader_.read_held_motions(); }),
      landings_(fixed.registry, settles, books_),
      ships_(fixed.options, corrections, books_, pending_, rulings_, question_, landings_),
      torpedoes_(fixed.registry, fixed.options, corrections, books_, pending_, rulings_, question_, landings_),
      reader_(fixed, settles, books_, pending_, rulings_, landings_, ships_, torpedoes_),
      gaps_(fixed.options, books_, pending_, rulings_, landings_, reader_.held_motions()),
      entered_(fixed, corrections, books_, pending_, rulings_, question_, ships_) {
  books_.state = fixed.game.initial;
}

void GameInProgress::on_settle(const TableSettle& settle) {
  books_.settle_index = static_cast<std::size_t>(&settle - settles_.data());
  question_.look_at(settle.snapshot);
  if (settle.kind == TableSettle::Kind::counters) {
    if (books_.set_up) question_.on_counter_settle(settle);
    return;
  }
  books_.previous_settled = books_.last_settled;
  books_.last_settled = settle.snapshot;
  if (!books_.set_up) {
    reader_.setup_from(settle);
    reader_.note_strangers(settle);
    entered_.apply_inputs_through(settle.t, false, settle.t);
    return;
  }
  // Inputs given before anything moved come first; the table's reading; then the rest.
  double first_motion = settle.t;
  for (const DiskMotion& m : settle.moved) first_motion = std::min(first_motion, m.first_motion_t);
  entered_.apply_inputs_through(first_motion, true, settle.t);
  if (settle.after_gap) gaps_.read_after_gap(settle);
  reader_.read_table(settle);
  // Counters that came to rest since the drop was asked for (at once, when the tracker gives no
  // counter settle before this one: a track file without `still_s`).
  if (pending_ && need_of(*pending_) == Need::drops) question_.read_drop(settle.t);
  reader_.note_strangers(settle);
  entered_.apply_inputs_through(settle.t, false, settle.t);
}

}  // namespace diskref::referee
