#pragma once
// The referee: where the table's snapshots meet the rules (spec §9). It follows a game from the
// tracker's frames and the referee's inputs, and keeps its books:
//
//   frames  -> SettleWatch -> a TableSettle each time the table settles
//   settle  -> what moved since, read as the rules expect it now: the move of the ship whose turn
//              it is (flips counted, drift per flip, the torpedoes it met, where it ends), a Change
//              Heading turned in place, a torpedo put in the bay and launched, the torpedoes' runs
//              at the end of a phase, a collided ship put down again; anything else moved is a
//              warning and the books take the table's pose
//   inputs  -> applied once the video has reached their time and the table is settled
//   both    -> rules::apply_action; every ruling is logged with its evidence
//
// An action read from the table may wait: for drops (the referee's `drops` input, or virtual
// drops), for the referee's decision on a verdict too close to call, for a collided ship to be put
// down (or `leave_in_place`). An action entered waits the same way for what its line does not
// carry (its drops are used first; a `drops` line gives the rest). When it starts waiting for what
// only the person refereeing can give, a `waiting` entry says so in the log. While it waits, other
// inputs are refused (logged, naming the wait, nothing changes); the ship whose turn it is, moved
// meanwhile, has its motion held and read as its move once the wait ends (never out of turn).
//
// A camera gap (camera_gaps.h: two frames more than `camera_gap_s` apart) is a `camera_gap`
// warning the moment the camera is back, and the table is read again at the next settle: a disk
// the camera finds elsewhere than the last settle had it moved while it was away, a `moved_unseen`
// warning, and the books take where it was found (never a move, never a flip); a disk the game was
// waiting to see move (a move under way, a turn in place, a ship to put down, a launch, the
// torpedoes' runs, a motion held, or one seen moving when the camera went away) is read from the
// table as after any other stretch, the flips the camera missed counted from the distance.
//
// Corrections (an input replaced or dropped, a ruling decided again) replay the game from its start
// over the same table with the corrected inputs; the log keeps both the correction and what it
// replaced. A correction takes effect at its time, before the frame of that time (as the screen
// gives one), so that a file of inputs read up front logs it where the live game did.
//
// Library code: never prints, never exits; one thread at a time.

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/model/disk_registry.h"
#include "engine/model/table_spec.h"
#include "engine/model/track_frame.h"
#include "engine/rules/apply.h"
#include "referee/camera_gaps.h"
#include "referee/counter_reading.h"
#include "referee/game_file.h"
#include "referee/inputs.h"
#include "referee/need.h"
#include "referee/referee_log.h"
#include "referee/referee_pending.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

struct RefereeOptions {
  double off_path_tolerance_mm = 3.0;  // spec §9: a landing farther than this from its legal place warns
  double moved_mm = 1.5;               // a disk farther than this (and 3 sigma) from its books pose has moved
  double turned_deg = 2.0;             // ...or turned more than this
  double turn_tolerance_deg = 8.0;     // a heading change mid-move counted as a turn (evasive action)
  double start_tolerance_mm = 10.0;    // a disk at the start farther than this from the game file's pose warns
  double near_mm = 10.0;               // overlap verdicts for every disk this close to where a move ends
  // A drop of counters is read once the play area has been still this long after a counter moved
  // (settle_watch.h), sooner than the table's settle: a counter at rest changes nothing in the
  // picture, and 0.2 s is six frames of a 30 fps camera, twice the time the tracker takes to call a
  // disk still (DiskTrackerOptions::settle_time_s). 0: drops are read at the table's settle.
  double counter_still_s = 0.2;
  // Two frames further apart than this (s) are a camera gap (camera_gaps.h, spec §9): the camera
  // went away and came back. A 30 fps camera's frames are 33 ms apart (a 15 fps one's 67 ms), so a
  // frame or two dropped is far below it and is no gap: the tracker follows the table through that
  // as through a hand. A second is long enough for a disk to be moved unseen.
  double camera_gap_s = 1.0;
};

// What the referee waits for now, for the screen and for "the video ended mid-move".
struct Expectation {
  std::string what;  // a sentence: "enterprise's move (2 of 3 flips so far)", "drops: damage drop for ..."
  std::string disk;  // the disk concerned, if any
  using Need = referee::Need;
  Need need = Need::nothing;
  std::vector<Verdict> undecided;          // Need::decision
  std::optional<rules::NeededDrop> drop;   // Need::drops: the next drop the action waits for
  bool placement_optional = false;         // Need::placement: the hit player may leave it in place
  std::vector<std::string> options;        // Need::choice: the disks one of which is to be chosen
  std::optional<CounterReading> counters;  // Need::drops: what the counters on the table show so far
};

// The counters on the table as last read: for the drop asked for, or dropped when none was.
struct CountersSeen {
  CounterReading reading;
  bool asked = false;      // read for a drop the game asked for
  std::size_t settle = 0;  // the settle it was read at
  double t = 0;
};

