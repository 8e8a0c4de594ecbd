#pragma once
// What the referee shows of the question it holds open (referee.h): what it waits for, and the
// counters on the table as last read. Made by the pending question (pending_question.h).

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "engine/rules/actions.h"
#include "referee/counter_reading.h"
#include "referee/inputs.h"
#include "referee/need.h"
#include "referee/run_verdicts.h"

namespace diskref::referee {

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

}  // namespace diskref::referee
