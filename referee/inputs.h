#pragma once
// What the referee tells diskref that the camera cannot see (spec §9, INPUTS.jsonl): one JSON
// object a line, in time order, `{"t": SECONDS, ...}` plus the members of one `diskref play`
// action. Beyond the play actions:
//   {"t", "do": "drops", "drops": [...]}     the drops an action read from the table waits for
//   {"t", "do": "leave_in_place"}            the hit player leaves the colliding ship where it is
//                                            ("player", when given, must be that player)
//   {"t", "do": "decide", "kind", "with", "call"}
//        the referee's call on a verdict too close to call (or one he overrules): kind
//        torpedo_contact | overlap | edge | range, `with` the other disk ("play_area" for the
//        edge), call "yes" | "no"
//   {"t", "do": "correct", "input": K, "with": {...} | null}
//        a correction: input K (0-based, in file order) is replaced by `with` (same t) or
//        dropped; the game replays from its start with it
//   {"t", "do": "choose", "choice": DISK}
//        a player's choice the action waits for (the crew a boarding side loses; "player", when
//        given, must be of the side that loses it)
//   {"t", "do": "correct", "entry": N, "decide": {"kind", "with", "call"}}
//        a correction: the ruling of log entry N is decided again
//   {"t", "do": "counter", "counter": NAME, "shows": "hit" | "blank" | "critical"}
//        the referee's word on one counter of a drop read from the table (one it could not read, or
//        one he overrules); without "counter", a counter asked for that is not seen
//   {"t", "do": "correct", "entry": N, "drops": [...]}
//        a correction: the drops log entry N read from the counters on the table are these instead
//        (one per drop read, in order); the game replays from its start with them
// What the table shows (moves, turns, launches, placements) is never entered. Any line may have
// "from": where it was first given ("inputs.jsonl: line 4", "the screen"; a recording writes it),
// which its messages name instead of its own place.

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "engine/io/json_cursor.h"
#include "engine/model/counter_face.h"
#include "engine/rules/actions.h"

namespace diskref::referee {

enum class VerdictKind { torpedo_contact, overlap, edge, range };
const char* to_string(VerdictKind kind);

// The referee's own call on one verdict.
struct Decision {
  VerdictKind kind = VerdictKind::overlap;
  std::string with;
  bool yes = false;
};

struct Input;

struct Correction {
  std::optional<std::size_t> input;          // replace or drop this input...
  std::shared_ptr<const Input> replacement;  // ...with this one (null: drop it)
  std::optional<std::size_t> entry;          // or decide this log entry's verdict again...
  std::optional<Decision> decision;
  std::vector<rules::SeenDrop> drops;  // ...or give the drops it read from the table
};

// The referee's word on one counter of a drop being read (counter_reading.h).
struct CounterWord {
  std::string counter;  // empty: a counter asked for that is not seen
  model::CounterFace::Shows shows = model::CounterFace::Shows::hit;
};

struct Input {
  enum class Kind { action, drops, leave_in_place, decide, choose, correct, counter };
  double t = 0;
  Kind kind = Kind::action;
  rules::Action action;                // Kind::action
  std::vector<rules::SeenDrop> drops;  // Kind::drops
  Decision decision;                   // Kind::decide
  std::string choice;                  // Kind::choose
  std::string player;                  // Kind::leave_in_place, choose: who says it (checked when given)
  Correction correction;               // Kind::correct
  CounterWord counter;                 // Kind::counter
  std::string where;                   // "INPUTS.jsonl: line 4", for messages
};

// One line. Throws InputError naming the place: an unknown "do", a play action that the table
// shows instead (move, move_torpedoes, displaced), a bad time.
Input parse_input(const io::JsonCursor& line);
nlohmann::json input_to_json(const Input& input);
// input_to_json with "from": where it was given (as a recording keeps it).
nlohmann::json input_to_json_with_place(const Input& input);

// A whole file; times must not go backwards (the file is in time order). Throws InputError.
std::vector<Input> load_inputs(const std::filesystem::path& file);

}  // namespace diskref::referee
