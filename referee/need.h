#pragma once
// What the referee waits for now: the table to show something, or the word of the person
// refereeing (drops, a decision on a verdict too close to call, a collided ship put down again, a
// player's choice). The screen's Expectation, the pending question and a `waiting` entry say it.

namespace diskref::referee {

enum class Need { nothing, table, drops, decision, placement, choice };

// "table", "drops", ...: as a `waiting` entry's `need` says it.
inline const char* to_string(Need need) {
  switch (need) {
    case Need::nothing:
      return "nothing";
    case Need::table:
      return "table";
    case Need::drops:
      return "drops";
    case Need::decision:
      return "decision";
    case Need::placement:
      return "placement";
    case Need::choice:
      return "choice";
  }
  return "?";
}

}  // namespace diskref::referee
