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
#include "referee/camera_gaps.h"
#include "referee/corrections.h"
#include "referee/counter_reading.h"
#include "referee/expectation.h"
#include "referee/fixed.h"
#include "referee/game_file.h"
#include "referee/game_in_progress.h"
#include "referee/inputs.h"
#include "referee/need.h"
#include "referee/referee_log.h"
#include "referee/referee_options.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

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

  const rules::GameState& state() const { return game().books().state; }
  const rules::GameData& data() const { return parts_->fixed.game.data; }
  const std::vector<Entry>& log() const { return game().books().log; }
  int refused() const { return game().books().refused; }
  Expectation expecting() const { return game().question().expecting(); }
  // What was still waited for when finish() was called.
  const std::vector<std::string>& waiting() const { return waiting_; }
  const std::vector<Input>& inputs() const { return parts_->corrections.inputs(); }
  // Every settle read so far (a log entry's `reading` indexes it): a recording takes a still of each.
  const std::vector<TableSettle>& settles() const { return parts_->settles; }
  // The counters on the table as last read (counter_reading.h), for the screen.
  const std::optional<CountersSeen>& counters_seen() const { return game().question().counters_seen(); }

  // LOG.json: {"log": [...], "refused": N, "final_state": {...}} (+ "waiting" when not empty).
  nlohmann::json log_json() const;
  // The game as a `diskref play` script: the setup with the poses the table gave and every action
  // in the order the referee applied (or refused) it. Played, it ends in the same state.
  nlohmann::json as_play_script() const;

 private:
  // The Referee is the flow from outside: frames and inputs in, in time order (referee.cpp). It
  // keeps what every pass of the game is played from, and makes the pass (game_in_progress.h:
  // the books and the jobs that play the game) afresh at the start and for each correction.
  // Corrections are due at their time (corrections.h); each replays the game (replay).
  void apply_corrections_through(double t);
  void replay();
  void note_waiting();

  const GameInProgress& game() const { return *parts_->game; }
  GameInProgress& game() { return *parts_->game; }

  // What a pass is given, and the pass: on the heap, for a pass holds references to them and a
  // Referee is handed on (moved) by the screen and the pipeline.
  struct Parts {
    Fixed fixed;
    Corrections corrections;
    std::vector<TableSettle> settles;    // everything the game is replayed from, with the inputs
    std::optional<GameInProgress> game;  // the game as it stands: made afresh by a replay
  };
  std::unique_ptr<Parts> parts_;

  // Watching the frames: live only, never replayed.
  SettleWatch watch_;
  GapWatch gaps_;
  // Camera gaps: noticed from the frames' times, each said before the settle it came before (a
  // replay says it again there).
  struct NoticedGap {
    GapSpan span;
    std::size_t settles_before = 0;
  };
  std::vector<NoticedGap> noticed_gaps_;
  bool frames_fed_ = false;
  bool finished_ = false;
  std::vector<std::string> waiting_;
};

}  // namespace diskref::referee
