#pragma once
// Actions in JSON, as scripts write them (docs/reference/commands/play.md):
//   {"do": "execute", "player": "diana", "ship": "enterprise", "order": "attack", "attack": "beam",
//    "target": "tderet", "drops": [{"purpose": "damage", "hits": 2}, {"crits": ["bridge"]}]}
// Every action may carry a "note" (ignored: for the rule text a step illustrates).

#include <nlohmann/json_fwd.hpp>

#include "engine/io/json_cursor.h"
#include "engine/rules/actions.h"

namespace diskref::rules {

// Throws InputError naming the file, the JSON path and the problem.
Action parse_action(const io::JsonCursor& cursor);
nlohmann::json action_to_json(const Action& action);

// One drop: {"purpose"?, "subject"?, "hits" | "crits"}.
SeenDrop parse_seen_drop(const io::JsonCursor& cursor);
nlohmann::json seen_drop_to_json(const SeenDrop& drop);

}  // namespace diskref::rules
