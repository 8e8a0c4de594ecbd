#pragma once
// The referee's log (spec §9, LOG.json): `diskref play`'s log with every entry's time `t` (seconds
// into the video), what was read from the table (`observed`), and warnings as entries of their own.
// Beyond the spec (docs/reference/commands/referee.md, "The log"): a `setup` entry (where every
// disk lay when the game began), `correction` entries, an entry's `inputs` (the inputs it came
// from, 0-based in INPUTS.jsonl), its `reading` (the settle of the table it was taken at: a
// recording's still, spec §11), `waiting` entries (the moment an action starts waiting for the
// referee's word, spec §9), the camera gaps' warnings (`camera_gap` with the gap's `from`, `to`
// and `seconds`; `moved_unseen` with the disks found moved, spec §9 "camera gaps") and, at the
// top, `waiting` (what the referee still waited for when the video ended).

#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "engine/geometry/pose.h"
#include "engine/rules/script.h"
#include "referee/counter_reading.h"
#include "referee/move_reading.h"
#include "referee/run_verdicts.h"
#include "referee/settle_watch.h"

namespace diskref::referee {

struct Warning {
  std::string kind;  // off_path, out_of_turn, uncounted, flip_count, start, not_in_game, placement, ...
  std::string disk;
  double distance_mm = 0;
  std::string text;
};

// What a ruling was taken from, on the table.
struct Observed {
  std::string disk;
  std::optional<Rest> start;
  std::vector<std::optional<Rest>> landings;  // per flip; absent: not seen
  std::vector<geom::Pose> legal_landings;
  std::vector<std::optional<double>> drift_mm;
  std::optional<Rest> end;
  std::optional<Rest> placed;
  std::vector<Verdict> verdicts;
};

// A drop read from the counters on the table (counter_reading.h), as an entry's evidence: the
// settle it was read at (`reading`: the recording's still it came from), the counters with their
// poses, faces and why any was not read, the drop it gave, and who overruled it, if anyone.
struct DropRead {
  std::size_t reading = 0;
  double t = 0;
  CounterReading counters;
  rules::SeenDrop drop;                     // what the rules were given
  std::optional<std::size_t> overruled_by;  // the referee's `drops` input, given over the reading
  nlohmann::json corrected;                 // a correction's drop that replaced the reading's (null: none)
};

// The referee starts waiting for what only the person refereeing can give (spec §9): drops, a
// decision on a verdict too close to call, a collided ship put down again, a player's choice. Said
// once when the wait begins (again when it moves on to another drop), so that a log read
// afterwards shows where the game stood still.
struct Wait {
  std::string need;                       // "drops", "decision", "placement", "choice"
  std::string disk;                       // the disk whose action waits
  std::string text;                       // what it waits for, as the screen asks it
  std::optional<rules::NeededDrop> drop;  // drops: the drop asked for
  std::vector<std::string> options;       // choice: what may be chosen
};

// A disk the camera found elsewhere after a gap (warning moved_unseen, spec §9 "Camera gaps"):
// where it lay at the last settle before the gap, and where the camera found it after.
struct UnseenMove {
  std::string disk;
  Rest before;
  Rest found;
  double distance_mm = 0;
  double turned_deg = 0;  // signed, -180..180]
};

// One disk as the game began (the setup entry).
struct SetupDisk {
  std::string name;
  std::optional<Rest> rest;            // absent: not on the table
  std::optional<geom::Pose> expected;  // the game file's pose
};

struct Entry {
  enum class Kind { action, warning, setup, correction, waiting };
  Kind kind = Kind::action;
  double t = 0;
  rules::LogEntry play;              // action
  std::optional<Observed> observed;  // action read from the table (or an attack's range)
  std::vector<std::size_t> inputs;   // the inputs it came from (the action's, then drops, decisions);
                                     // a warning about an input, or a wait: those concerned
  std::size_t reading = 0;           // the settle it was read at (a correction names it)
  std::vector<DropRead> drops_read;  // action: its drops read from the counters on the table
  Warning warning;                   // warning
  std::vector<SetupDisk> setup;      // setup
  nlohmann::json correction;         // correction: what was corrected, and the entry it replaced
  Wait waiting;                      // waiting
  std::optional<GapSpan> gap;        // warning camera_gap or moved_unseen: the camera's gap
  std::vector<UnseenMove> unseen;    // warning moved_unseen: the disks found moved
};

nlohmann::json rest_to_json(const Rest& rest);
nlohmann::json observed_to_json(const Observed& observed);
nlohmann::json entry_to_json(const Entry& entry);
nlohmann::json drop_read_to_json(const DropRead& read);

// The entry as a person reads it, on one line: what happened and the ruling ("enterprise flips 2
// times; enterprise has finished phase 1"), a warning or a refusal with its reason; the verdicts
// read from the table with their margins. For `diskref referee --story` and the screen's log.
std::string entry_text(const Entry& entry);

// What kind of line the entry is, for a reader's colour: "info" (an action applied), "refusal",
// "warning", "correction", "setup" or "waiting" (the live feed's `tone`, spec §10.1; the report's).
const char* entry_tone(const Entry& entry);

}  // namespace diskref::referee
