#pragma once
// The game state as JSON, and back. state_from_json(state_to_json(s)) gives s again exactly
// (doubles are written with enough digits to round-trip; the PRNG words as hex strings).

#include <string>

#include <nlohmann/json_fwd.hpp>

#include "engine/io/json_cursor.h"
#include "engine/rules/state.h"

namespace diskref::rules {

nlohmann::json state_to_json(const GameState& state);
// Throws InputError naming the file and JSON path of anything malformed.
GameState state_from_json(const io::JsonCursor& root);

nlohmann::json pose_to_json(const geom::Pose& pose);
// A heading for files: to nine decimals, in [0, 360) (a heading that went through a rotation is
// 1e-14 off the one read: 5.499999999999999 for 5.5).
double heading_to_json(double heading_deg);
// {"x": .., "y": .., "heading": ..} (heading in degrees, any finite value; stored wrapped to [0, 360)).
geom::Pose parse_pose(const io::JsonCursor& cursor);

}  // namespace diskref::rules
