// The referee's flow (referee.h): frames and inputs in, in time order. A frame may settle the
// table (settle_watch.h): the table is read (table_reading.cpp) between the inputs due before
// anything moved and those due at the settle (entered_actions.cpp); a correction replays the game
// (corrections.cpp). What the game waits for is kept as one pending question
// (pending_question.cpp); what is decided goes to the rules and the log (rulings.cpp).
#include <algorithm>
#include <limits>

#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include "engine/geometry/shape.h"
#include "referee/referee.h"

namespace diskref::referee {

Referee::Referee(GameFile game, model::TableSpec table, model::DiskRegistry registry, RefereeOptions options)
    : game_(std::move(game)), table_(std::move(table)), registry_(std::move(registry)), options_(options) {
  state_ = game_.initial;
  has_counters_ = has_counters(registry_);
  if (has_counters_) {
    // Counters are read early only with nothing larger than a few of them lying unexplained over
    // the play area (a hand held still is far larger).
    double largest = 0;
    for (const model::DiskSpec& d : registry_.disks())
      if (d.kind == model::DiskKind::counter) largest = std::max(largest, 2 * geom::bounding_radius(d.shape));
    watch_ = SettleWatch({options_.counter_still_s, 2.5 * largest});
  }
  gaps_ = GapWatch({options_.camera_gap_s, options_.moved_mm, options_.turned_deg});
}

// --- Feeding.

void Referee::feed(const model::TrackFrame& frame) {
  if (finished_) return;
  // A correction is due at its time, before the frame of that time: as the screen gives one (with
  // the next frame it tracks), and as a file of inputs read up front replays it.
  apply_corrections_through(frame.t);
  frames_fed_ = true;
  if (std::optional<GapSpan> gap = gaps_.feed(frame, last_settled_)) {
    watch_.interrupt();
    noticed_gaps_.push_back({*gap, settles_.size()});
    say_camera_gap(*gap);
  }
  if (std::optional<TableSettle> s = watch_.feed(frame)) {
    if (s->kind == TableSettle::Kind::table) s->after_gap = gaps_.settled();
    settles_.push_back(*s);
    on_settle(settles_.back());
  }
  if (watch_.settled()) apply_inputs_through(frame.t, false, watch_.settled_since());
}

void Referee::add_input(Input input) {
  inputs_.push_back(input);
  effective_.push_back(input);  // every input keeps its number (file order), corrections too
  dropped_.push_back(false);
  if (input.kind == Input::Kind::correct) {
    applied_.push_back(true);  // a correction applies as nothing itself: it replays the game
    held_corrections_.push_back(effective_.size() - 1);
    // Given for a moment the frames have passed already: at once.
    if (frames_fed_ && input.t <= watch_.last_t()) apply_corrections_through(watch_.last_t());
    return;
  }
  applied_.push_back(false);
  if (watch_.settled()) apply_inputs_through(watch_.last_t(), false, watch_.settled_since());
}

void Referee::finish() {
  if (finished_) return;
  // Corrections given after the video's last frame (the screen's last moments) still count.
  apply_corrections_through(std::numeric_limits<double>::infinity());
  finished_ = true;
  if (watch_.settled()) {
    apply_inputs_through(watch_.last_t(), false, watch_.settled_since());
    if (pending_as<PendingMove>()) finalize_move(watch_.last_t());
  }
  note_waiting();
}

void Referee::note_waiting() {
  waiting_.clear();
  if (!watch_.settled())
    for (const DiskMotion& m : watch_.moving())
      waiting_.push_back(
          fmt::format("{} was moving when the video ended at {:.2f} s (from {:.2f} s): the table never "
                      "settled, so nothing was read from it",
                      m.name, watch_.last_t(), m.first_motion_t));
  if (pending_) waiting_.push_back(expecting().what);
  if (const std::optional<GapSpan> gap = gaps_.open())
    waiting_.push_back(
        fmt::format("the camera was away from {:.2f} s to {:.2f} s and the table did not settle after it: it "
                    "was not read again",
                    gap->from, gap->to));
  for (const HeldMotion& h : held_motions_)
    waiting_.push_back(fmt::format("{} moved at {:.2f} s while the game waited: its move is read once the wait ends",
                                   h.disk, settles_[h.settle].t));
  for (std::size_t i = 0; i < effective_.size(); ++i)
    if (!applied_[i] && effective_[i].kind != Input::Kind::correct)
      waiting_.push_back(fmt::format("input {} ({}, t = {:.2f} s) was not applied: the table did not settle after it",
                                     i, effective_[i].where, effective_[i].t));
}

void Referee::on_settle(const TableSettle& settle) {
  settle_index_ = static_cast<std::size_t>(&settle - settles_.data());
  look_before_ = std::move(drop_look_);
  drop_look_ = settle.snapshot;
  if (settle.kind == TableSettle::Kind::counters) {
    if (set_up_) on_counter_settle(settle);
    return;
  }
  previous_settled_ = last_settled_;
  last_settled_ = settle.snapshot;
  if (!set_up_) {
    setup_from(settle);
    note_strangers(settle);
    apply_inputs_through(settle.t, false, settle.t);
    return;
  }
  // Inputs given before anything moved come first; the table's reading; then the rest.
  double first_motion = settle.t;
  for (const DiskMotion& m : settle.moved) first_motion = std::min(first_motion, m.first_motion_t);
  apply_inputs_through(first_motion, true, settle.t);
  if (settle.after_gap) read_after_gap(settle);
  read_table(settle);
  // Counters that came to rest since the drop was asked for (at once, when the tracker gives no
  // counter settle before this one: a track file without `still_s`).
  if (pending_ && need_of(*pending_) == Need::drops) read_drop(settle.t);
  note_strangers(settle);
  apply_inputs_through(settle.t, false, settle.t);
}

// Counters came to rest, the table not yet settled: the drop waited for is read, or the counters
// are shown for what they are when none is.
void Referee::on_counter_settle(const TableSettle& settle) {
  if (const PendingAction* awaiting = pending_as<PendingAction>();
      awaiting && awaiting->need == Need::drops && awaiting->drop_asked) {
    read_drop(settle.t);
    return;
  }
  CounterReadingInput in = counters_since(look_before_);
  in.need.counters = -1;  // as many as came to rest
  counters_seen_ = CountersSeen{read_counters(in), false, settle_index_, settle.t};
}

CounterReadingInput Referee::counters_since(const model::TrackFrame& baseline) const {
  CounterReadingInput in;
  in.now = drop_look_;
  in.baseline = baseline;
  in.registry = &registry_;
  in.play_area_mm = table_.play_area_mm;
  in.zone = game_.drop_zone;
  in.moved_mm = options_.moved_mm;
  return in;
}

void Referee::apply_inputs_through(double t, bool strictly_before, double log_t_floor) {
  for (std::size_t i = 0; i < effective_.size(); ++i) {
    if (applied_[i] || effective_[i].kind == Input::Kind::correct) continue;
    const double due = effective_[i].t;
    if (strictly_before ? due >= t : due > t) break;  // in time order
    applied_[i] = true;
    apply_input(i, std::max(due, log_t_floor));
  }
}

}  // namespace diskref::referee
