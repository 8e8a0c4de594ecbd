// The referee's flow (referee.h): frames and inputs in, in time order. A frame may settle the
// table (settle_watch.h): the pass of the game (game_in_progress.h) reads it between the inputs
// due before anything moved and those due at the settle; a correction (corrections.h) replays the
// game, a fresh pass over the same settles.
#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/shape.h"
#include "referee/referee.h"

namespace diskref::referee {

Referee::Referee(GameFile game, model::TableSpec table, model::DiskRegistry registry, RefereeOptions options)
    : parts_(std::make_unique<Parts>()) {
  Fixed& fixed = parts_->fixed;
  fixed.game = std::move(game);
  fixed.table = std::move(table);
  fixed.registry = std::move(registry);
  fixed.options = options;
  fixed.has_counters = has_counters(fixed.registry);
  if (fixed.has_counters) {
    // Counters are read early only with nothing larger than a few of them lying unexplained over
    // the play area (a hand held still is far larger).
    double largest = 0;
    for (const model::DiskSpec& d : fixed.registry.disks())
      if (d.kind == model::DiskKind::counter) largest = std::max(largest, 2 * geom::bounding_radius(d.shape));
    watch_ = SettleWatch({fixed.options.counter_still_s, 2.5 * largest});
  }
  gaps_ = GapWatch({fixed.options.camera_gap_s, fixed.options.moved_mm, fixed.options.turned_deg});
  parts_->game.emplace(parts_->fixed, parts_->corrections, parts_->settles);
}

// --- Feeding.

void Referee::feed(const model::TrackFrame& frame) {
  if (finished_) return;
  // A correction is due at its time, before the frame of that time: as the screen gives one (with
  // the next frame it tracks), and as a file of inputs read up front replays it.
  apply_corrections_through(frame.t);
  frames_fed_ = true;
  if (std::optional<GapSpan> gap = gaps_.feed(frame, game().books().last_settled)) {
    watch_.interrupt();
    noticed_gaps_.push_back({*gap, parts_->settles.size()});
    game().gaps().say_camera_gap(*gap);
  }
  if (std::optional<TableSettle> s = watch_.feed(frame)) {
    if (s->kind == TableSettle::Kind::table) s->after_gap = gaps_.settled();
    parts_->settles.push_back(*s);
    game().on_settle(parts_->settles.back());
  }
  if (watch_.settled()) game().entered().apply_inputs_through(frame.t, false, watch_.settled_since());
}

void Referee::add_input(Input input) {
  parts_->corrections.add(input);  // every input keeps its number (file order), corrections too
  game().entered().given(input);
  if (input.kind == Input::Kind::correct) {
    // A correction applies as nothing itself: it replays the game. Given for a moment the frames
    // have passed already: at once.
    if (frames_fed_ && input.t <= watch_.last_t()) apply_corrections_through(watch_.last_t());
    return;
  }
  if (watch_.settled()) game().entered().apply_inputs_through(watch_.last_t(), false, watch_.settled_since());
}

void Referee::finish() {
  if (finished_) return;
  // Corrections given after the video's last frame (the screen's last moments) still count.
  apply_corrections_through(std::numeric_limits<double>::infinity());
  finished_ = true;
  if (watch_.settled()) {
    game().entered().apply_inputs_through(watch_.last_t(), false, watch_.settled_since());
    if (pending_as<PendingMove>(game().pending())) game().ships().finalize_move(watch_.last_t());
  }
  note_waiting();
}

void Referee::note_waiting() {
  const std::vector<Input>& effective = parts_->corrections.effective();
  const std::vector<bool>& applied = game().entered().applied();
  waiting_.clear();
  if (!watch_.settled())
    for (const DiskMotion& m : watch_.moving())
      waiting_.push_back(
          fmt::format("{} was moving when the video ended at {:.2f} s (from {:.2f} s): the table never "
                      "settled, so nothing was read from it",
                      m.name, watch_.last_t(), m.first_motion_t));
  if (game().pending()) waiting_.push_back(expecting().what);
  if (const std::optional<GapSpan> gap = gaps_.open())
    waiting_.push_back(
        fmt::format("the camera was away from {:.2f} s to {:.2f} s and the table did not settle after it: it "
                    "was not read again",
                    gap->from, gap->to));
  for (const TableReader::HeldMotion& h : game().reader().held_motions())
    waiting_.push_back(fmt::format("{} moved at {:.2f} s while the game waited: its move is read once the wait ends",
                                   h.disk, parts_->settles[h.settle].t));
  for (std::size_t i = 0; i < effective.size(); ++i)
    if (!applied[i] && effective[i].kind != Input::Kind::correct)
      waiting_.push_back(fmt::format("input {} ({}, t = {:.2f} s) was not applied: the table did not settle after it",
                                     i, effective[i].where, effective[i].t));
}

// --- Corrections (corrections.h), each due at its time, and the replay it asks for.

void Referee::apply_corrections_through(double t) {
  while (const std::optional<std::size_t> index = parts_->corrections.take_due(t))
    if (parts_->corrections.apply_correction(*index, game().books(), game().rulings())) replay();
}

// --- Replay after a correction: the same settles, the corrected inputs.

// A fresh pass (game_in_progress.h) resets whatever the game did from the settles and the inputs:
// the books, the question, the held motions, which inputs were applied, the counters seen. It
// starts as before the first settle: a gap said before it is read at none.
void Referee::replay() {
  parts_->game.emplace(parts_->fixed, parts_->corrections, parts_->settles);
  const std::vector<TableSettle>& all_settles = parts_->settles;
  EnteredActions& entered = game().entered();
  double settled_since = 0;
  // The camera gaps, each where it was said live: after the inputs applied before it, before the
  // settle that came after it.
  std::size_t next_gap = 0;
  auto say_gaps_before = [&](std::size_t settle) {
    for (; next_gap < noticed_gaps_.size() && noticed_gaps_[next_gap].settles_before <= settle; ++next_gap)
      game().gaps().say_camera_gap(noticed_gaps_[next_gap].span);
  };
  for (std::size_t s = 0; s < all_settles.size(); ++s) {
    if (s > 0) entered.apply_inputs_through(all_settles[s].still_until, false, settled_since);
    say_gaps_before(s);
    game().on_settle(all_settles[s]);
    if (all_settles[s].kind == TableSettle::Kind::table) settled_since = all_settles[s].t;
  }
  // The inputs the live referee applied while the table stayed settled after its last settle:
  // up to now if it still is, else up to its last settled frame.
  if (watch_.settled())
    entered.apply_inputs_through(watch_.last_t(), false, settled_since);
  else if (!all_settles.empty())
    entered.apply_inputs_through(watch_.still_until(), false, settled_since);
  say_gaps_before(all_settles.size());
  if (finished_) {
    if (watch_.settled() && pending_as<PendingMove>(game().pending())) game().ships().finalize_move(watch_.last_t());
    note_waiting();
  }
  // The corrections themselves stand in the log at their time.
  std::vector<Entry>& entries = game().books().log;
  for (const Entry& c : parts_->corrections.made()) {
    auto at = std::upper_bound(entries.begin(), entries.end(), c.t, [](double t, const Entry& e) { return t < e.t; });
    entries.insert(at, c);
  }
}

}  // namespace diskref::referee