class Referee {
 public:
  Referee(GameFile game, model::TableSpec table, model::DiskRegistry registry, RefereeOptions options = {});

  // One tracker frame, in time order.
  void feed(const model::TrackFrame& frame);
  // One input (in time order; live, as the referee gives it). Applied when due.
  void add_input(Input input);
  // The video (or the camera) ended at `t`: inputs still due are applied if the table was settled;
  // what is still waited for is noted (waiting()).
  void finish();

  const rules::GameState& state() const { return state_; }
  const rules::GameData& data() const { return game_.data; }
  const std::vector<Entry>& log() const { return log_; }
  int refused() const { return refused_; }
  Expectation expecting() const;
  // What was still waited for when finish() was called.
  const std::vector<std::string>& waiting() const { return waiting_; }
  const std::vector<Input>& inputs() const { return inputs_; }
  // Every settle read so far (a log entry's `reading` indexes it): a recording takes a still of each.
  const std::vector<TableSettle>& settles() const { return settles_; }
  // The counters on the table as last read (counter_reading.h), for the screen.
  const std::optional<CountersSeen>& counters_seen() const { return counters_seen_; }

  // LOG.json: {"log": [...], "refused": N, "final_state": {...}} (+ "waiting" when not empty).
  nlohmann::json log_json() const;
  // The game as a `diskref play` script: the setup with the poses the table gave and every action
  // in the order the referee applied (or refused) it. Played, it ends in the same state.
  nlohmann::json as_play_script() const;

 private:
  // The member functions by job, each job in a file of its own. Control flows down this list: the
  // flow reads the table and applies the inputs; a reading or an input opens or answers the
  // pending question; the question, complete, commits to the rules. Two ways lead back up: a
  // correction replays the flow from the start, and a question closed reads the motions held
  // while it was open (read_held_motions).

  // The flow (referee.cpp): processing shared by live feeding and by a replay after a correction.
  void on_settle(const TableSettle& settle);
  void on_counter_settle(const TableSettle& settle);
  // The counters on the table now (the last settle's) against `baseline`, for read_counters: the
  // same table, zone and thresholds for a drop asked for and for counters dropped unasked.
  CounterReadingInput counters_since(const model::TrackFrame& baseline) const;
  void apply_inputs_through(double t, bool strictly_before, double log_t_floor);
  void note_waiting();

  // Corrections and the replay (corrections.cpp).
  void apply_corrections_through(double t);
  void apply_correction(std::size_t index);
  void replay();
  void apply_overrides(const std::string& disk, std::vector<Decision>& decisions) const;

  // The inputs entered (entered_actions.cpp).
  void apply_input(std::size_t index, double log_t);
  void begin_input_action(std::size_t index, double t);
  void commit_or_wait(std::size_t index, double t);
  // What an entered action waits with: the action, its input, its own drops.
  ActionDraft entered_draft(std::size_t index) const;

  // Reading the table (table_reading.cpp).
  void setup_from(const TableSettle& settle);
  void read_table(const TableSettle& settle);
  void read_disk(const std::string& name, const TableSettle& settle, double since);
  void displaced(const std::string& name, const TableSettle& settle, const std::string& why);
  void note_strangers(const TableSettle& settle);
  // Where the tracker saw the disk land in the stretch before the settle; a disk found moved
  // after a gap landed where it was found only in the camera's eyes (no flip): not those.
  std::vector<Rest> landings_of(const TableSettle& settle, const std::string& name) const;
  // The ship whose turn it is moved while an action waits for the referee: its motion is held
  // (hold_motion) and read as its move once the wait ends (read_held_motions).
  void hold_motion(const std::string& name, const TableSettle& settle, double since);
  void read_held_motions();
  // A ship (ship_reading.cpp): its move, a heading turned in place, a collided ship put down.
  void start_move(const std::string& ship, const TableSettle& settle, double since);
  void continue_move(const std::string& ship, const TableSettle& settle);
  void finalize_move(double t);
  void read_heading(const std::string& ship, const TableSettle& settle);
  void read_placement(const std::string& ship, const TableSettle& settle);
  // Torpedoes (torpedo_reading.cpp): a launch, the runs at the end of a phase.
  void read_launch(const TableSettle& settle);
  void begin_torpedo_runs(double t);
  void read_torpedo_runs(const TableSettle& settle);
  // After a camera gap (camera_gaps.h, gap_reading.cpp): the gap said in the log, and the table
  // read again.
  void say_camera_gap(const GapSpan& gap);
  void read_after_gap(const TableSettle& settle);
  // The disks the game waits to see move, or seen moving when the camera went away at `from`:
  // read from the table as usual after a gap, never `moved_unseen`.
  std::vector<std::string> in_question_after_gap(const TableSettle& settle, double from) const;

  // The pending question (pending_question.cpp): an action completed with the referee's word.
  void try_complete(double t);
  // A `waiting` entry when the action read or entered starts waiting for the referee's word.
  void say_waiting(double t);
  // The drop waited for, from the counters on the table now (the last settle's); given to the
  // rules once every counter asked for is read or answered.
  void read_drop(double t);

