#pragma once
// Inside the referee (referee.cpp, table_reading.cpp): what a reading of the table waits for.
// Not part of the referee's interface.

#include <map>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules/actions.h"
#include "referee/referee.h"

namespace diskref::referee {

// Where an input's member is, for messages: "inputs.jsonl: line 11: member \"drops\"".
inline std::string member_place(const Input& in, const char* member) {
  return in.where + ": member \"" + member + "\"";
}

// A refusal about one given drop (bad_drop, unused_drops) names where that drop came from.
inline rules::Refusal naming_the_drop(rules::Refusal refusal, const std::vector<std::string>& sources) {
  if (refusal.drop && *refusal.drop < sources.size()) refusal.reason = sources[*refusal.drop] + ": " + refusal.reason;
  return refusal;
}

struct Referee::Pending {
  enum class Kind {
    move,          // a ship's move, flips still to come (fewer than its speed so far)
    heading,       // a Change Heading without a heading: the ship is to be turned in place
    launch,        // a torpedo attack: the torpedo is to be put in the bay and launched
    torpedo_runs,  // the end of a phase: every torpedo in flight runs
    action,        // an action built and waiting for drops, a decision or a placement
  };
  enum class Need { table, drops, decision, placement, choice };
  static const char* to_string(Need need) {
    switch (need) {
      case Need::table: return "table";
      case Need::drops: return "drops";
      case Need::decision: return "decision";
      case Need::placement: return "placement";
      case Need::choice: return "choice";
    }
    return "?";
  }

  Kind kind = Kind::action;
  Need need = Need::table;
  std::string disk;                 // the mover (the launcher, for a launch)
  Rest start;
  std::vector<Rest> rests;          // where it came to rest so far
  double since = 0;                 // when the reading began

  // The action being completed.
  rules::Action action;
  std::optional<Observed> observed;
  std::vector<Verdict> verdicts;
  std::vector<Decision> decisions;
  std::vector<rules::SeenDrop> drops;
  // Where each of `drops` came from, for a refusal that names it: "inputs.jsonl: line 11: member
  // \"drops\"" (the action's own line, or a `drops` line), or the counters on the table.
  std::vector<std::string> drop_sources;
  std::size_t line_drops = 0;       // how many of `drops` the action's own line gave (the first ones)
  std::vector<Warning> warnings;    // logged with the action
  std::vector<std::size_t> inputs;  // the input that began it, and those it took (drops, decisions)
  std::string need_text;            // what it needs, for the screen and the log
  std::optional<rules::NeededDrop> needed_drop;
  std::string placing;              // Need::placement: the ship to be put down again
  bool placement_optional = false;  // a ship-ship collision: the hit player may leave it
  bool left_in_place = false;
  std::vector<std::string> options;  // Need::choice: what may be chosen
  std::string hit_player;           // Need::placement, optional: the player whose ship was hit

  // The wait said in the log (a `waiting` entry): what it was, and when.
  std::string waiting_said;
  std::optional<double> waiting_since;

  // The drop waited for, read from the counters on the table (counter_reading.h).
  std::optional<std::size_t> drop_asked;   // the needed drop's index the baseline was taken for
  model::TrackFrame drop_baseline;         // the table when it was asked for
  std::vector<CounterAnswer> answers;      // the referee's word on single counters
  std::optional<CounterReading> reading;   // what the counters show so far (not complete)
  std::vector<DropRead> drops_read;        // drops the action took from the table, for the log

  // A launch.
  std::string torpedo;              // the torpedo disk, once seen
  std::optional<Rest> placed;
  bool placement_seen = true;       // false: the bay stands in for it
  int movement = 0;

  // The torpedoes' runs, by torpedo: where it started and where it came to rest.
  struct Run {
    Rest start;
    std::vector<Rest> rests;
    int movement = 0;
    bool gone = false;              // taken off the table (it struck, or left it)
  };
  std::map<std::string, Run> runs;
};

}  // namespace diskref::referee
