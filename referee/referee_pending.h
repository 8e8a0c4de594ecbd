#pragma once
// Inside the referee (referee.h): the question a reading of the table, or an action entered, holds
// open until the table or the referee answers it, one at a time. One struct per kind of question;
// a move, a launch and the torpedoes' runs become an action once the table has shown them
// (PendingAction), which may then wait for the referee's word. Not part of the referee's
// interface: the screen sees the question as an Expectation.

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <variant>
#include <vector>

#include "engine/model/track_frame.h"
#include "engine/rules/actions.h"
#include "referee/counter_reading.h"
#include "referee/inputs.h"
#include "referee/move_reading.h"
#include "referee/need.h"
#include "referee/referee_log.h"
#include "referee/run_verdicts.h"

namespace diskref::referee {

// The action a question ends in, as far as it is known, and what it took so far.
struct ActionDraft {
  rules::Action action;
  std::vector<rules::SeenDrop> drops;
  // Where each of `drops` came from, for a refusal that names it: "inputs.jsonl: line 11: member
  // \"drops\"" (the action's own line, or a `drops` line), or the counters on the table.
  std::vector<std::string> drop_sources;
  std::size_t line_drops = 0;       // how many of `drops` the action's own line gave (the first ones)
  std::vector<std::size_t> inputs;  // the input that began it, and those it took (drops, decisions)
};

// A ship's move, flips still to come (fewer than its speed so far).
struct PendingMove {
  std::string ship;
  Rest start;
  std::vector<Rest> rests;  // where it came to rest so far
};

// A Change Heading entered without a heading: the ship is to be turned in place.
struct PendingHeading {
  std::string ship;
  ActionDraft entered;
};

// A torpedo attack entered: the torpedo is to be put in the bay and launched.
struct PendingLaunch {
  std::string launcher;
  ActionDraft entered;
  std::string torpedo;  // the torpedo disk, once seen
  std::optional<Rest> placed;
  bool placement_seen = true;  // false: the bay stands in for it
  int movement = 0;
  std::vector<Rest> rests;  // where it came to rest after it was placed
};

// One torpedo's run at the end of a phase: where it started and where it came to rest.
struct TorpedoRun {
  Rest start;
  std::vector<Rest> rests;
  int movement = 0;
  bool gone = false;  // taken off the table (it struck, or left it)
};

// The end of a phase: every torpedo in flight runs.
struct PendingTorpedoRuns {
  std::map<std::string, TorpedoRun> runs;
};

// An action built and waiting for drops, a decision or a placement.
struct PendingAction : ActionDraft {
  std::string disk;  // the mover (the launcher, for a launch; none for the torpedoes' runs)
  // The torpedoes whose runs it was read from: still the game's question after a camera gap.
  std::vector<std::string> runs_read;
  std::optional<Observed> observed;
  std::vector<Verdict> verdicts;
  std::vector<Decision> decisions;
  std::vector<Warning> warnings;  // logged with the action
  Need need = Need::table;
  std::string need_text;  // what it needs, for the screen and the log
  std::optional<rules::NeededDrop> needed_drop;
  std::string placing;              // Need::placement: the ship to be put down again
  bool placement_optional = false;  // a ship-ship collision: the hit player may leave it
  bool left_in_place = false;
  std::vector<std::string> options;  // Need::choice: what may be chosen
  std::string hit_player;            // Need::placement, optional: the player whose ship was hit

  // The wait said in the log (a `waiting` entry): what it was, and when.
  std::string waiting_said;
  std::optional<double> waiting_since;

  // The drop waited for, read from the counters on the table (counter_reading.h).
  std::optional<std::size_t> drop_asked;  // the needed drop's index the baseline was taken for
  model::TrackFrame drop_baseline;        // the table when it was asked for
  std::vector<CounterAnswer> answers;     // the referee's word on single counters
  std::optional<CounterReading> reading;  // what the counters show so far (not complete)
  std::vector<DropRead> drops_read;       // drops the action took from the table, for the log
};

using Pending = std::variant<PendingMove, PendingHeading, PendingLaunch, PendingTorpedoRuns, PendingAction>;

// What the question waits for: the table, but for an action that waits for the referee's word.
inline Need need_of(const Pending& pending) {
  const auto* action = std::get_if<PendingAction>(&pending);
  return action != nullptr ? action->need : Need::table;
}

// The question held open, when it is of this kind.
template <class Question>
Question* pending_as(std::optional<Pending>& pending) {
  return pending ? std::get_if<Question>(&*pending) : nullptr;
}
template <class Question>
const Question* pending_as(const std::optional<Pending>& pending) {
  return pending ? std::get_if<Question>(&*pending) : nullptr;
}

}  // namespace diskref::referee