  // Committing to the rules, and the log (rulings.cpp).
  // An action to the rules, logged, and the Full Stop moves that follow it (full_stop_moves).
  // `outcome`, when given, is the rules' run of this action on the state now (rules::needs): it is
  // what is entered, and the rules do not run again.
  void commit(const rules::Action& action, double t, std::optional<Observed> observed, std::vector<std::size_t> inputs,
              std::vector<Warning> warnings = {}, std::vector<DropRead> drops_read = {},
              std::optional<rules::ActionResult> outcome = std::nullopt);
  // An action to the rules, logged with its warnings: nothing follows.
  void enter_ruling(const rules::Action& action, double t, std::optional<Observed> observed,
                    std::vector<std::size_t> inputs, std::vector<Warning> warnings = {},
                    std::vector<DropRead> drops_read = {}, std::optional<rules::ActionResult> outcome = std::nullopt);
  void refuse_entry(const rules::Action& action, const rules::Refusal& refusal, double t,
                    std::optional<Observed> observed, std::vector<std::size_t> inputs,
                    std::vector<DropRead> drops_read = {});
  Entry& warn(double t, Warning w, std::vector<std::size_t> inputs = {});
  void full_stop_moves(double t);

  // Lookups (table_lookups.cpp; pending_as here).
  // The question held open, when it is of this kind (referee_pending.h).
  template <class Question>
  Question* pending_as() {
    return pending_ ? std::get_if<Question>(&*pending_) : nullptr;
  }
  template <class Question>
  const Question* pending_as() const {
    return pending_ ? std::get_if<Question>(&*pending_) : nullptr;
  }
  std::optional<Rest> rest_of(const std::string& name, const model::TrackFrame& frame) const;
  std::optional<geom::Pose> books_pose(const std::string& name) const;
  double sigma_of(const std::string& name) const;           // at the last settle
  double sigma_of_previous(const std::string& name) const;  // at the settle before (a move's start)
  std::string ship_to_act() const;
  double flip_length(const std::string& name) const;

  // Fixed.
  GameFile game_;
  model::TableSpec table_;
  model::DiskRegistry registry_;
  RefereeOptions options_;

  // Everything the game is replayed from.
  std::vector<TableSettle> settles_;
  std::vector<Input> inputs_;     // as given, corrections included
  std::vector<Input> effective_;  // what the game is played from: inputs_ with the corrections made
  std::vector<bool> dropped_;     // per effective input: dropped by a correction
  struct Override {
    std::string disk;
    std::size_t reading = 0;
    Decision decision;
  };
  std::vector<Override> overrides_;  // rulings decided again by corrections
  struct DropOverride {
    std::size_t reading = 0;  // the settle a drop was read at...
    rules::SeenDrop drop;     // ...and what the referee says it was instead
    nlohmann::json correction;
  };
  std::vector<DropOverride> drop_overrides_;
  std::vector<Entry> corrections_;             // kept across replays
  std::vector<std::size_t> held_corrections_;  // corrections given, not yet due (effective_ indices)
  bool frames_fed_ = false;

  // The game as it stands.
  SettleWatch watch_;
  rules::GameState state_;
  rules::GameState initial_from_table_;  // the start, with the poses the table gave
  std::vector<Entry> log_;
  std::vector<rules::Action> actions_;  // applied or refused, in order (as_play_script)
  int refused_ = 0;
  bool set_up_ = false;
  std::vector<bool> applied_;           // per effective input
  model::TrackFrame last_settled_;      // the table at the last settle
  model::TrackFrame previous_settled_;  // ... and at the one before
  std::size_t settle_index_ = 0;
  std::vector<std::string> waiting_;
  bool finished_ = false;
  // Disks on the table that are no part of this game, already warned of (warned again only after
  // they have left the table and come back).
  std::vector<std::string> strangers_;
  std::optional<Pending> pending_;  // what a reading of the table waits for (one at a time)
  struct HeldMotion {
    std::string disk;
    std::size_t settle = 0;  // in settles_
    double since = 0;
  };
  std::vector<HeldMotion> held_motions_;
  bool has_counters_ = false;      // the registry has counters: drops are read from the table
  model::TrackFrame drop_look_;    // the table at the last settle of either kind
  model::TrackFrame look_before_;  // ...and at the one before
  std::optional<CountersSeen> counters_seen_;
  // Camera gaps: noticed from the frames' times, each said before the settle it came before (a
  // replay says it again there); the landings of disks found moved after one that are no landings.
  GapWatch gaps_;
  struct NoticedGap {
    GapSpan span;
    std::size_t settles_before = 0;
  };
  std::vector<NoticedGap> noticed_gaps_;
  struct UnseenRest {
    std::size_t settle = 0;
    std::string disk;
    double until = 0;  // its landings up to this time are where the camera found it
  };
  std::vector<UnseenRest> unseen_rests_;
};

}  // namespace diskref::referee
